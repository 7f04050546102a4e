import type { ClickHouseClient } from '@clickhouse/client';
import { REPORT_TIME_ZONE, type Group, type Metric } from '@stat/schemas';

/**
 * The SQL of each catalogue metric over raw events. Identifiers come only from these
 * allow-lists; every value travels as a typed query parameter.
 */
const METRIC_SQL: Record<Metric, string> = {
  page_views: "countIf(event_type = 'pageview')",
  visits: 'uniqExact(session_id)',
  visitors: 'uniqExact(visitor_id)',
};

/** The bucket of an event in Moscow time, as epoch seconds of the bucket's start. */
const BUCKET_SQL: Record<Group, string> = {
  five_minute: `toUnixTimestamp(toStartOfInterval(toDateTime(ts), INTERVAL 5 MINUTE, '${REPORT_TIME_ZONE}'))`,
  hour: `toUnixTimestamp(toStartOfHour(toDateTime(ts), '${REPORT_TIME_ZONE}'))`,
  day: `toUnixTimestamp(toDateTime(event_date, '${REPORT_TIME_ZONE}'))`,
  week: `toUnixTimestamp(toDateTime(toMonday(event_date), '${REPORT_TIME_ZONE}'))`,
  month: `toUnixTimestamp(toDateTime(toStartOfMonth(event_date), '${REPORT_TIME_ZONE}'))`,
};

export interface PeriodQuery {
  projectId: number;
  dateStart: string;
  dateEnd: string;
  metrics: readonly Metric[];
}

/** Metric values in the order of the request's metrics. */
export type MetricValues = number[];

const WHERE = 'project_id = {project:UInt32} AND event_date BETWEEN {from:Date} AND {to:Date}';

function selectMetrics(metrics: readonly Metric[]): string {
  return metrics.map((m) => `${METRIC_SQL[m]} AS ${m}`).join(', ');
}

function params(q: PeriodQuery): Record<string, unknown> {
  return { project: q.projectId, from: q.dateStart, to: q.dateEnd };
}

function values(row: Record<string, unknown>, metrics: readonly Metric[]): MetricValues {
  return metrics.map((m) => Number(row[m] ?? 0));
}

/** The report engine: turns a report request into ClickHouse SQL and rows into numbers. */
export class ReportEngine {
  constructor(private readonly clickhouse: ClickHouseClient) {}

  /** Metric values per time bucket that has events, keyed by bucket start (epoch seconds). */
  async byBucket(q: PeriodQuery, group: Group): Promise<Map<number, MetricValues>> {
    const result = await this.clickhouse.query({
      query: `SELECT ${BUCKET_SQL[group]} AS bucket, ${selectMetrics(q.metrics)}
              FROM events WHERE ${WHERE} GROUP BY bucket ORDER BY bucket`,
      query_params: params(q),
      format: 'JSONEachRow',
    });
    const rows = await result.json<Record<string, unknown>>();
    return new Map(rows.map((row) => [Number(row.bucket), values(row, q.metrics)]));
  }

  /** Metric values over the whole period (distinct counts are distinct over the period). */
  async totals(q: PeriodQuery): Promise<MetricValues> {
    const result = await this.clickhouse.query({
      query: `SELECT ${selectMetrics(q.metrics)} FROM events WHERE ${WHERE}`,
      query_params: params(q),
      format: 'JSONEachRow',
    });
    const [row] = await result.json<Record<string, unknown>>();
    return values(row ?? {}, q.metrics);
  }
}
