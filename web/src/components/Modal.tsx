import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button, CloseIcon } from './ui';
import styles from './Modal.module.css';

/** Props of {@link Modal}. */
export interface ModalProps {
  readonly title: ReactNode;
  readonly onClose: () => void;
  readonly children: ReactNode;
  /** Buttons at the bottom. */
  readonly footer?: ReactNode;
  readonly width?: number;
  readonly 'data-testid'?: string;
}

/**
 * A dialog over a dimmed page: closes on Escape, on the cross and on a click outside; focus moves
 * into it and returns to where it was on close.
 */
export function Modal({ title, onClose, children, footer, width = 480, 'data-testid': testId }: ModalProps) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = box.current?.querySelector<HTMLElement>('input, button:not([data-close]), select, textarea, a[href]');
    (first ?? box.current)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close.current();
    };
    document.addEventListener('keydown', onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      before?.focus();
    };
  }, []);
  return createPortal(
    <div className={styles.backdrop} onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={box}
        className={styles.modal}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        style={{ width }}
        data-testid={testId}
      >
        <header className={styles.header}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          <button type="button" data-close className={styles.close} onClick={onClose} aria-label="Закрыть">
            <CloseIcon />
          </button>
        </header>
        <div className={styles.body}>{children}</div>
        {footer ? <footer className={styles.footer}>{footer}</footer> : null}
      </div>
    </div>,
    document.body,
  );
}

/** Props of {@link FormFooter}. */
export interface FormFooterProps {
  /** The id of the form that «save» submits. */
  readonly form: string;
  readonly saveLabel: string;
  readonly cancelLabel: string;
  readonly busy: boolean;
  /** An error of the last save, shown at the left. */
  readonly error?: string | null;
  readonly onCancel: () => void;
  readonly saveTestId: string;
  readonly errorTestId?: string;
}

/** The footer of a form in a {@link Modal}: the last save's error at the left, «cancel» and «save» at the right. */
export function FormFooter({ form, saveLabel, cancelLabel, busy, error, onCancel, saveTestId, errorTestId }: FormFooterProps) {
  return (
    <div className={styles.formFooter}>
      {error ? (
        <span className={styles.formError} role="alert" data-testid={errorTestId}>
          {error}
        </span>
      ) : null}
      <span className={styles.grow} />
      <Button onClick={onCancel}>{cancelLabel}</Button>
      <Button variant="primary" type="submit" form={form} busy={busy} data-testid={saveTestId}>
        {saveLabel}
      </Button>
    </div>
  );
}

/** Props of {@link ConfirmDialog}. */
export interface ConfirmDialogProps {
  readonly title: ReactNode;
  readonly children?: ReactNode;
  readonly confirmLabel: string;
  readonly cancelLabel?: string;
  readonly danger?: boolean;
  readonly busy?: boolean;
  /** An error of the last attempt, shown above the buttons. */
  readonly error?: string | null;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

/** A question with «confirm» and «cancel». */
export function ConfirmDialog({ title, children, confirmLabel, cancelLabel = 'Отмена', danger = false, busy = false, error, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Modal
      title={title}
      onClose={onCancel}
      width={440}
      data-testid="confirm-dialog"
      footer={
        <>
          <Button onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm} busy={busy} data-testid="confirm-button">
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </Modal>
  );
}
