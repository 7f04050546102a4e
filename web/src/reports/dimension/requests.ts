/**
 * The calls of a report with a drill-down (spec 001 §7): the body every call of the page shares,
 * and the table's and the graph's bodies made from it. The view sends these, and so does the
 * preload at start (`app/preload.ts`) from the URL alone, so that the view finds its answers
 * already asked for (`framework/preloaded.ts`).
 */
import type { IsoDate } from '@stat/schemas/period';
import type { ConstructorRequest, ReportDefinition, ReportRequest } from '@stat/schemas/reports';
import { parsePeriod, parseRatingPeriod, writePeriod, type ParsedPeriod, type Period } from '../../lib/period';
import { correctFilters, parseFilters, requestFilters } from '../filters/url';
import type { ReportCalls } from '../framework/preloaded';
import { clearForeignCategory } from '../framework/query';
import { requestSort } from '../framework/reportApi';
import { DEFAULT_LINES, parseDimensionQuery, writeDimensionQuery, type DimensionQuery, type LineSelection } from './state';

/** The period of a dimension page: the rating reads whole days by day (its own rule), every other report the URL's period. */
export function dimensionPeriod(search: URLSearchParams, report: ReportDefinition, today: IsoDate): ParsedPeriod {
  return report.name === 'rating' ? parseRatingPeriod(search, today) : parsePeriod(search, today);
}

/** What the shared body of a dimension page depends on. */
export interface DimensionBaseState {
  readonly period: Period;
  readonly query: DimensionQuery;
  /** The filters of the URL, as the calls take them. */
  readonly filters: ReturnType<typeof requestFilters>;
  /** The rating's category, or null. */
  readonly category: number | null;
  /** Fields a page adds to every call (the constructor's dimensions and view). */
  readonly extra?: Partial<ConstructorRequest> | undefined;
}

/** The body every call of a dimension page shares (the table's, its children's, the graph's, the CSV's). */
export function dimensionBase(report: ReportDefinition, { period, query, filters, category, extra }: DimensionBaseState): ConstructorRequest {
  return {
    ...extra,
    date_start: period.start,
    date_end: period.end,
    group: period.group,
    metrics: [...query.metrics],
    ...(query.sort ? { sort: requestSort(query.sort) } : {}),
    ...(query.sample !== null ? { sample: query.sample } : {}),
    // The global filters the menu carries apply to the reports that take filters (not the rating).
    ...(report.filterable ? filters : {}),
    ...(category !== null ? { category_id: category } : {}),
  };
}

/** The table's body: a page of the top level. */
export function dimensionTableBody(base: ReportRequest, query: Pick<DimensionQuery, 'limit' | 'offset'>): ReportRequest {
  return { ...base, limit: query.limit, offset: query.offset };
}

/** The graph's body: «Итого» and the lines drawn (the server's default ones until the user picks). */
export function dimensionGraphBody(base: ReportRequest, lines: LineSelection): ReportRequest {
  return { ...base, need_all_total: true, ...(lines.custom ? { selected_lines: lines.lines.map((l) => l.id) } : {}) };
}

/**
 * The first calls of a dimension report opened at a URL with this query, on `today`; null for the
 * rating, whose body needs the project's categories.
 */
export function dimensionCallsOfUrl(search: URLSearchParams, report: ReportDefinition, today: IsoDate): ReportCalls | null {
  if (report.name === 'rating') return null;
  const { query } = parseDimensionQuery(search, report);
  const filters = requestFilters(parseFilters(search, report.metrics).filters);
  const base = dimensionBase(report, { period: dimensionPeriod(search, report, today).period, query, filters, category: null });
  return { table: dimensionTableBody(base, query), graph: report.notCollected === undefined ? dimensionGraphBody(base, DEFAULT_LINES) : null };
}

/**
 * The URL query a dimension report writes in place of `search` when it opens (spec 001 §5), or
 * null when there is nothing to correct: the period, then the table and graph state, then the
 * filters; `categoryId` is cleared on any report but the rating. The one rule of both the view
 * (DimensionReport) and the preload (app/preload.ts). The rating's category is not in it: it is
 * one of the project's categories, which the view corrects on top of this.
 */
export function correctDimensionUrl(search: URLSearchParams, report: ReportDefinition, today: IsoDate): URLSearchParams | null {
  const period = dimensionPeriod(search, report, today);
  const withPeriod = period.corrected ? writePeriod(search, period.period) : search;
  const query = parseDimensionQuery(withPeriod, report);
  const withQuery = query.corrected ? writeDimensionQuery(withPeriod, query.query, report) : withPeriod;
  const withFilters = correctFilters(withQuery, report.metrics) ?? withQuery;
  const corrected = clearForeignCategory(withFilters, report);
  return corrected === search ? null : corrected;
}
