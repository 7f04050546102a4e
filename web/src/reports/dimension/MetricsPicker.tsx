import { useRef, useState } from 'react';
import { METRIC_INFO, type Metric } from '@stat/schemas/catalogue';
import { useDismiss } from '../../components/useDismiss';
import styles from './MetricsPicker.module.css';

/** Props of {@link MetricsPicker}. */
export interface MetricsPickerProps {
  /** Every metric the report offers, in its order. */
  readonly available: readonly Metric[];
  /** The metrics shown. */
  readonly value: readonly Metric[];
  /** Most metrics shown at once (spec 001 §9: by the page's width). */
  readonly limit: number;
  /** Called on close, only when the choice changed; never with none. */
  readonly onChange: (metrics: Metric[]) => void;
}

/**
 * «Показатели»: the metrics settings of a report (spec 001 §2 "metrics settings"). Checkboxes in
 * the report's order; at least one stays checked and at most `limit` (§5 "Multi-select": the
 * others are disabled with «Можно выбрать не больше {limit}»); the choice applies when the list
 * closes.
 */
export function MetricsPicker({ available, value, limit, onChange }: MetricsPickerProps) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<readonly Metric[]>(value);
  const root = useRef<HTMLDivElement>(null);
  const state = useRef({ draft, value, onChange });
  state.current = { draft, value, onChange };

  const close = () => {
    setOpen(false);
    const { draft: chosen, value: before, onChange: apply } = state.current;
    // The order of the report, not the order of the clicks.
    const ordered = available.filter((m) => chosen.includes(m));
    if (ordered.length > 0 && (ordered.length !== before.length || ordered.some((m, i) => m !== before[i]))) apply(ordered);
  };
  const closeRef = useRef(close);
  closeRef.current = close;

  useDismiss(open, root, () => closeRef.current());

  return (
    <div className={styles.root} ref={root}>
      <button
        type="button"
        className={open ? `${styles.trigger} ${styles.open}` : styles.trigger}
        aria-expanded={open}
        onClick={() => {
          if (open) close();
          else {
            setDraft(value);
            setOpen(true);
          }
        }}
        data-testid="metrics-picker"
      >
        Показатели: {value.length} из {available.length}
      </button>
      {open ? (
        <div className={styles.popover} role="dialog" aria-label="Показатели">
          {available.map((metric) => {
            const checked = draft.includes(metric);
            const last = checked && draft.length === 1;
            const full = !checked && draft.length >= limit;
            return (
              <label
                key={metric}
                className={full ? `${styles.option} ${styles.disabled}` : styles.option}
                title={last ? 'Нужен хотя бы один показатель' : full ? `Можно выбрать не больше ${limit}` : undefined}
              >
                <input
                  type="checkbox"
                  checked={checked}
                  disabled={last || full}
                  onChange={() => setDraft((d) => (checked ? d.filter((m) => m !== metric) : [...d, metric]))}
                  data-metric={metric}
                />
                {METRIC_INFO[metric].title}
              </label>
            );
          })}
        </div>
      ) : null}
    </div>
  );
}
