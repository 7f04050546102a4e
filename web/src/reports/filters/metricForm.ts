/**
 * Metric filters in the dialog (spec 001 §4, §5 "Table filter inputs"): a metric, greater / less /
 * equal, and a value typed by the metric's unit — counts in whole digits, ratios with a dot (a
 * comma becomes one), percents as the reports show them (capped at 99), durations as mm:ss and
 * sent as seconds. Values are capped at the largest safe integer; an empty value is no rule.
 */
import { METRIC_INFO, type Metric, type MetricUnit } from '@stat/schemas/catalogue';
import { type MetricFilterRule, type MetricOperator } from '@stat/schemas/filters';

/** A metric rule as typed. */
export interface MetricRow {
  readonly key: Metric;
  readonly op: MetricOperator;
  readonly text: string;
}

const unitOf = (key: Metric): MetricUnit => METRIC_INFO[key].unit;

/** What an input keeps of a keystroke: the characters its unit allows (§5 masks). */
export function maskMetricText(key: Metric, text: string): string {
  switch (unitOf(key)) {
    case 'count':
      return text.replace(/\D/g, '').slice(0, 16);
    case 'ratio':
    case 'percent':
      return text.replace(',', '.').replace(/[^\d.]/g, '').replace(/(\..*)\./g, '$1').slice(0, 16);
    case 'seconds': {
      const digits = text.replace(/\D/g, '').slice(0, 4);
      return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
    }
  }
}

/** The number a typed value stands for, or null while it is not one. */
export function metricValue(key: Metric, text: string): number | null {
  const unit = unitOf(key);
  if (unit === 'seconds') {
    const m = /^(\d{1,2}):([0-5]\d)$/.exec(text);
    return m ? Number(m[1]) * 60 + Number(m[2]) : null;
  }
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  if (unit === 'count' && text.includes('.')) return null;
  const n = Math.min(Number(text), Number.MAX_SAFE_INTEGER);
  return unit === 'percent' ? Math.min(n, 99) : n;
}

/** A value as the input shows it: seconds as mm:ss. */
export function metricText(key: Metric, value: number): string {
  if (unitOf(key) !== 'seconds') return String(value);
  const total = Math.round(value);
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/** The rules of the rows that hold a value. */
export function rowsToRules(rows: readonly MetricRow[]): MetricFilterRule[] {
  return rows.flatMap((row) => {
    const value = metricValue(row.key, row.text);
    return value === null ? [] : [{ key: row.key, op: row.op, value }];
  });
}

export function rulesToRows(rules: readonly MetricFilterRule[]): MetricRow[] {
  return rules.flatMap((rule) => {
    const key = rule.key as Metric;
    return Object.hasOwn(METRIC_INFO, key) ? [{ key, op: rule.op, text: metricText(key, rule.value) }] : [];
  });
}

;
