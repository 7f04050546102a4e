import { REPORT_TIME_ZONE, type Group, type Metric } from '@stat/schemas';
import type { ClickHouseClient } from '@stat/storage';

/**
 * The SQL of each catalogue metric over a rollup table (see migration 0003). Identifiers come
 * only from these allow-lists; every value travels as a typed query parameter.
 */
const METRIC_SQL: Record<Metric, string> = {
  page_views: 'sum(page_views)',
  visits: 'uniqMerge(visits)',
  visitors: 'uniqMerge(visitors)',
  bounces: 'round(if(uniqMerge(visits) = 0, 0, 100 * sum(bounces) / uniqMerge(visits)), 2)',
  avg_view_depth: 'round(if(uniqMerge(visits) = 0, 0, sum(page_views) / uniqMerge(visits)), 2)',
  avg_sessions_duration: 'round(if(uniqMerge(visits) = 0, 0, sum(duration_ms) / 1000 / uniqMerge(visits)), 1)',
};

interface Rollup {
  table: string;
  /** The rows of a period of whole Moscow days. */
  where: string;
}

const TZ = `'${REPORT_TIME_ZONE}'`;
const INSTANT_ROLLUP_WHERE = `project_id = {project:UInt32}
  AND bucket >= toDateTime({from:Date}, ${TZ}) AND bucket < toDateTime({to:Date}, ${TZ}) + INTERVAL 1 DAY`;
const DAY_ROLLUP: Rollup = {
  table: 'rollup_day',
  where: 'project_id = {project:UInt32} AND event_date BETWEEN {from:Date} AND {to:Date}',
};

/** The rollup that answers each grouping: the coarsest one whose buckets are fine enough. */
const ROLLUP: Record<Group, Rollup> = {
  five_minute: { table: 'rollup_5m', where: INSTANT_ROLLUP_WHERE },
  hour: { table: 'rollup_hour', where: INSTANT_ROLLUP_WHERE },
  day: DAY_ROLLUP,
  week: DAY_ROLLUP,
  month: DAY_ROLLUP,
};

/** The bucket of a rollup row in Moscow time, as epoch seconds of the bucket's start. */
const BUCKET_SQL: Record<Group, string> = {
  // Moscow is UTC+3 all year, so its five-minute and hour buckets are UTC's.
  five_minute: 'toUnixTimestamp(bucket)',
  hour: 'toUnixTimestamp(bucket)',
  day: `toUnixTimestamp(toDateTime(event_date, ${TZ}))`,
  week: `toUnixTimestamp(toDateTime(toMonday(event_date), ${TZ}))`,
  month: `toUnixTimestamp(toDateTime(toStartOfMonth(event_date), ${TZ}))`,
};

export interface PeriodQuery {
  projectId: number;
  /** first and last Moscow day of the period, YYYY-MM-DD */
  dateStart: string;
  dateEnd: string;
  metrics: readonly Metric[];
}

/** Metric values in the order of the request's metrics. */
export type MetricValues = number[];

/** Results are named apart from the rollup's columns, which the metric expressions read. */
const alias = (m: Metric): string => `metric_${m}`;

function selectMetrics(metrics: readonly Metric[]): string {
  return metrics.map((m) => `${METRIC_SQL[m]} AS ${alias(m)}`).join(', ');
}

function params(q: PeriodQuery): Record<string, unknown> {
  return { project: q.projectId, from: q.dateStart, to: q.dateEnd };
}

function values(row: Record<string, unknown>, metrics: readonly Metric[]): MetricValues {
  return metrics.map((m) => Number(row[alias(m)] ?? 0));
}

/**
 * The report engine: turns a report request into ClickHouse SQL over the rollups and rows
 * into numbers. Distinct counts merge uniq states, so they are distinct over any period.
 */
export class ReportEngine {
  constructor(private readonly clickhouse: ClickHouseClient) {}

  /**
   * Metric values per time bucket that has events, keyed by bucket start (epoch seconds), and
   * over the whole period, in one query: ROLLUP adds a row (bucket 0, no real bucket starts at
   * the epoch) that merges the same uniq states across all buckets, so the period's distinct
   * counts are distinct over the period, not summed. (Not WITH TOTALS: chDB writes invalid JSON
   * for it when no row matches.)
   */
  async series(q: PeriodQuery, group: Group): Promise<{ buckets: Map<number, MetricValues>; totals: MetricValues }> {
    const rollup = ROLLUP[group];
    const result = await this.clickhouse.query({
      query: `SELECT ${BUCKET_SQL[group]} AS bucket_start, ${selectMetrics(q.metrics)}
              FROM ${rollup.table} WHERE ${rollup.where} GROUP BY ROLLUP(bucket_start) ORDER BY bucket_start`,
      query_params: params(q),
      format: 'JSONEachRow',
    });
    const buckets = new Map<number, MetricValues>();
    let totals = values({}, q.metrics);
    for (const row of await result.json<Record<string, unknown>>()) {
      const start = Number(row.bucket_start);
      if (start === 0) totals = values(row, q.metrics);
      else buckets.set(start, values(row, q.metrics));
    }
    return { buckets, totals };
  }
}
