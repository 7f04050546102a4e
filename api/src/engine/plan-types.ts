import type { Dimension, DimensionFilterRule, Metric, MetricFilterRule } from '@stat/schemas';

/**
 * The planner's decisions as the SQL compiler reads them (sql/): where a report's numbers are
 * read, what its rows are, and the plan of one query. Types and the path rollups' list only.
 */

/** Where a report's numbers are read: a time rollup, a drill-down path's day rollup, the raw events, or the visits. */
export type Source = 'rollup' | 'paths' | 'events' | 'visits';

/**
 * What the rows of a report are: `visit`, rows whose every event of a visit has the same value
 * (a source, a place, a device), so a visit is counted once where it starts; `hit`, rows of pages
 * or events, where a visit is counted in every row it touched.
 */
export type Scope = 'visit' | 'hit';

/** A day rollup shaped like a drill-down path (migration 0014): its dimensions in key order. */
export interface PathRollup {
  table: string;
  /** its week twin (migration 0020): the same columns, a row a Monday-to-Sunday week */
  weekTable: string;
  dims: readonly Dimension[];
  scope: Scope;
}

/** The drill-down paths kept in day rollups: read when a report's path, filters and metrics fit. */
export const PATH_ROLLUPS: readonly PathRollup[] = [
  { table: 'rollup_sources_day', weekTable: 'rollup_sources_week', dims: ['traffic_type', 'traffic_system', 'search_phrase'], scope: 'visit' },
  { table: 'rollup_geo_day', weekTable: 'rollup_geo_week', dims: ['geo_country', 'geo_area', 'geo_city'], scope: 'visit' },
  { table: 'rollup_pages_day', weekTable: 'rollup_pages_week', dims: ['url_no_args', 'url'], scope: 'hit' },
];

/** Everything the compiler needs: decided by the planner from a definition and a request. */
export interface Plan {
  projectId: number;
  /** first and last Moscow day of the period, YYYY-MM-DD */
  dateStart: string;
  dateEnd: string;
  source: Source;
  /** the path rollup read when the source is `paths` */
  pathRollup?: PathRollup;
  /**
   * Rows of the `date` dimension (the constructor's) by week or month, as the request groups them:
   * each row the part of its week or month inside the period, titled by its first day there
   * (§7: buckets never reach outside the period). Days otherwise.
   */
  dateRows?: 'week' | 'month';
  scope: Scope;
  /** share of visitors read, (0, 1]; 1 reads all */
  sample: number;
  metrics: readonly Metric[];
  /** the drill-down dimensions from the top to the rows' level; empty: rows are time buckets */
  path: readonly Dimension[];
  /** the values of the path's dimensions above the rows' level */
  parents: readonly (string | number)[];
  filters: readonly DimensionFilterRule[];
  metricFilters: readonly MetricFilterRule[];
  /** leave out rows whose value is empty */
  skipEmpty: boolean;
  /**
   * epoch seconds: only what happened from this instant on (the live dashboard's last minutes);
   * read from the raw events or the visits, never a rollup (the planner makes sure)
   */
  since?: number;
  /** epoch seconds: only what happened before this instant (with `since`: a window) */
  until?: number;
  /**
   * The project's period holds many events (sampling.ts, `LARGE_PERIOD_EVENTS`): its pages' states
   * are large, and a filtered level of pages is found keys first ({@link findsKeysFirst}).
   */
  largePeriod?: boolean;
}
