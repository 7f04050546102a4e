import toolbarStyles from './Toolbar.module.css';

/** A row of exclusive choices (the toolbar's look). */
export function Segmented<V extends string | number>({
  label,
  options,
  value,
  onChange,
  attr,
}: {
  readonly label: string;
  readonly options: readonly { readonly value: V; readonly title: string }[];
  readonly value: V;
  readonly onChange: (value: V) => void;
  readonly attr: string;
}) {
  return (
    <div className={toolbarStyles.segmented} role="group" aria-label={label}>
      {options.map((o) => (
        <button
          key={String(o.value)}
          type="button"
          className={o.value === value ? `${toolbarStyles.segment} ${toolbarStyles.segmentActive}` : toolbarStyles.segment}
          aria-pressed={o.value === value}
          onClick={() => onChange(o.value)}
          {...{ [attr]: String(o.value) }}
        >
          {o.title}
        </button>
      ))}
    </div>
  );
}
