/**
 * The app's small controls: buttons, fields, checkboxes, switches, radios, badges, spinners.
 * One look everywhere: 32 px controls, 14 px text, the accent for primary actions.
 */
import { useId, type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import styles from './ui.module.css';

const cx = (...names: (string | false | null | undefined)[]) => names.filter(Boolean).join(' ');

/** Props of {@link Button}. */
export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  readonly variant?: 'primary' | 'secondary' | 'ghost' | 'danger' | 'link';
  readonly size?: 'm' | 's';
  /** Shows a spinner and disables the button. */
  readonly busy?: boolean;
}

/** A button; `type="button"` unless told otherwise. */
export function Button({ variant = 'secondary', size = 'm', busy = false, className, children, disabled, type = 'button', ...rest }: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      className={cx(styles.button, styles[variant], size === 's' && styles.small, className)}
    >
      {busy ? <Spinner size={14} /> : null}
      {children}
    </button>
  );
}

/** A spinning ring. */
export function Spinner({ size = 20, label }: { readonly size?: number; readonly label?: string }) {
  return (
    <span className={styles.spinner} style={{ width: size, height: size }} role={label ? 'status' : undefined} aria-label={label}>
      <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true">
        <circle cx="12" cy="12" r="9.5" fill="none" stroke="currentColor" strokeOpacity="0.2" strokeWidth="3" />
        <path d="M21.5 12a9.5 9.5 0 0 0-9.5-9.5" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      </svg>
    </span>
  );
}

/** Props of {@link Field}. */
export interface FieldProps {
  readonly label?: ReactNode;
  /** Help under the control. */
  readonly hint?: ReactNode;
  /** The error text, shown in red under the control in place of the hint. */
  readonly error?: string | null | undefined;
  /** Id of the control, for the label. */
  readonly htmlFor?: string;
  readonly children: ReactNode;
  readonly className?: string;
  /** A counter such as «12 / 55» at the label's end. */
  readonly aside?: ReactNode;
}

/** A label, a control, and a hint or (in its place) an error, stacked. */
export function Field({ label, hint, error, htmlFor, children, className, aside }: FieldProps) {
  return (
    <div className={cx(styles.field, className)}>
      {label || aside ? (
        <div className={styles.labelRow}>
          {label ? (
            <label className={styles.label} htmlFor={htmlFor}>
              {label}
            </label>
          ) : (
            <span />
          )}
          {aside ? <span className={styles.aside}>{aside}</span> : null}
        </div>
      ) : null}
      {children}
      {/* The error replaces the hint: «От 8 до 128 символов» beside «Минимум 8 символов» says it twice. */}
      {hint && !error ? <div className={styles.hint}>{hint}</div> : null}
      {error ? (
        <div className={styles.error} role="alert" data-testid="field-error">
          {error}
        </div>
      ) : null}
    </div>
  );
}

/** Props of {@link TextInput}. */
export interface TextInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  readonly invalid?: boolean;
}

/** A one-line text input. */
export function TextInput({ invalid = false, className, ...rest }: TextInputProps) {
  return <input {...rest} aria-invalid={invalid || undefined} className={cx(styles.input, invalid && styles.invalid, className)} />;
}

/** A drop-down choice of a toolbar (a funnel, a period, an attribution model): as tall as a text input. */
export function Select({ className, ...rest }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select {...rest} className={cx(styles.select, className)} />;
}

/** A multi-line text input. */
export function TextArea({ invalid = false, className, ...rest }: TextareaHTMLAttributes<HTMLTextAreaElement> & { readonly invalid?: boolean }) {
  return <textarea {...rest} aria-invalid={invalid || undefined} className={cx(styles.input, styles.textarea, invalid && styles.invalid, className)} />;
}

/** A text field with its label, hint and error. */
export function TextField({
  label,
  hint,
  error,
  aside,
  className,
  ...input
}: TextInputProps & { readonly label?: ReactNode; readonly hint?: ReactNode; readonly error?: string | null | undefined; readonly aside?: ReactNode }) {
  const generated = useId();
  const id = input.id ?? generated;
  return (
    <Field label={label} hint={hint} error={error} htmlFor={id} aside={aside} {...(className ? { className } : {})}>
      <TextInput {...input} id={id} invalid={Boolean(error)} />
    </Field>
  );
}

/** Props of {@link Checkbox} and {@link Switch}. */
export interface ToggleProps {
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
  readonly children?: ReactNode;
  /** A second line under the label. */
  readonly description?: ReactNode;
  readonly disabled?: boolean;
  readonly name?: string;
  readonly className?: string;
  readonly 'data-testid'?: string;
}

/** A checkbox with its label. */
export function Checkbox({ checked, onChange, children, description, disabled, name, className, ...rest }: ToggleProps) {
  return (
    <label className={cx(styles.toggle, disabled && styles.toggleDisabled, className)}>
      <input
        type="checkbox"
        className={styles.checkbox}
        checked={checked}
        disabled={disabled}
        name={name}
        data-testid={rest['data-testid']}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span className={styles.toggleText}>
        <span>{children}</span>
        {description ? <span className={styles.toggleDescription}>{description}</span> : null}
      </span>
    </label>
  );
}

/** An on/off switch with its label. */
export function Switch({ checked, onChange, children, description, disabled, name, className, ...rest }: ToggleProps) {
  return (
    <label className={cx(styles.toggle, disabled && styles.toggleDisabled, className)}>
      <input
        type="checkbox"
        role="switch"
        className={styles.switchInput}
        checked={checked}
        disabled={disabled}
        name={name}
        data-testid={rest['data-testid']}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span className={styles.switchTrack} aria-hidden="true">
        <span className={styles.switchThumb} />
      </span>
      <span className={styles.toggleText}>
        <span>{children}</span>
        {description ? <span className={styles.toggleDescription}>{description}</span> : null}
      </span>
    </label>
  );
}

/** Props of {@link RadioGroup}. */
export interface RadioGroupProps<V extends string | number> {
  readonly name: string;
  readonly value: V | null;
  readonly options: readonly { readonly value: V; readonly label: ReactNode; readonly description?: ReactNode }[];
  readonly onChange: (value: V) => void;
  readonly disabled?: boolean;
  readonly inline?: boolean;
  readonly 'aria-label'?: string;
}

/** A group of radio buttons. */
export function RadioGroup<V extends string | number>({ name, value, options, onChange, disabled, inline = false, ...rest }: RadioGroupProps<V>) {
  return (
    <div role="radiogroup" aria-label={rest['aria-label']} className={cx(styles.radios, inline && styles.radiosInline)}>
      {options.map((o) => (
        <label key={String(o.value)} className={cx(styles.toggle, disabled && styles.toggleDisabled)}>
          <input type="radio" className={styles.radio} name={name} checked={value === o.value} disabled={disabled} onChange={() => onChange(o.value)} />
          <span className={styles.toggleText}>
            <span>{o.label}</span>
            {o.description ? <span className={styles.toggleDescription}>{o.description}</span> : null}
          </span>
        </label>
      ))}
    </div>
  );
}

/**
 * A control disabled for a reason, with the reason as its tooltip; with no reason, the control alone.
 * The title sits on a wrapper and the disabled control takes no pointer events: Chromium sends a
 * disabled button no hover, so a title of its own would not show.
 */
export function DisabledReason({ reason, children }: { readonly reason: string | null; readonly children: ReactNode }) {
  if (reason === null) return <>{children}</>;
  return (
    <span className={styles.disabledReason} title={reason} data-testid="disabled-reason">
      {children}
    </span>
  );
}

/** A small coloured label. */
export function Badge({ tone = 'neutral', children, title }: { readonly tone?: 'neutral' | 'progress' | 'success' | 'danger' | 'accent'; readonly children: ReactNode; readonly title?: string }) {
  return (
    <span className={cx(styles.badge, styles[`badge_${tone}`])} title={title}>
      {children}
    </span>
  );
}

/** A white panel with an optional title row. */
export function Panel({
  title,
  actions,
  children,
  className,
  description,
  'data-testid': testId,
}: {
  readonly title?: ReactNode;
  readonly actions?: ReactNode;
  readonly description?: ReactNode;
  readonly children: ReactNode;
  readonly className?: string;
  readonly 'data-testid'?: string;
}) {
  return (
    <section className={cx(styles.panel, className)} data-testid={testId}>
      {title || actions ? (
        <header className={styles.panelHeader}>
          <div>
            {title ? <h2 className={styles.panelTitle}>{title}</h2> : null}
            {description ? <p className={styles.panelDescription}>{description}</p> : null}
          </div>
          {actions ? <div className={styles.panelActions}>{actions}</div> : null}
        </header>
      ) : null}
      {children}
    </section>
  );
}

/** A page's title row: the title, an optional line under it and actions at the right. */
export function PageHeader({ title, children, actions }: { readonly title: ReactNode; readonly children?: ReactNode; readonly actions?: ReactNode }) {
  return (
    <header className={styles.pageHeader}>
      <div className={styles.pageHeading}>
        <h1 className={styles.pageTitle}>{title}</h1>
        {children}
      </div>
      {actions ? <div className={styles.pageActions}>{actions}</div> : null}
    </header>
  );
}

/** A notice strip inside a page. */
export function Notice({ tone = 'info', children, onClose, 'data-testid': testId }: { readonly tone?: 'info' | 'warning' | 'danger' | 'success'; readonly children: ReactNode; readonly onClose?: () => void; readonly 'data-testid'?: string }) {
  return (
    <div className={cx(styles.notice, styles[`notice_${tone}`])} role={tone === 'danger' ? 'alert' : 'note'} data-testid={testId}>
      <div className={styles.noticeBody}>{children}</div>
      {onClose ? (
        <button type="button" className={styles.noticeClose} onClick={onClose} aria-label="Закрыть">
          <CloseIcon />
        </button>
      ) : null}
    </div>
  );
}

/** A 16 px cross. */
export function CloseIcon() {
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
      <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}
