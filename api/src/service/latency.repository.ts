import { Inject, Injectable } from '@nestjs/common';
import type { EventbaseLatency } from '@stat/schemas/period';
import type { ClickHouseClient } from '@stat/storage';
import { CLICKHOUSE } from '../tokens.js';

/**
 * The span of the stored events, read from the rollups that every insert into `events` fills
 * (migration 0003), never from `events`: the day rollup holds one row per project and Moscow
 * day, the five-minute rollup one per project and five minutes, both keyed by project first, so
 * one project's span is a short range of each and the whole store's a scan of two small columns.
 * `-OrNull` makes an empty store null rather than ClickHouse's default 1970-01-01.
 */
const SPAN_SQL = (where: string): string => `
  SELECT
    (SELECT toString(minOrNull(event_date)) FROM rollup_day ${where}) AS start,
    (SELECT toString(maxOrNull(event_date)) FROM rollup_day ${where}) AS end,
    (SELECT toUnixTimestamp(maxOrNull(bucket)) FROM rollup_5m ${where}) AS end_timestamp`;
const ALL_PROJECTS = SPAN_SQL('');
const ONE_PROJECT = SPAN_SQL('WHERE project_id = {project:UInt32}');

@Injectable()
export class LatencyRepository {
  constructor(@Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseClient) {}

  /** The span of the events of one project, or of every project when `projectId` is null. */
  async span(projectId: number | null): Promise<EventbaseLatency> {
    const result = await this.clickhouse.query({
      query: projectId === null ? ALL_PROJECTS : ONE_PROJECT,
      query_params: projectId === null ? {} : { project: projectId },
      format: 'JSONEachRow',
    });
    const [row] = await result.json<{ start: string | null; end: string | null; end_timestamp: number | string | null }>();
    const endTimestamp = row?.end_timestamp ?? null;
    return { start: row?.start ?? null, end: row?.end ?? null, end_timestamp: endTimestamp === null ? null : Number(endTimestamp) };
  }
}
