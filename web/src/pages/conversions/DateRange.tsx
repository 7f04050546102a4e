import { TextInput } from '../../components/ui';
import styles from './Conversions.module.css';

/** A period of the conversions pages. */
export interface DateSpan {
  readonly start: string;
  readonly end: string;
}

/** The default period: the last 7 days to today (Moscow, the server's clock). */
export function lastWeek(today: string): DateSpan {
  const start = new Date(Date.parse(`${today}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10);
  return { start, end: today };
}

/** «Период»: two dates, the end not after today nor before the start (as the export page). */
export function DateRange({ span, today, onChange }: { readonly span: DateSpan; readonly today: string; readonly onChange: (span: DateSpan) => void }) {
  return (
    <div className={styles.dates} data-testid="conversion-period">
      <span>Период:</span>
      <TextInput
        type="date"
        aria-label="Начало периода"
        value={span.start}
        max={span.end}
        onChange={(e) => e.target.value && onChange({ start: e.target.value, end: span.end < e.target.value ? e.target.value : span.end })}
        data-testid="conversion-start"
      />
      <span>—</span>
      <TextInput
        type="date"
        aria-label="Конец периода"
        value={span.end}
        min={span.start}
        max={today}
        onChange={(e) => e.target.value && onChange({ start: span.start > e.target.value ? e.target.value : span.start, end: e.target.value })}
        data-testid="conversion-end"
      />
    </div>
  );
}
