/**
 * The rules of a dimension report's state (spec 001 §3 "Report URL parameters", §4 "Sampling",
 * "Row selection and lines", "Sorting", §5 "Validation rules"), as pure functions: reading and
 * correcting the URL, the sort after a click, the selected lines. The period is lib/period's.
 */
import { METRIC_INFO, type Metric } from '@stat/schemas/catalogue';
import type { ReportDefinition } from '@stat/schemas/reports';
import { formatPercent } from '../../lib/format';
import { CHART_TYPES, type ChartType } from '../framework/charts';
import type { ReportSort } from '../framework/reportApi';
import { validSample } from '../framework/query';

/** The steps of the «Точность:» slider (§4 "Sampling"). */
export const SAMPLE_STEPS = [0.01, 0.1, 1] as const;

/** The sample when the URL names none: the slider's middle step (§4). */
const DEFAULT_SAMPLE = 0.1;

/** Rows per page offered under the table (§9: default 10; options 10, 25, 50, 100). */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
const DEFAULT_PAGE_SIZE = 10;

/** Most rows drawn as lines at once (§9 "Max selected rows: 10 in tables"). */
const MAX_LINES = 10;

/** The name of the first column's sort. */
export const TITLE_COLUMN = 'title';

export { type ChartType };

/** How many graphs are drawn side by side («1 график» / «2 графика»). */
export type GraphCount = 1 | 2;

/** The table and graph state read from the URL. */
export interface DimensionQuery {
  /** The metrics shown, in order: the report's, at least one. */
  readonly metrics: readonly Metric[];
  /** The sort asked for; null: the report's default. */
  readonly sort: ReportSort | null;
  /** Share of visitors read; null when the report does not sample. */
  readonly sample: number | null;
  readonly limit: number;
  readonly offset: number;
  /** The metric drawn on the graph: one of `metrics`. */
  readonly graphMetric: Metric;
  /** The metric of the second graph («2 графика»): another of `metrics`; null with one graph. */
  readonly secondMetric: Metric | null;
  /** How the graphs draw: one of {@link allowedChartTypes} of the graphed metrics. */
  readonly chartType: ChartType;
  /** Lines as shares of «Итого» (the percent toggle); only when a graphed metric is a count. */
  readonly percent: boolean;
}

/** A query and the URL that states it, when the given one had to be corrected. */
export interface ParsedDimensionQuery {
  readonly query: DimensionQuery;
  /** The corrected query string (other parameters kept), or null when the URL was valid. */
  readonly corrected: URLSearchParams | null;
}

/** The direction of a first click on a column: title ascending, metrics their catalogue default (descending). */
function defaultOrder(column: string): 'asc' | 'desc' {
  if (column === TITLE_COLUMN) return 'asc';
  return Object.hasOwn(METRIC_INFO, column) ? METRIC_INFO[column as Metric].order : 'desc';
}

/**
 * The sort after a click on a column (§4 "Sorting"): a new column starts in its default
 * direction; a repeated click flips it.
 */
export function nextSort(current: ReportSort, column: string): ReportSort {
  if (current.name === column) return { name: column, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { name: column, order: defaultOrder(column) };
}

/** The `orderBy` value of a sort. */
export function writeSort(sort: ReportSort): string {
  return `${sort.name}:${sort.order}`;
}

/**
 * Reads `orderBy` (`name:asc`, `name:desc`, or `name` alone, which takes the column's default
 * direction, §4 "Sort without direction gets the default direction"); null when missing or not
 * one of `columns`.
 */
export function parseSort(value: string | null, columns: readonly string[]): ReportSort | null {
  if (!value) return null;
  const m = /^([a-z_][a-z0-9_]*)(?::(asc|desc))?$/.exec(value);
  const name = m?.[1];
  if (!m || !name || !columns.includes(name)) return null;
  return { name, order: m[2] === 'asc' || m[2] === 'desc' ? m[2] : defaultOrder(name) };
}

function parseMetrics(value: string | null, report: ReportDefinition): Metric[] {
  if (!value) return [...report.defaultMetrics];
  const seen = new Set<Metric>();
  for (const name of value.split(',')) {
    const metric = report.metrics.find((m) => m === name.trim());
    if (metric) seen.add(metric);
  }
  return seen.size > 0 ? [...seen] : [...report.defaultMetrics];
}

function parseSample(value: string | null): number {
  return value !== null && validSample(value) ? Number(value) : DEFAULT_SAMPLE;
}

function parseLimit(value: string | null): number {
  const n = Number(value);
  return (PAGE_SIZES as readonly number[]).includes(n) ? n : DEFAULT_PAGE_SIZE;
}

/** A page's first row: a multiple of the page size; the constructor's «Начальная строка» any row (§5). */
function parseOffset(value: string | null, limit: number, anyRow: boolean): number {
  if (!value || !/^\d{1,9}$/.test(value)) return 0;
  const n = Number(value);
  return anyRow || n % limit === 0 ? n : 0;
}

/**
 * Reads a dimension report's table and graph state from the URL and corrects it (§5): metrics
 * among the report's (unknown ones dropped, none left: the defaults); `orderBy` among the title
 * and the shown metrics (else the default sort); `sample` in (0, 1], cleared when the report does
 * not sample (§4); `limit` one of 10, 25, 50, 100; `offset` a non-negative multiple of the limit;
 * `graphs` (`metric:type`, one or two) of the shown metrics and an allowed type; `percent=1` only
 * when a graphed metric is a count. Parameters at their default are left out.
 */
export function parseDimensionQuery(search: URLSearchParams, report: ReportDefinition): ParsedDimensionQuery {
  const metrics = parseMetrics(search.get('metrics'), report);
  const sort = parseSort(search.get('orderBy'), [TITLE_COLUMN, ...metrics]);
  const sample = report.sampling ? parseSample(search.get('sample')) : null;
  const limit = parseLimit(search.get('limit'));
  const offset = parseOffset(search.get('offset'), limit, report.group === 'constructor');
  const graphs = parseGraphs(search.get('graphs'), metrics, report);
  const percent = search.get('percent') === '1' && percentAllowed([graphs.graphMetric, graphs.secondMetric]);
  const query: DimensionQuery = { metrics, sort, sample, limit, offset, ...graphs, percent };

  const next = writeDimensionQuery(search, query, report);
  const same = ['metrics', 'orderBy', 'sample', 'limit', 'offset', 'graphs', 'percent'].every((k) => next.get(k) === search.get(k));
  return { query, corrected: same ? null : next };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * Writes a query into a copy of `search` (the period and other parameters are kept); values at
 * their defaults are removed, so a plain link and the URL after a correction are the same.
 */
export function writeDimensionQuery(search: URLSearchParams, query: DimensionQuery, report: ReportDefinition): URLSearchParams {
  const next = new URLSearchParams(search);
  const put = (key: string, value: string | null) => (value === null ? next.delete(key) : next.set(key, value));
  put('metrics', sameList(query.metrics, report.defaultMetrics) ? null : query.metrics.join(','));
  put('orderBy', query.sort ? writeSort(query.sort) : null);
  put('sample', query.sample === null || query.sample === DEFAULT_SAMPLE ? null : String(query.sample));
  put('limit', query.limit === DEFAULT_PAGE_SIZE ? null : String(query.limit));
  put('offset', query.offset > 0 ? String(query.offset) : null);
  put('graphs', writeGraphs(query));
  put('percent', query.percent ? '1' : null);
  return next;
}

/** The slider step nearest a sample. */
export function sampleStep(sample: number): (typeof SAMPLE_STEPS)[number] {
  let best: (typeof SAMPLE_STEPS)[number] = SAMPLE_STEPS[0];
  for (const step of SAMPLE_STEPS) if (Math.abs(Math.log(step / sample)) < Math.abs(Math.log(best / sample))) best = step;
  return best;
}

/**
 * A sample as the toolbar shows it: «меньше 1%» below one percent (§4), else «1%», «10%», «100%» —
 * a setting's label (whole steps of the slider), not a measured share, so without decimals.
 */
export function formatSample(sample: number): string {
  return sample < 0.01 ? 'меньше 1%' : formatPercent(sample, { fractionDigits: 0 });
}

/** A table row drawn as a graph line, with its colour (an index into the 12-colour palette). */
export interface SelectedLine {
  readonly id: string;
  readonly colorIndex: number;
}

/**
 * The lines drawn (§4 "Row selection and lines"): the selected rows, oldest first, and the rows
 * deselected (or pushed out), which keep their colour so that selecting them again restores it.
 * `custom` is false while the report draws its default lines (the first rows, chosen by the
 * server); the first click on a checkbox makes those explicit.
 */
export interface LineSelection {
  readonly custom: boolean;
  readonly lines: readonly SelectedLine[];
  readonly deleted: readonly SelectedLine[];
}

/** The default lines: whatever the server draws for the current table. */
export const DEFAULT_LINES: LineSelection = { custom: false, lines: [], deleted: [] };

/** The smallest palette index that none of `lines` uses (12 colours, at most 10 lines). */
export function freeColor(lines: readonly SelectedLine[], paletteSize = 12): number {
  const used = new Set(lines.map((l) => l.colorIndex));
  for (let i = 0; i < paletteSize; i++) if (!used.has(i)) return i;
  return lines.length % paletteSize;
}

/** The default lines (the ids the server drew, in order) made explicit, colours in that order. */
export function explicitLines(selection: LineSelection, drawn: readonly string[]): LineSelection {
  if (selection.custom) return selection;
  return { custom: true, lines: drawn.map((id, i) => ({ id, colorIndex: i })), deleted: [] };
}

/**
 * A click on a row's checkbox. A selected row is deselected (it moves to the deleted list with
 * its colour). An unselected row is added with its old colour if it had one that is free, else
 * the next free colour; at {@link MAX_LINES} the oldest line is pushed out and its colour reused.
 */
export function toggleLine(selection: LineSelection, id: string, max = MAX_LINES): LineSelection {
  const current = selection.lines.find((l) => l.id === id);
  const deleted = selection.deleted.filter((l) => l.id !== id);
  if (current) {
    return { custom: true, lines: selection.lines.filter((l) => l.id !== id), deleted: [...deleted, current] };
  }
  let lines = selection.lines;
  let pushed: SelectedLine | undefined;
  if (lines.length >= max) {
    pushed = lines[0];
    lines = lines.slice(1);
  }
  const old = selection.deleted.find((l) => l.id === id);
  const colorIndex =
    pushed !== undefined
      ? pushed.colorIndex
      : old !== undefined && !lines.some((l) => l.colorIndex === old.colorIndex)
        ? old.colorIndex
        : freeColor(lines);
  return {
    custom: true,
    lines: [...lines, { id, colorIndex }],
    deleted: pushed ? [...deleted, pushed] : deleted,
  };
}

/**
 * The query with other metrics shown: a sort by a metric no longer shown goes back to the default
 * one, a graph of such a metric moves to the first shown, and the table to its first page.
 */
export function withMetrics(query: DimensionQuery, metrics: readonly Metric[]): DimensionQuery {
  const kept = (name: string) => metrics.some((m) => m === name);
  const graphMetric = kept(query.graphMetric) ? query.graphMetric : (metrics[0] ?? query.graphMetric);
  const secondMetric =
    query.secondMetric === null ? null : kept(query.secondMetric) && query.secondMetric !== graphMetric ? query.secondMetric : otherMetric(metrics, graphMetric);
  return fitGraphs({
    ...query,
    metrics,
    sort: query.sort && (query.sort.name === TITLE_COLUMN || kept(query.sort.name)) ? query.sort : null,
    graphMetric,
    secondMetric,
    offset: 0,
  });
}

/**
 * The chart types a set of graphed metrics allows: a pie shows shares of a whole, so only counts
 * (a share of an average means nothing); line, bar and area draw anything.
 */
export function allowedChartTypes(metrics: readonly (Metric | null)[]): readonly ChartType[] {
  const counts = metrics.every((m) => m === null || METRIC_INFO[m].unit === 'count');
  return counts ? CHART_TYPES : CHART_TYPES.filter((t) => t !== 'pie');
}

/** Whether the percent toggle applies: a graphed metric is a count, whose lines are parts of «Итого». */
export function percentAllowed(metrics: readonly (Metric | null)[]): boolean {
  return metrics.some((m) => m !== null && METRIC_INFO[m].unit === 'count');
}

/** The first shown metric other than `metric` (the second graph's), or null when there is none. */
export function otherMetric(metrics: readonly Metric[], metric: Metric): Metric | null {
  return metrics.find((m) => m !== metric) ?? null;
}

/**
 * The graph state made consistent: a chart type the graphed metrics do not allow falls back to
 * the first allowed one (§4 "Graph count"), and percent goes off when no graphed metric is a count.
 */
function fitGraphs(query: DimensionQuery): DimensionQuery {
  const graphed = [query.graphMetric, query.secondMetric];
  const allowed = allowedChartTypes(graphed);
  return {
    ...query,
    chartType: allowed.includes(query.chartType) ? query.chartType : (allowed[0] ?? 'line'),
    percent: query.percent && percentAllowed(graphed),
  };
}

/** «1 график» / «2 графика»: the second graph shows the first other shown metric; none left: one graph. */
export function withGraphCount(query: DimensionQuery, count: GraphCount): DimensionQuery {
  return fitGraphs({ ...query, secondMetric: count === 2 ? otherMetric(query.metrics, query.graphMetric) : null });
}

/** The graph count the query draws. */
export function graphCount(query: Pick<DimensionQuery, 'secondMetric'>): GraphCount {
  return query.secondMetric === null ? 1 : 2;
}

/**
 * A metric tab of graph `index` (0 or 1) chosen: the graphs never show the same metric, so
 * choosing the other graph's metric swaps the two.
 */
export function withGraphMetric(query: DimensionQuery, index: 0 | 1, metric: Metric): DimensionQuery {
  if (index === 0) {
    const secondMetric = query.secondMetric === metric ? query.graphMetric : query.secondMetric;
    return fitGraphs({ ...query, graphMetric: metric, secondMetric });
  }
  if (query.secondMetric === null) return query;
  const graphMetric = query.graphMetric === metric ? query.secondMetric : query.graphMetric;
  return fitGraphs({ ...query, graphMetric, secondMetric: metric });
}

/** Another chart type, when the graphed metrics allow it. */
export function withChartType(query: DimensionQuery, chartType: ChartType): DimensionQuery {
  return allowedChartTypes([query.graphMetric, query.secondMetric]).includes(chartType) ? { ...query, chartType } : query;
}

const GRAPH = /^([a-z_]+)(?::([a-z]+))?$/;

/**
 * Reads `graphs` (§3): one or two `metric:type` entries joined by a comma, the type one of
 * {@link CHART_TYPES} (both graphs draw the same way: the first entry's type counts). A metric not
 * shown falls back to the first shown (the second graph: dropped); a type not allowed to the first
 * allowed.
 */
function parseGraphs(value: string | null, metrics: readonly Metric[], report: ReportDefinition): Pick<DimensionQuery, 'graphMetric' | 'secondMetric' | 'chartType'> {
  const [first, second] = (value ?? '').split(',', 2).map((entry) => GRAPH.exec(entry));
  const shown = (name: string | undefined) => metrics.find((m) => m === name);
  const graphMetric = shown(first?.[1]) ?? metrics[0] ?? report.defaultMetrics[0] ?? 'visits';
  const secondName = shown(second?.[1]);
  const secondMetric = secondName !== undefined && secondName !== graphMetric ? secondName : null;
  const type = CHART_TYPES.find((t) => t === first?.[2]) ?? 'line';
  const allowed = allowedChartTypes([graphMetric, secondMetric]);
  return { graphMetric, secondMetric, chartType: allowed.includes(type) ? type : (allowed[0] ?? 'line') };
}

/** The `graphs` value; null for the default (one line graph of the first shown metric). */
function writeGraphs(query: DimensionQuery): string | null {
  if (query.secondMetric === null && query.chartType === 'line' && query.graphMetric === query.metrics[0]) return null;
  const first = `${query.graphMetric}:${query.chartType}`;
  return query.secondMetric === null ? first : `${first},${query.secondMetric}:${query.chartType}`;
}
