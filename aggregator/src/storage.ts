import type { ClickHouseClient } from '@clickhouse/client';
import { moscowDate } from '@stat/schemas';
import { VISIT_TIMEOUT_MS, type Visit } from './sessions.js';
import { SOURCE_FIELDS, type EventRow, type VisitSource } from './rows.js';

/** The aggregator's reads and writes of ClickHouse. */
export class EventStore {
  constructor(private readonly clickhouse: ClickHouseClient) {}

  async insert(rows: EventRow[]): Promise<void> {
    await this.clickhouse.insert({ table: 'events', values: rows, format: 'JSONEachRow' });
  }

  /** The highest bus offset stored for a partition, or -1 when none is. */
  async writtenOffset(topic: string, partition: number): Promise<number> {
    const result = await this.clickhouse.query({
      query: 'SELECT max(offset) AS offset, count() AS n FROM ingest_offsets WHERE topic = {topic:String} AND partition = {partition:Int32}',
      query_params: { topic, partition },
      format: 'JSONEachRow',
    });
    const [row] = await result.json<{ offset: string | number; n: string | number }>();
    return Number(row?.n ?? 0) > 0 ? Number(row?.offset) : -1;
  }

  /**
   * The latest visit of each visitor that may still be open at `since` (epoch ms), from the
   * stored events: how visits survive a restart of the aggregator.
   */
  async openVisits(visitors: { project: number; visitor: string }[], since: number): Promise<Map<string, Visit>> {
    const found = new Map<string, Visit>();
    if (visitors.length === 0) return found;
    // UInt64 travels as a string: JSON numbers lose its low bits.
    const result = await this.clickhouse.query({
      query: `SELECT project_id, visitor_id, toString(argMax(session_id, ts)) AS session_id,
                     toUnixTimestamp64Milli(argMax(session_start, ts)) AS start_at,
                     toUnixTimestamp64Milli(max(ts)) AS last_at,
                     ${SOURCE_FIELDS.map((f) => `toString(argMax(${f}, ts)) AS ${f}`).join(', ')}
              FROM events
              WHERE project_id IN {projects:Array(UInt32)} AND event_date >= {from:Date}
                AND visitor_id IN {visitors:Array(String)}
                AND ts >= fromUnixTimestamp64Milli({since:Int64})
              GROUP BY project_id, visitor_id`,
      query_params: {
        projects: [...new Set(visitors.map((v) => v.project))],
        from: moscowDate(since - VISIT_TIMEOUT_MS),
        visitors: [...new Set(visitors.map((v) => v.visitor))],
        since: since - VISIT_TIMEOUT_MS,
      },
      format: 'JSONEachRow',
    });
    type Row = VisitSource & { project_id: number; visitor_id: string; session_id: string; start_at: string | number; last_at: string | number };
    // Projects and visitors are matched apart; the pairs nobody asked for are dropped here.
    const asked = new Set(visitors.map((v) => `${v.project}:${v.visitor}`));
    for (const row of await result.json<Row>()) {
      if (!asked.has(`${row.project_id}:${row.visitor_id}`)) continue;
      found.set(`${row.project_id}:${row.visitor_id}`, {
        id: BigInt(row.session_id),
        startAt: Number(row.start_at),
        lastAt: Number(row.last_at),
        source: Object.fromEntries(SOURCE_FIELDS.map((f) => [f, row[f]])) as VisitSource,
      });
    }
    return found;
  }
}
