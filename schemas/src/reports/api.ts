import type { Metric } from '../catalogue.js';
import type { DimensionFilterRule, MetricFilterRule } from '../filters.js';
import type { PeriodGroup } from '../period.js';

/**
 * The report calls' request and answers (specification 001, §3 "Report table result", §7):
 * the api answers them and the web app reads them, so neither writes its own copy.
 */

/** What a rating report's answer is of: the category, the site's own place, the days read. */
export interface RatingMeta {
  category_id: number;
  /** the categories the site is rated in, for the category selector */
  categories: number[];
  /** the site's own position in the category over the period (0: not placed) */
  position: number;
  date_start: string;
  date_end: string;
}

/** A place of the `ch_geo` dictionary (`GET /api/report/v1.0/ch_geo`): its Russian name, its kind and the place it lies in. */
export interface GeoPlace {
  id: number;
  name: string;
  kind: 'country' | 'area' | 'city';
  parent_id: number;
}

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
  /** rating: one of the site's rating categories (missing: its first) */
  category_id?: number;
  /** time rows: include buckets without traffic (default true) */
  empty_dates?: boolean;
  /** table: the path of the row being expanded */
  parents?: (string | number)[];
}

/** Metric values in the order of the request's metrics. */
export type MetricValues = number[];

/**
 * A table row's metric values: null where the value is not shown to the reader (the popularity of
 * a rated site that keeps its statistics closed; §2: shown as «NA»).
 */
export type RowValues = (number | null)[];

export interface GraphPoint {
  ts: number;
  date: string;
  /** null: not shown to the reader (a gap in the line) */
  metrics: RowValues;
}

export interface GraphLine {
  /** the table row's id, or `total` for the line of the whole report */
  id: string;
  title: string;
  points: GraphPoint[];
}

/**
 * Why an answer was read whole though a sample was asked: the period is today alone (§4 "Sample
 * is forced to 1 for today's period"); the report is exact (read from rollups, or a report that
 * never samples); the period is small (a sample would show a small site in steps of 1/sample).
 */
export type WholeReason = 'today' | 'exact' | 'period';

export interface GraphResult {
  metrics: Metric[];
  data: GraphLine[];
  /** null where the report has no total (the rating: sites are not added up) */
  totals: RowValues;
  /** the share of visitors the numbers were read from (1: all) */
  sample: number;
  /** set when a sample was asked and all was read: why */
  whole?: WholeReason;
}

export interface TableRow {
  /** the JSON text of the row's path (its values from the top level down); a date for time rows */
  id: string;
  parent_id: string | null;
  level: number;
  can_be_expanded: boolean;
  /** kept for the time-series view; equal to extra.title */
  title: string;
  /** public_stats: a rating row's site shows its statistics to everyone */
  extra: { title: string; value?: string | number; public_stats?: boolean };
  /** time rows: the bucket's start, epoch seconds */
  ts?: number;
  metrics: RowValues;
}

/**
 * A table's `meta` (§3 "Report table result": "meta (total, leader, pinned, offset,
 * common_total)"). `leader`, `pinned` and `common_total` are the rating's, whose rows are sites
 * placed in a category; other reports leave them out.
 */
export interface TableMeta {
  /** rows of the level (a page of them is `data`) */
  total: number;
  offset: number;
  /** the share of visitors the numbers were read from (1: all) */
  sample: number;
  /** set when a sample was asked and all was read: why (see {@link WholeReason}) */
  whole?: WholeReason;
  not_collected?: string;
  rating?: RatingMeta;
  /** rating: the category's first site, as a row of the table (null: the category has no site) */
  leader?: TableRow | null;
  /** rating: the site's own row, pinned above the table whatever the page and the sort (null: the site is not placed in the category) */
  pinned?: TableRow | null;
  /** rating: the sites the category rates in all (with no search in the rating, the same as `total`) */
  common_total?: number;
}

export interface TableResult {
  data: TableRow[];
  metrics: Metric[];
  all_metrics: Metric[];
  /** null where the report has no total (the rating: sites are not added up) */
  totals: RowValues;
  sort: { name: string; order: 'asc' | 'desc' };
  meta: TableMeta;
}

