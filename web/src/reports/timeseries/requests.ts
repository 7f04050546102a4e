/**
 * The calls of a time-series report (the summary «Посещаемость»): the bodies of its graph and
 * table. The view sends these, and so does the preload at start (`app/preload.ts`) from the URL
 * alone, so that the view finds its answers already asked for (`framework/preloaded.ts`).
 */
import type { Metric } from '@stat/schemas/catalogue';
import type { IsoDate } from '@stat/schemas/period';
import type { ReportDefinition, ReportRequest } from '@stat/schemas/reports';
import type { Period } from '../../lib/period';
import { correctFilters, parseFilters, requestFilters } from '../filters/url';
import type { ReportCalls } from '../framework/preloaded';
import { clearForeignCategory, correctTableQuery, readTableQuery } from '../framework/query';
import { requestSort, type ReportSort } from '../framework/reportApi';

/** Rows per page of a time-series table (spec 001 §9: summary report rows 90). */
export const PAGE_SIZE = 90;

/** The columns a time-series table sorts by: the date and the metrics shown. */
export function timeSeriesSortColumns(metrics: readonly Metric[]): string[] {
  return ['date', ...metrics];
}

/** What a time-series view shows: the period, its metrics, the sort, the page and the filters. */
export interface TimeSeriesState {
  readonly period: Period;
  readonly metrics: readonly Metric[];
  readonly sort: ReportSort | null;
  readonly offset: number;
  readonly filters: ReturnType<typeof requestFilters>;
}

/** The graph's and the table's bodies of a time-series view. */
export function timeSeriesCalls({ period, metrics, sort, offset, filters }: TimeSeriesState): { readonly graph: ReportRequest; readonly table: ReportRequest } {
  const graph: ReportRequest = { date_start: period.start, date_end: period.end, group: period.group, metrics: [...metrics], ...filters };
  const table: ReportRequest = { ...graph, ...(sort ? { sort: requestSort(sort) } : {}), limit: PAGE_SIZE, offset };
  return { graph, table };
}

/** The first calls of a time-series report opened at a URL with this query, on `today`. */
export function timeSeriesCallsOfUrl(search: URLSearchParams, report: ReportDefinition, today: IsoDate): ReportCalls {
  const metrics = report.defaultMetrics;
  const { parsed, sort, offset } = readTableQuery(search, today, timeSeriesSortColumns(metrics), PAGE_SIZE);
  return timeSeriesCalls({ period: parsed.period, metrics, sort, offset, filters: requestFilters(parseFilters(search, report.metrics).filters) });
}

/**
 * The URL query a time-series report writes in place of `search` when it opens (spec 001 §5), or
 * null when there is nothing to correct: the table's state (the period, the sort, the page), then
 * the filters; `categoryId` is cleared, as on every report but the rating. The one rule of both the
 * view (TimeSeriesReport) and the preload (app/preload.ts).
 */
export function correctTimeSeriesUrl(search: URLSearchParams, report: ReportDefinition, today: IsoDate): URLSearchParams | null {
  const table = correctTableQuery(search, readTableQuery(search, today, timeSeriesSortColumns(report.defaultMetrics), PAGE_SIZE)) ?? search;
  const withFilters = correctFilters(table, report.metrics) ?? table;
  const corrected = clearForeignCategory(withFilters, report);
  return corrected === search ? null : corrected;
}
