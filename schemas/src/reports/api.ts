import type { Metric } from '../catalogue.js';
import type { DimensionFilterRule, MetricFilterRule } from '../filters.js';
import type { PeriodGroup } from '../period.js';

/**
 * The report calls' request and answers (specification 001, §3 "Report table result", §7):
 * the api answers them and the web app reads them, so neither writes its own copy.
 */

/** §2: what an empty value is shown as, by the api's titles and the web's cells alike. */
export const EMPTY_TITLE = 'Не определено';

/** The body of `POST /api/report/v1.0/report/{projectId}/{reportName}/table` and `/graph`. */
export interface ReportRequest {
  /** YYYY-MM-DD, or today, yesterday, Ndays */
  date_start: string;
  date_end: string;
  group: PeriodGroup;
  /** missing: the report's default metrics */
  metrics?: Metric[];
  /** missing order: the column's default direction */
  sort?: { name: Metric | 'date' | 'title'; order?: 'asc' | 'desc' };
  /** graph: ids of the table rows drawn as lines (missing: the first rows) */
  selected_lines?: string[];
  /** graph: add the line of the whole report */
  need_all_total?: boolean;
  split?: string[];
  dimensions?: string[];
  filters?: DimensionFilterRule[];
  dimension_filters?: DimensionFilterRule[];
  metric_filters?: MetricFilterRule[];
  /** share of visitors read, (0, 1] */
  sample?: number;
  /** 0 to 100 */
  limit?: number;
  offset?: number;
  /** time rows: include buckets without traffic (default true) */
  empty_dates?: boolean;
  /** table: the path of the row being expanded */
  parents?: (string | number)[];
}

/** Metric values in the order of the request's metrics. */
export type MetricValues = number[];

export interface GraphPoint {
  ts: number;
  date: string;
  metrics: MetricValues;
}

export interface GraphLine {
  /** the table row's id, or `total` for the line of the whole report */
  id: string;
  title: string;
  points: GraphPoint[];
}

export interface GraphResult {
  metrics: Metric[];
  data: GraphLine[];
  totals: MetricValues;
  /** the share of visitors the numbers were read from (1: all) */
  sample: number;
}

export interface TableRow {
  /** the JSON text of the row's path (its values from the top level down); a date for time rows */
  id: string;
  parent_id: string | null;
  level: number;
  can_be_expanded: boolean;
  /** kept for the time-series view; equal to extra.title */
  title: string;
  extra: { title: string; value?: string | number };
  /** time rows: the bucket's start, epoch seconds */
  ts?: number;
  metrics: MetricValues;
}

export interface TableResult {
  data: TableRow[];
  metrics: Metric[];
  all_metrics: Metric[];
  totals: MetricValues;
  sort: { name: string; order: 'asc' | 'desc' };
  meta: { total: number; offset: number; sample: number; not_collected?: string };
}

