import type { DimensionFilterRule, Group, Metric, MetricFilterRule } from '@stat/schemas';

/**
 * What the engine reads of a report request (§3): the body the routes validate
 * (reports/report-request.dto.ts implements it), so that the engine never depends on a route.
 */
export interface ReportRequest {
  /** YYYY-MM-DD, or a date relative to today (today, yesterday, Ndays) */
  date_start: string;
  date_end: string;
  group: Group;
  metrics?: Metric[];
  /** a metric, `date` (rows of time buckets) or `title` (the rows' values); no order: the column's default */
  sort?: { name: Metric | 'date' | 'title'; order?: 'asc' | 'desc' };
  /** the graph's lines: row ids of the table (JSON paths of values) */
  selected_lines?: string[];
  need_all_total?: boolean;
  split?: string[];
  dimensions?: string[];
  filters?: DimensionFilterRule[];
  dimension_filters?: DimensionFilterRule[];
  metric_filters?: MetricFilterRule[];
  sample?: number;
  limit?: number;
  offset?: number;
  empty_dates?: boolean;
  /** the values of the drill-down path above the rows' level */
  parents?: (string | number)[];
}

/** A report request for a CSV file: the table's, with the file's title. */
export interface ReportCsvRequest extends ReportRequest {
  title?: string;
}
