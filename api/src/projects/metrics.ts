import { Inject, Injectable } from '@nestjs/common';
import { LIST_METRICS, type DayMetric, type ListMetric, type ProjectMetrics } from '@stat/schemas/projects';
import type { ClickHouseClient } from '@stat/storage';
import { CLICKHOUSE, CLOCK, type Clock } from '../tokens.js';
import { compileProjectSpans, metricAlias, ReportEngine } from '../engine/index.js';
import { LruSet } from '../common/lru-set.js';

const MOSCOW_OFFSET_S = 3 * 3600;
const DAY_S = 86_400;

/** The list's columns as catalogue metrics, computed by the report engine (depth: avg_view_depth). */
const ENGINE_METRICS = ['page_views', 'visits', 'visitors', 'events_count', 'avg_view_depth'] as const;
const COLUMN_OF: Record<ListMetric, number> = { page_views: 0, visits: 1, visitors: 2, events: 3, depth: 4 };

/**
 * How many projects `withEvents` remembers as having events: the ones in use (report pages, the
 * sites list) stay, an id not asked for a while is forgotten and asked ClickHouse again.
 */
const WITH_EVENTS_KNOWN = 4096;

/** How long a project found without materials is not asked again: its first article shows within a minute. */
export const MATERIALS_RECHECK_MS = 60_000;

/** Today's traffic of projects against the same hours of the day before, from the hour rollup. */
@Injectable()
export class MetricsRepository {
  constructor(
    @Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseClient,
    @Inject(ReportEngine) private readonly engine: ReportEngine,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Projects seen with events (a positive answer of `withEvents`, never a negative one), the most recently asked. */
  private readonly withEventsKnown = new LruSet<number>(WITH_EVENTS_KNOWN);

  async todayAndYesterday(ids: readonly number[], nowMs = this.clock()): Promise<Map<number, ProjectMetrics>> {
    const result = new Map<number, ProjectMetrics>();
    if (ids.length === 0) return result;
    const now = Math.floor(nowMs / 1000);
    // Moscow midnight, in UTC seconds (Moscow is UTC+3 all year).
    const today = Math.floor((now + MOSCOW_OFFSET_S) / DAY_S) * DAY_S - MOSCOW_OFFSET_S;
    const spans = [
      { from: today, to: now },
      { from: today - DAY_S, to: now - DAY_S },
    ];
    const rows = await this.engine.rows(compileProjectSpans(ids, spans, ENGINE_METRICS), 'project_list');
    const values = new Map(rows.map((r) => [`${Number(r.project_id)}:${Number(r.span)}`, r]));
    const read = (id: number, span: number, column: ListMetric): number => Number(values.get(`${id}:${span}`)?.[metricAlias(COLUMN_OF[column])] ?? 0);
    for (const id of ids) {
      const metrics = Object.fromEntries(LIST_METRICS.map((m) => [m, change(read(id, 0, m), read(id, 1, m))])) as ProjectMetrics;
      result.set(id, metrics);
    }
    return result;
  }

  /**
   * The projects that have any event stored: their counter is installed. A project found with
   * events keeps them, so it is not asked again while it is among the WITH_EVENTS_KNOWN last asked
   * (every report page reads its project); one found without is asked every time, so the first hit
   * shows as soon as it is stored.
   */
  async withEvents(ids: readonly number[]): Promise<Set<number>> {
    const found = new Set(ids.filter((id) => this.withEventsKnown.has(id)));
    const unknown = ids.filter((id) => !found.has(id));
    if (unknown.length === 0) return found;
    const answer = await this.clickhouse.query({
      query: 'SELECT DISTINCT project_id FROM rollup_day WHERE project_id IN {ids:Array(UInt32)}',
      query_params: { ids: unknown },
      format: 'JSONEachRow',
    });
    for (const row of await answer.json<{ project_id: number | string }>()) {
      const id = Number(row.project_id);
      this.withEventsKnown.add(id);
      found.add(id);
    }
    return found;
  }

  /** Projects seen with materials (never forgotten while in use) and when a project was last found without. */
  private readonly withMaterialsKnown = new LruSet<number>(WITH_EVENTS_KNOWN);
  private readonly withoutMaterialsAt = new Map<number, number>();

  /**
   * Whether the project has stored hits of an article page's material: its media reports have
   * data (`media_totals` in its available_reports). Found once, it is kept; not found, the answer
   * holds for MATERIALS_RECHECK_MS, so a project's page loads do not scan its events each time.
   */
  async withMaterials(id: number, nowMs = this.clock()): Promise<boolean> {
    if (this.withMaterialsKnown.has(id)) return true;
    const checked = this.withoutMaterialsAt.get(id);
    if (checked !== undefined && nowMs - checked < MATERIALS_RECHECK_MS) return false;
    const answer = await this.clickhouse.query({
      query: "SELECT 1 AS found FROM events WHERE project_id = {id:UInt32} AND media_title != '' LIMIT 1",
      query_params: { id },
      format: 'JSONEachRow',
    });
    const found = (await answer.json<{ found: number }>()).length > 0;
    if (found) {
      this.withMaterialsKnown.add(id);
      this.withoutMaterialsAt.delete(id);
    } else {
      if (this.withoutMaterialsAt.size >= WITH_EVENTS_KNOWN) this.withoutMaterialsAt.clear();
      this.withoutMaterialsAt.set(id, nowMs);
    }
    return found;
  }

  /**
   * The last stored hit of a project, for «Проверить» on the counter page. Only the project's
   * latest day is read: the key starts with (project_id, event_date).
   */
  async lastHit(id: number): Promise<{ at: string; url: string } | null> {
    const answer = await this.clickhouse.query({
      query: `SELECT toUnixTimestamp64Milli(ts) AS ms, url FROM events
              WHERE project_id = {id:UInt32}
                AND event_date = (SELECT max(event_date) FROM events WHERE project_id = {id:UInt32})
              ORDER BY ts DESC LIMIT 1`,
      query_params: { id },
      format: 'JSONEachRow',
    });
    const [row] = await answer.json<{ ms: number | string; url: string }>();
    return row ? { at: new Date(Number(row.ms)).toISOString(), url: row.url } : null;
  }

  /** Today's page views (Moscow day), for the widget. */
  async todayViews(id: number, nowMs = this.clock()): Promise<number> {
    return (await this.todayAndYesterday([id], nowMs)).get(id)?.page_views.today ?? 0;
  }
}

function change(today: number, yesterday: number): DayMetric {
  return { today, yesterday, change: yesterday > 0 ? Math.round(((today - yesterday) / yesterday) * 1000) / 10 : null };
}
