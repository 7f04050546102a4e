import { Inject, Injectable } from '@nestjs/common';
import type { ClickHouseClient } from '@stat/storage';
import { CLICKHOUSE, CLOCK, type Clock } from '../tokens.js';

/** The five columns of the sites list. */
export const LIST_METRICS = ['page_views', 'visits', 'visitors', 'events', 'depth'] as const;
export type ListMetric = (typeof LIST_METRICS)[number];

export interface MetricChange {
  today: number;
  yesterday: number;
  /** signed percent with one decimal; null when yesterday is 0 */
  change: number | null;
}

export type ProjectMetrics = Record<ListMetric, MetricChange>;

const MOSCOW_OFFSET_S = 3 * 3600;
const DAY_S = 86_400;

interface Row {
  project_id: number | string;
  is_today: number | string;
  page_views: number | string;
  events: number | string;
  visits: number | string;
  visitors: number | string;
}

/** Today's traffic of projects against the same hours of the day before, from the hour rollup. */
@Injectable()
export class MetricsRepository {
  constructor(
    @Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async todayAndYesterday(ids: readonly number[], nowMs = this.clock()): Promise<Map<number, ProjectMetrics>> {
    const result = new Map<number, ProjectMetrics>();
    if (ids.length === 0) return result;
    const now = Math.floor(nowMs / 1000);
    // Moscow midnight, in UTC seconds (Moscow is UTC+3 all year).
    const today = Math.floor((now + MOSCOW_OFFSET_S) / DAY_S) * DAY_S - MOSCOW_OFFSET_S;
    const answer = await this.clickhouse.query({
      query: `SELECT project_id, bucket >= toDateTime({today:UInt32}, 'UTC') AS is_today,
                     sum(page_views) AS page_views, sum(events) AS events,
                     uniqMerge(visits) AS visits, uniqMerge(visitors) AS visitors
              FROM rollup_hour
              WHERE project_id IN {ids:Array(UInt32)}
                AND bucket >= toDateTime({yesterday:UInt32}, 'UTC') AND bucket <= toDateTime({now:UInt32}, 'UTC')
                AND (bucket >= toDateTime({today:UInt32}, 'UTC') OR bucket <= toDateTime({dayAgo:UInt32}, 'UTC'))
              GROUP BY project_id, is_today`,
      query_params: { ids: [...ids], today, yesterday: today - DAY_S, now, dayAgo: now - DAY_S },
      format: 'JSONEachRow',
    });
    const rows = await answer.json<Row>();
    const values = new Map<string, Record<Exclude<ListMetric, 'depth'>, number>>();
    for (const row of rows) {
      values.set(`${Number(row.project_id)}:${Number(row.is_today) === 1 ? 't' : 'y'}`, {
        page_views: Number(row.page_views),
        visits: Number(row.visits),
        visitors: Number(row.visitors),
        events: Number(row.events),
      });
    }
    const zero = { page_views: 0, visits: 0, visitors: 0, events: 0 };
    for (const id of ids) {
      const t = values.get(`${id}:t`) ?? zero;
      const y = values.get(`${id}:y`) ?? zero;
      const depth = (v: typeof zero): number => (v.visits > 0 ? Math.round((v.page_views / v.visits) * 100) / 100 : 0);
      result.set(id, {
        page_views: change(t.page_views, y.page_views),
        visits: change(t.visits, y.visits),
        visitors: change(t.visitors, y.visitors),
        events: change(t.events, y.events),
        depth: change(depth(t), depth(y)),
      });
    }
    return result;
  }

  /** The projects that have any event stored: their counter is installed. */
  async withEvents(ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const answer = await this.clickhouse.query({
      query: 'SELECT DISTINCT project_id FROM rollup_day WHERE project_id IN {ids:Array(UInt32)}',
      query_params: { ids: [...ids] },
      format: 'JSONEachRow',
    });
    return new Set((await answer.json<{ project_id: number | string }>()).map((r) => Number(r.project_id)));
  }

  /** Today's page views (Moscow day), for the widget. */
  async todayViews(id: number, nowMs = this.clock()): Promise<number> {
    return (await this.todayAndYesterday([id], nowMs)).get(id)?.page_views.today ?? 0;
  }
}

function change(today: number, yesterday: number): MetricChange {
  return { today, yesterday, change: yesterday > 0 ? Math.round(((today - yesterday) / yesterday) * 1000) / 10 : null };
}
