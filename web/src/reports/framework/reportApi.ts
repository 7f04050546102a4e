/**
 * The report calls (spec 001 §7): `POST /api/report/v1.0/report/{projectId}/{reportName}/graph`
 * and `/table`. Shapes as the api serves them for the summary report; other reports add
 * dimensions, filters and selected lines to the same bodies.
 */
import { apiPost, type RequestOptions } from '../../lib/api';
import type { PeriodGroup } from '@stat/schemas/period';

/** Identifier of a metric of the catalogue (spec 001 §3 "Metrics"). */
export type MetricName = string;

/** Sort of a report table. */
export interface ReportSort {
  /** `date`, a dimension or a metric. */
  readonly name: string;
  readonly order: 'asc' | 'desc';
}

/** Body common to graph and table calls. */
export interface ReportRequest {
  readonly date_start: string;
  readonly date_end: string;
  readonly group: PeriodGroup;
  readonly metrics: readonly MetricName[];
}

/** Body of a table call. */
export interface ReportTableRequest extends ReportRequest {
  readonly sort?: ReportSort;
  /** 1..100; the api's default is 90. */
  readonly limit?: number;
  readonly offset?: number;
}

/** One point of a graph line: a time bucket. */
export interface GraphPoint {
  /** Unix seconds of the bucket's start. */
  readonly ts: number;
  /** Moscow wall time of the bucket's start, `YYYY-MM-DD HH:mm:ss`. */
  readonly date: string;
  /** Values in the order of the result's `metrics`. */
  readonly metrics: readonly (number | null)[];
}

/** One line of a graph (for the summary report, the single line `total`). */
export interface GraphLine {
  readonly id: string;
  readonly title: string;
  readonly points: readonly GraphPoint[];
}

/** Result of a graph call. */
export interface GraphResult {
  readonly metrics: readonly MetricName[];
  readonly data: readonly GraphLine[];
  readonly totals: readonly (number | null)[];
}

/** One row of a report table. */
export interface TableRow {
  readonly id: string;
  readonly parent_id: string | null;
  readonly level: number;
  readonly can_be_expanded: boolean;
  readonly title: string;
  /** Unix seconds of the bucket's start, for rows that are time buckets. */
  readonly ts?: number;
  readonly metrics: readonly (number | null)[];
}

/** Result of a table call. */
export interface TableResult {
  readonly data: readonly TableRow[];
  readonly metrics: readonly MetricName[];
  readonly all_metrics: readonly MetricName[];
  /** Over the whole period, not the sum of the rows (visitors are distinct over the period). */
  readonly totals: readonly (number | null)[];
  readonly sort: ReportSort;
  readonly meta: { readonly total: number; readonly offset: number };
}

function reportPath(projectId: string, reportName: string, kind: 'graph' | 'table'): string {
  return `/api/report/v1.0/report/${encodeURIComponent(projectId)}/${encodeURIComponent(reportName)}/${kind}`;
}

/** Fetches a report's graph. */
export function fetchReportGraph(
  projectId: string,
  reportName: string,
  body: ReportRequest,
  options?: RequestOptions,
): Promise<GraphResult> {
  return apiPost<GraphResult>(reportPath(projectId, reportName, 'graph'), body, options);
}

/** Fetches a page of a report's table. */
export function fetchReportTable(
  projectId: string,
  reportName: string,
  body: ReportTableRequest,
  options?: RequestOptions,
): Promise<TableResult> {
  return apiPost<TableResult>(reportPath(projectId, reportName, 'table'), body, options);
}
