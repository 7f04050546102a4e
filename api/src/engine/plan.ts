import { BadRequestException } from '@nestjs/common';
import { DIMENSIONS, METRIC_INFO, type Dimension, type DimensionStorage, type DimensionFilterRule, type Group, type Metric, type ReportDefinition, type WholeReason } from '@stat/schemas';
import { allowedGroups, bucketCount, periodDays, resolveDate } from '@stat/schemas/period';
import { canAnswer } from './metric-sources.js';
import { isHitDimension, isVisitTableDimension } from './sql/dimensions.js';
import { PATH_ROLLUPS, type PathRollup, type Plan, type Scope, type Source } from './plan-types.js';
import { rollupTable } from './sql/sources.js';
import type { ReportRequest } from './request.js';

/** A request the planner refuses: the api answers 400 with its message. */
export class ReportRequestError extends BadRequestException {}

/** Rows of a table page when the request names no limit (§9: summary report rows 90, tables 10). */
const DEFAULT_LIMIT = { summary: 90, table: 10 } as const;

/** Graph lines drawn when the request selects none (§9: default lines 5). */
export const DEFAULT_LINES = 5;

/** More points than this is no graph anyone can read; the client should pick a coarser group. */
const MAX_BUCKETS = 10_000;

/** What the planner decided for one report call. */
export interface ReportPlan {
  definition: ReportDefinition;
  /** the period's first and last Moscow day, resolved (YYYY-MM-DD) */
  dateStart: string;
  dateEnd: string;
  plan: Plan;
  group: Group;
  sort: { name: Metric | 'date' | 'title'; order: 'asc' | 'desc' };
  limit: number;
  offset: number;
  /** epoch seconds: the start of a window of the last minutes (the live dashboard), if any */
  since?: number;
  /** why the plan reads all though a sample below 1 was asked (today alone, an exact report) */
  whole?: WholeReason;
}

/** A window of minutes inside a report's period, epoch seconds: from `since` (inclusive) to `until` (exclusive). */
export interface ReportWindow {
  since?: number;
  until?: number;
}

/** The raw storage a path's rows are read from: the visits for entry and exit pages, depth and time; the events otherwise. */
export const sourceOf = (path: readonly Dimension[]): Source => (path.some(isVisitTableDimension) ? 'visits' : 'events');
/** Whether a path's rows are visits' (one value a visit) or pages' and events'. */
export const scopeOf = (path: readonly Dimension[]): Scope => (path.some(isHitDimension) ? 'hit' : 'visit');

/** The metrics asked for, each offered by the report. */
export function metricsOf(definition: ReportDefinition, body: ReportRequest): Metric[] {
  const metrics = body.metrics ?? [...definition.defaultMetrics];
  const foreign = metrics.find((m) => !definition.metrics.includes(m));
  if (foreign !== undefined) throw new ReportRequestError(`metrics: ${foreign} is not a metric of the report ${definition.name} (it has ${definition.metrics.join(', ')})`);
  return metrics;
}

/** The sort asked for, with the column's default direction; it must name a shown column. */
function sortOf(definition: ReportDefinition, body: ReportRequest, metrics: readonly Metric[]): ReportPlan['sort'] {
  const rowsAreBuckets = definition.drilldown.length === 0;
  // The report's default sort falls to the first metric asked for when that one is not shown.
  const fallback = definition.defaultSort.name === 'date' || metrics.includes(definition.defaultSort.name) ? definition.defaultSort.name : metrics[0]!;
  const wanted = body.sort?.name ?? fallback;
  const name = wanted === 'date' && !rowsAreBuckets ? 'title' : wanted === 'title' && rowsAreBuckets ? 'date' : wanted;
  if (name !== 'date' && name !== 'title' && !metrics.includes(name)) {
    throw new ReportRequestError(`sort.name: ${name} is not among the requested metrics`);
  }
  const defaultOrder = name === 'date' ? 'desc' : name === 'title' ? 'asc' : METRIC_INFO[name].order;
  const order = body.sort?.order ?? (body.sort === undefined && name === definition.defaultSort.name ? definition.defaultSort.order : defaultOrder);
  return { name, order };
}

/** The path of the rows being expanded: at most one level above the report's last. */
function parentsOf(definition: ReportDefinition, body: ReportRequest): (string | number)[] {
  const parents = body.parents ?? [];
  if (parents.length > 0 && parents.length >= definition.drilldown.length) {
    throw new ReportRequestError(`parents: the report ${definition.name} has ${Math.max(definition.drilldown.length - 1, 0)} levels to expand`);
  }
  return parents;
}

/** The constructor's `dimensions`, accepted by a base report only when they are its own drill-down. */
function checkDimensions(definition: ReportDefinition, body: ReportRequest): void {
  const asked = body.dimensions;
  if (asked === undefined || asked.length === 0) return;
  const own = definition.drilldown.slice(0, asked.length);
  if (asked.length > definition.drilldown.length || asked.some((d, i) => d !== own[i])) {
    throw new ReportRequestError(`dimensions: the report ${definition.name} reads ${definition.drilldown.join(', ') || 'no dimension'}`);
  }
}

/** The share of visitors a plan reads, and why it reads all though a sample below 1 was asked. */
interface Sampled {
  sample: number;
  whole?: WholeReason;
}

/**
 * The share of visitors read: 1 when the report does not sample and when the rollups answer
 * (they are exact and cheaper than any sample: `exact`), for a period of today only (§4:
 * "Sample is forced to 1 for today's period": `today`). A small period, the other reason to read
 * all, is the Sampling's decision, made after the plan (ReportAnswers.withSample).
 */
function sampleOf(definition: ReportDefinition, body: ReportRequest, period: Period, today: string, source: Source): Sampled {
  const sample = !definition.sampling || source === 'rollup' || source === 'paths' ? 1 : periodSample(body.sample, period, today);
  const asked = body.sample;
  if (asked === undefined || asked >= 1 || sample < 1) return { sample };
  return { sample, whole: isToday(period, today) ? 'today' : 'exact' };
}

const isToday = (period: Period, today: string): boolean => period.dateStart === today && period.dateEnd === today;

/** The sample asked (default 1), except for a period of today only: read whole (§4 "Sample is forced to 1 for today's period"). */
export function periodSample(asked: number | undefined, period: Period, today: string): number {
  return isToday(period, today) ? 1 : (asked ?? 1);
}

/** Groupings a day rollup answers. */
const DAY_GROUPS: readonly Group[] = ['day', 'week', 'month'];

/**
 * The day rollup of the report's drill-down path (migration 0014), when it can answer: the
 * report's path is the rollup's or computed from its columns, every filter is on the rollup's dimensions, and a graph's
 * buckets are days or longer (a table has no buckets). Exact and read in tens of milliseconds
 * where the raw events take hundreds (benchmarks/RESULTS.md, 2026-11-24).
 */
function pathRollupFor(definition: ReportDefinition, filters: readonly DimensionFilterRule[], group: Group, kind: 'table' | 'graph'): PathRollup | undefined {
  const path = definition.drilldown;
  if (path.length === 0 || (kind === 'graph' && !DAY_GROUPS.includes(group))) return undefined;
  return PATH_ROLLUPS.find(
    (rollup) =>
      path.every((d, i) => rollup.dims[i] === d || computedIn(rollup, d)) &&
      filters.every((rule) => (rollup.dims.includes(rule.key as Dimension) || computedIn(rollup, rule.key as Dimension)) && rule.extra?.eventClass === undefined),
  );
}

/** Whether a rollup computes a dimension from a column it keeps (the URL tree's levels from `url_no_args`). */
function computedIn(rollup: PathRollup, d: Dimension): boolean {
  const storage = DIMENSIONS[d] as DimensionStorage | undefined;
  return storage?.table === 'events' && storage.from !== undefined && (rollup.dims as readonly string[]).includes(storage.from);
}

export interface Period {
  dateStart: string;
  dateEnd: string;
}

/** The request's first and last day: relative dates resolved, none in the future, the end not before the start. */
export function datesOf(body: Pick<ReportRequest, 'date_start' | 'date_end'>, today: string): Period {
  const dateStart = resolveDate(body.date_start, today);
  const dateEnd = resolveDate(body.date_end, today);
  if (dateStart === null) throw new ReportRequestError(`date_start: ${body.date_start} lies in the future`);
  if (dateEnd === null) throw new ReportRequestError(`date_end: ${body.date_end} lies in the future`);
  if (dateEnd < dateStart) throw new ReportRequestError('date_end must not be before date_start');
  return { dateStart, dateEnd };
}

/**
 * The period of a request in calendar days: relative dates resolved, none in the future, and a
 * grouping that fits its length (§4 "Period and grouping"; a single day also takes minutes).
 */
function periodOf(body: ReportRequest, today: string): Period {
  const { dateStart, dateEnd } = datesOf(body, today);
  const allowed = new Set([...allowedGroups(dateStart, dateEnd), ...allowedGroups(dateStart, dateEnd, 30)]);
  if (!allowed.has(body.group)) {
    throw new ReportRequestError(`group: ${body.group} does not fit a period of ${periodDays(dateStart, dateEnd)} days (choose ${[...allowed].join(', ')})`);
  }
  if (bucketCount(dateStart, dateEnd, body.group) > MAX_BUCKETS) {
    throw new ReportRequestError(`group: the period has more than ${MAX_BUCKETS} ${body.group} buckets; choose a coarser group`);
  }
  return { dateStart, dateEnd };
}

/**
 * Plans a report call: which rows (the level of the drill-down), which storage (a rollup when
 * it answers every metric exactly, the visits for reports of entry and exit pages, depth and
 * time, otherwise the events), which sample, and how the rows are sorted and paged. Pure.
 */
export function planReport(
  definition: ReportDefinition,
  projectId: number,
  body: ReportRequest,
  today: string,
  kind: 'table' | 'graph',
  window: ReportWindow = {},
): ReportPlan {
  const period = periodOf(body, today);
  const { since, until } = window;
  const windowed = since !== undefined || until !== undefined;
  checkDimensions(definition, body);
  const metrics = metricsOf(definition, body);
  const sort = sortOf(definition, body, metrics);
  const parents = kind === 'table' ? parentsOf(definition, body) : [];
  const path = kind === 'table' ? definition.drilldown.slice(0, parents.length + 1) : definition.drilldown;
  const filters: DimensionFilterRule[] = [...definition.where, ...(body.dimension_filters ?? []), ...(body.filters ?? [])];
  const metricFilters = body.metric_filters ?? [];
  const unknownMetricFilter = metricFilters.find((rule) => !metrics.includes(rule.key as Metric));
  if (unknownMetricFilter !== undefined) throw new ReportRequestError(`metric_filters: ${unknownMetricFilter.key} is not among the requested metrics`);

  const dateRows = path.includes('date') && (body.group === 'week' || body.group === 'month') ? { dateRows: body.group } : {};
  const base = { projectId, ...period, scope: scopeOf(path), path, parents, filters, metricFilters, skipEmpty: definition.skipEmpty, ...dateRows, ...(since === undefined ? {} : { since }), ...(until === undefined ? {} : { until }) };
  let source = sourceOf(definition.drilldown);
  if (windowed && source === 'visits') throw new ReportRequestError(`the report ${definition.name} is read from whole visits and has no window of minutes`);
  // A window of the last minutes is read from the raw events: no rollup holds minutes.
  const rollupAnswers =
    !windowed &&
    path.length === 0 && filters.length === 0 && metricFilters.length === 0 && rollupTable(body.group) !== undefined &&
    metrics.every((m) => canAnswer(m, { ...base, source: 'rollup', sample: 1 }));
  const pathRollup = !windowed ? pathRollupFor(definition, filters, body.group, kind) : undefined;
  if (rollupAnswers) source = 'rollup';
  else if (pathRollup !== undefined && metrics.every((m) => canAnswer(m, { ...base, source: 'paths', pathRollup, sample: 1 }))) source = 'paths';
  const { sample, whole } = sampleOf(definition, body, period, today, source);
  const plan: Plan = { ...base, source, sample, metrics, ...(source === 'paths' ? { pathRollup } : {}) };
  const unanswerable = metrics.find((m) => !canAnswer(m, plan));
  if (unanswerable !== undefined) throw new ReportRequestError(`metrics: ${unanswerable} cannot be computed for the rows of ${definition.name}`);
  const limit = body.limit ?? (path.length === 0 ? DEFAULT_LIMIT.summary : DEFAULT_LIMIT.table);
  return { definition, ...period, plan, group: body.group, sort, limit, offset: body.offset ?? 0, ...(since === undefined ? {} : { since }), ...(whole === undefined ? {} : { whole }) };
}
