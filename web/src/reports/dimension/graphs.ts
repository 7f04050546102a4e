/**
 * What a dimension report's graphs draw, from the graph answer: the lines of one metric, as
 * values or as shares of «Итого» (the percent toggle), and the slices of a pie. Pure functions.
 */
import { EMPTY_TITLE, OTHER_TITLE, type GraphResult } from '@stat/schemas/reports';
import type { Metric } from '@stat/schemas/catalogue';
import type { GraphSeries } from './LinesGraph';

/** The id of the line of the whole report in a graph answer. */
const TOTAL_ID = 'total';

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

/** The id of the slice of the rows not drawn («Прочее», the schemas' OTHER_TITLE, as the platform legend says it: spec 001 §3). */
export const OTHER_ID = 'other';

/** One slice of a pie: a line (or the rest of the total), its value over the period and its share. */
export interface PieSlice {
  readonly id: string;
  readonly title: string;
  /** Palette index; null for «Прочее», drawn in a neutral colour so that it never looks like a row. */
  readonly colorIndex: number | null;
  readonly value: number;
  /** 0..100 of the whole the pie shows (the period's «Итого», or the slices' sum; see {@link pieSlices}). */
  readonly percent: number;
}

/**
 * The slices of a pie of the rows' lines: each drawn row's share of `whole`, the period's «Итого»
 * of the metric, and the rest of «Итого» (the rows not selected) as one slice «Прочее», so that a
 * row's slice says how much of the whole it is, as its share in the table does, not how much of
 * the few rows picked. A row's value over the period is the table's own figure when the table
 * holds the row (distinct counts such as visitors are not sums of buckets), else the sum of its
 * buckets; rows of no value are left out.
 *
 * When there is no whole (missing or 0) or the rows add up to more than it (a visitor counted on
 * each of the pages they saw), no pie of the whole can be drawn: the slices are then shares of
 * their own sum, without «Прочее».
 */
export function pieSlices(
  lines: readonly GraphSeries[],
  tableValue: (id: string) => number | null | undefined,
  whole: number | null | undefined,
): PieSlice[] {
  const valued = lines
    .filter((l): l is GraphSeries & { colorIndex: number } => l.colorIndex !== null)
    .map((l) => ({ id: l.id, title: l.title, colorIndex: l.colorIndex, value: tableValue(l.id) ?? l.values.reduce<number>((sum, v) => sum + (v ?? 0), 0) }))
    .filter((s) => s.value > 0);
  const sum = valued.reduce((acc, s) => acc + s.value, 0);
  const ofWhole = whole !== null && whole !== undefined && Number.isFinite(whole) && whole > 0 && sum <= whole;
  const base = ofWhole ? whole : sum;
  const slices: PieSlice[] = valued.map((s) => ({ ...s, percent: (s.value / base) * 100 }));
  const rest = base - sum;
  return ofWhole && rest > 0 ? [...slices, { id: OTHER_ID, title: OTHER_TITLE, colorIndex: null, value: rest, percent: (rest / base) * 100 }] : slices;
}

/** The period's «Итого» of `metric` in a graph answer (the same figure as the table's «Итого»). */
export function graphTotal(answer: GraphResult | undefined, metric: Metric): number | null {
  const index = answer ? answer.metrics.indexOf(metric) : -1;
  return index < 0 ? null : (answer?.totals[index] ?? null);
}
