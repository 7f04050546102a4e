/**
 * What a dimension report's graphs draw, from the graph answer: the lines of one metric, as
 * values or as shares of «Итого» (the percent toggle), and the slices of a pie. Pure functions.
 */
import { EMPTY_TITLE, type GraphResult } from '@stat/schemas/reports';
import type { Metric } from '@stat/schemas/catalogue';
import type { GraphSeries } from './LinesGraph';

/** The id of the line of the whole report in a graph answer. */
export const TOTAL_ID = 'total';

/** The buckets and lines of one graph; buckets undefined until the first answer. */
export interface GraphLines {
  readonly buckets: readonly { readonly ts: number; readonly date: string }[] | undefined;
  readonly lines: readonly GraphSeries[];
}

/** A share of a whole, 0..100, or null when the whole is missing or zero. */
function share(part: number | null, whole: number | null | undefined): number | null {
  if (part === null || whole === null || whole === undefined || whole === 0) return null;
  return (part / whole) * 100;
}

/**
 * The lines of `metric`: each row of the answer with its palette colour, «Итого» last (drawn over
 * the rows). With `percent` each row is its share of «Итого» in the same bucket, and «Итого»
 * itself (100 % everywhere) is left out.
 */
export function graphLines(
  answer: GraphResult | undefined,
  metric: Metric,
  lineColors: ReadonlyMap<string, number>,
  percent: boolean,
): GraphLines {
  if (!answer) return { buckets: undefined, lines: [] };
  const index = answer.metrics.indexOf(metric);
  const valueAt = (points: GraphResult['data'][number]['points'], i: number) => (index < 0 ? null : (points[i]?.metrics[index] ?? null));
  const first = answer.data[0]?.points ?? [];
  const total = answer.data.find((l) => l.id === TOTAL_ID);
  const lines = answer.data
    .filter((line) => !(percent && line.id === TOTAL_ID))
    .map<GraphSeries>((line) => ({
      id: line.id,
      title: line.id === TOTAL_ID ? 'Итого' : line.title || EMPTY_TITLE,
      colorIndex: line.id === TOTAL_ID ? null : (lineColors.get(line.id) ?? 0),
      values: line.points.map((_p, i) => (percent ? share(valueAt(line.points, i), total ? valueAt(total.points, i) : null) : valueAt(line.points, i))),
    }));
  lines.sort((a, b) => (a.colorIndex === null ? 1 : 0) - (b.colorIndex === null ? 1 : 0));
  return { buckets: first.map((p) => ({ ts: p.ts, date: p.date })), lines };
}

/** One slice of a pie: a line, its value over the period and its share of the drawn lines. */
export interface PieSlice {
  readonly id: string;
  readonly title: string;
  readonly colorIndex: number;
  readonly value: number;
  /** 0..100 of the sum of the slices. */
  readonly percent: number;
}

/**
 * The slices of a pie of the rows' lines («Итого» is the whole, not a slice): a row's value over
 * the period is the table's own figure when the table holds the row (distinct counts such as
 * visitors are not sums of buckets), else the sum of its buckets. Rows of no value are left out.
 */
export function pieSlices(lines: readonly GraphSeries[], tableValue: (id: string) => number | null | undefined): PieSlice[] {
  const valued = lines
    .filter((l): l is GraphSeries & { colorIndex: number } => l.colorIndex !== null)
    .map((l) => ({ line: l, value: tableValue(l.id) ?? l.values.reduce<number>((sum, v) => sum + (v ?? 0), 0) }))
    .filter((s) => s.value > 0);
  const sum = valued.reduce((acc, s) => acc + s.value, 0);
  return valued.map(({ line, value }) => ({ id: line.id, title: line.title, colorIndex: line.colorIndex, value, percent: (value / sum) * 100 }));
}
