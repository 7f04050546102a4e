/**
 * The report calls (spec 001 §7): `POST /api/report/v1.0/report/{projectId}/{reportName}/graph`
 * and `/table`. Their bodies and answers are the shared types of `@stat/schemas/reports`.
 */
import type { GraphResult, ReportRequest, TableResult } from '@stat/schemas/reports';
import { apiDownload, apiPost, type DownloadedFile, type RequestOptions } from '../../lib/api';

export type { GraphResult, ReportRequest, TableResult } from '@stat/schemas/reports';

/** Identifier of a metric of the catalogue (spec 001 §3 "Metrics"). */
export type { Metric as MetricName } from '@stat/schemas/catalogue';

/** The sort of a report table as the web holds it: a column and a direction. */
export interface ReportSort {
  /** `date`, `title` or a metric. */
  readonly name: string;
  readonly order: 'asc' | 'desc';
}

function reportPath(projectId: string, reportName: string, kind: 'graph' | 'table' | 'csv'): string {
  return `/api/report/v1.0/report/${encodeURIComponent(projectId)}/${encodeURIComponent(reportName)}/${kind}`;
}

/** Fetches a report's graph. */
export function fetchReportGraph(projectId: string, reportName: string, body: ReportRequest, options?: RequestOptions): Promise<GraphResult> {
  return apiPost<GraphResult>(reportPath(projectId, reportName, 'graph'), body, options);
}

/** Fetches a page of a report's table (or of the children of `body.parents`). */
export function fetchReportTable(projectId: string, reportName: string, body: ReportRequest, options?: RequestOptions): Promise<TableResult> {
  return apiPost<TableResult>(reportPath(projectId, reportName, 'table'), body, options);
}

/**
 * The whole table of a report as a CSV file (spec 001 §7 `…/{title}/csv`: the table's parameters
 * without offset and limit; the api reads every row exactly, sample 1). Needs a logged-in user.
 */
export function downloadReportCsv(projectId: string, reportName: string, body: ReportRequest, options?: RequestOptions): Promise<DownloadedFile> {
  const { limit: _limit, offset: _offset, ...rest } = body;
  return apiDownload(reportPath(projectId, reportName, 'csv'), rest, options);
}

/** A sort as the request body takes it; its name was checked against the report's columns. */
export function requestSort(sort: ReportSort): NonNullable<ReportRequest['sort']> {
  return { name: sort.name as NonNullable<ReportRequest['sort']>['name'], order: sort.order };
}

/**
 * Whether a table answer holds data to export (spec 001 §2: «Скачать отчёт» is disabled when there
 * is no data): some row, and some non-zero total or row value. A time-series report answers a row
 * per bucket even for a period without data, all of them zero, which counts as no data.
 */
export function tableHasData(answer: TableResult | undefined): boolean {
  if (!answer || answer.meta.total <= 0 || answer.data.length === 0) return false;
  const nonZero = (values: readonly (number | null)[] | null | undefined) => (values ?? []).some((v) => v !== null && v !== 0);
  return nonZero(answer.totals) || answer.data.some((row) => nonZero(row.metrics));
}
