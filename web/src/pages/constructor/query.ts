/**
 * The constructor's state in the URL (spec 001 §3 "Report URL parameters", §4 "Constructor", §5):
 * which metrics and dimensions are chosen, the view, the template opened; and the templates'
 * bodies read from and written into it. Pure functions, tested beside.
 */
import type { Dimension } from '@stat/schemas';
import type { PeriodGroup } from '@stat/schemas/period';
import { daysBetween, isPeriodGroup } from '@stat/schemas/period';
import {
  CONSTRUCTOR_LIMITS,
  CONSTRUCTOR_MAX_DIMENSIONS,
  isConstructorDimension,
  isConstructorMetric,
  metricFitsDimensions,
  readyTemplatePeriod,
  type ConstructorMetric,
  type ConstructorTemplate,
  type ConstructorTemplateBody,
  type ConstructorViewType,
  type ReadyTemplate,
} from '@stat/schemas/reports';
import { parseSort, writeSort } from '../../reports/dimension/state';
import { GLOBAL_FILTERS, parseDimensionFilters, parseMetricFilters, TABLE_FILTERS, writeFilters } from '../../reports/filters/url';

/** The constructor's default metrics when the URL names none (the definition's). */
const DEFAULT_METRICS: readonly ConstructorMetric[] = ['page_views', 'visits', 'visitors'];

/** What is chosen: the columns (metrics), the rows (dimensions, top level first), the view. */
export interface Selection {
  readonly metrics: readonly ConstructorMetric[];
  readonly dimensions: readonly Dimension[];
  readonly viewType: ConstructorViewType;
}

const list = (value: string | null): string[] => (value ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '');
const unique = <T,>(values: readonly T[]): T[] => [...new Set(values)];

/** Reads the selection: unknown names dropped, at most 10 dimensions (§5: the 11th ignored); `metrics=` (empty) is «none chosen». */
export function parseSelection(search: URLSearchParams): Selection {
  const viewType: ConstructorViewType = search.get('viewType') === 'graph' ? 'graph' : 'table';
  const metricsParam = search.get('metrics');
  const metrics = metricsParam === null ? [...DEFAULT_METRICS] : unique(list(metricsParam).filter(isConstructorMetric));
  const dimensions = unique(list(search.get('dimensions')).filter(isConstructorDimension)).slice(0, CONSTRUCTOR_MAX_DIMENSIONS);
  return viewType === 'graph' ? toGraph({ metrics, dimensions, viewType }) : { metrics, dimensions, viewType };
}

/** Writes the selection into a copy of `search`; the page goes back to its first row. */
export function writeSelection(search: URLSearchParams, selection: Selection): URLSearchParams {
  const next = new URLSearchParams(search);
  next.set('metrics', selection.metrics.join(','));
  if (selection.dimensions.length > 0) next.set('dimensions', selection.dimensions.join(','));
  else next.delete('dimensions');
  if (selection.viewType === 'graph') next.set('viewType', 'graph');
  else next.delete('viewType');
  next.delete('offset');
  return next;
}

/** §4: the graph keeps only the first metric and the first dimension. */
export function toGraph(selection: Selection): Selection {
  return { viewType: 'graph', metrics: selection.metrics.slice(0, 1), dimensions: selection.dimensions.slice(0, 1) };
}

/**
 * A checkbox of the tree ticked or cleared. In the table, a metric or dimension is added at the
 * end or removed (at most 10 dimensions); in the graph a chosen item replaces the selection (§4).
 * A metric per visit does not go with rows of pages or events: a page dimension chosen drops it.
 */
export function chooseItem(selection: Selection, kind: 'metric' | 'dimension', name: string, checked: boolean): Selection {
  if (kind === 'metric') {
    if (!isConstructorMetric(name)) return selection;
    if (!checked) return { ...selection, metrics: selection.metrics.filter((m) => m !== name) };
    if (!metricFitsDimensions(name, selection.dimensions)) return selection;
    return { ...selection, metrics: selection.viewType === 'graph' ? [name] : unique([...selection.metrics, name]) };
  }
  if (!isConstructorDimension(name)) return selection;
  if (!checked) return { ...selection, dimensions: selection.dimensions.filter((d) => d !== name) };
  let dimensions: Dimension[];
  if (selection.viewType === 'graph') dimensions = [name];
  else if (selection.dimensions.length >= CONSTRUCTOR_MAX_DIMENSIONS) return selection;
  else dimensions = unique([...selection.dimensions, name]);
  return { ...selection, dimensions, metrics: selection.metrics.filter((m) => metricFitsDimensions(m, dimensions)) };
}

/** Whether the tree offers a metric with these dimensions chosen. */
export const metricOffered = (metric: ConstructorMetric, selection: Selection): boolean => metricFitsDimensions(metric, selection.dimensions);

/** Moves the item at `from` to `to` (a drag in «Столбцы» or «Строки»). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return next;
  next.splice(Math.max(0, Math.min(to, next.length)), 0, moved);
  return next;
}

/** «Начальная строка» (§5): digits only and not 0; the row shown is offset + 1. Null: not a valid start row. */
export function parseStartRow(text: string): number | null {
  if (!/^\d{1,9}$/.test(text)) return null;
  const row = Number(text);
  return row >= 1 ? row - 1 : null;
}

/** Whether saving is allowed (§5: a metric and a dimension). */
export const canSave = (selection: Selection): boolean => selection.metrics.length > 0 && selection.dimensions.length > 0;

/** The body a save sends: the query of the page as the URL holds it (§3 "Constructor template"). */
export function templateBody(search: URLSearchParams, selection: Selection): ConstructorTemplateBody {
  const metrics = [...selection.metrics];
  const sort = parseSort(search.get('orderBy'), ['title', ...metrics]);
  const group = search.get('groupBy');
  const limit = Number(search.get('limit'));
  const offset = Number(search.get('offset'));
  const sample = Number(search.get('sample'));
  const dimensionFilters = parseDimensionFilters(search.get(GLOBAL_FILTERS));
  const metricFilters = parseMetricFilters(search.get(TABLE_FILTERS), metrics);
  return {
    metrics,
    dimensions: [...selection.dimensions],
    viewType: selection.viewType,
    ...(sort ? { sort: { name: sort.name, order: sort.order } } : {}),
    ...(isPeriodGroup(group) ? { group } : {}),
    ...((CONSTRUCTOR_LIMITS as readonly number[]).includes(limit) ? { limit } : {}),
    ...(Number.isInteger(offset) && offset > 0 ? { offset } : {}),
    ...(sample > 0 && sample <= 1 ? { sample } : {}),
    ...(dimensionFilters.length > 0 ? { dimension_filters: dimensionFilters } : {}),
    ...(metricFilters.length > 0 ? { metric_filters: metricFilters } : {}),
  };
}

/** The days between the period's first and last day, as a template keeps them. */
export const daysInRange = (start: string, end: string): number => Math.max(0, daysBetween(start, end));

/** A period of `days` days between its ends, ending today, as URL dates. */
function periodParams(days: number): { dateStart: string; dateEnd: string } {
  return days === 0 ? { dateStart: 'today', dateEnd: 'today' } : { dateStart: `${days + 1}days`, dateEnd: 'today' };
}

/** The URL query that opens a saved template: its query, its period's length ending today, its id. */
export function templateSearch(template: Pick<ConstructorTemplate, 'id' | 'body' | 'days_in_range'>): URLSearchParams {
  const body = template.body;
  let next = new URLSearchParams({ ...periodParams(template.days_in_range) });
  if (body.group) next.set('groupBy', body.group);
  next = writeSelection(next, {
    metrics: body.metrics.filter(isConstructorMetric),
    dimensions: body.dimensions.filter(isConstructorDimension),
    viewType: body.viewType === 'graph' ? 'graph' : 'table',
  });
  if (body.sort) next.set('orderBy', writeSort(body.sort));
  if (body.limit !== undefined) next.set('limit', String(body.limit));
  if (body.offset) next.set('offset', String(body.offset));
  if (body.sample !== undefined) next.set('sample', String(body.sample));
  next = writeFilters(next, { dimension: body.dimension_filters ?? [], metric: body.metric_filters ?? [] });
  next.set('template', String(template.id));
  return next;
}

/** The URL query of a ready template (§4 "Presets"), on the Moscow day `today`: its period, choice, order, sample and filters. */
export function readyTemplateSearch(template: ReadyTemplate, today: string): URLSearchParams {
  const period = readyTemplatePeriod(template, today);
  let next = new URLSearchParams({ dateStart: period.dateStart, dateEnd: period.dateEnd, groupBy: period.group satisfies PeriodGroup });
  next = writeSelection(next, { metrics: template.metrics, dimensions: template.dimensions, viewType: 'table' });
  if (template.sort) next.set('orderBy', writeSort(template.sort));
  if (template.sample !== undefined) next.set('sample', String(template.sample));
  return writeFilters(next, { dimension: template.dimension_filters ?? [], metric: [] });
}
