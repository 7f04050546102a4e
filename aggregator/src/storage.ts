import { randomUUID } from 'node:crypto';
import { EVENT_COLUMNS, moscowDate, type AcceptedHit, type DeadLetter, type EventRow } from '@stat/schemas';
import type { ClickHouseClient } from '@stat/storage';
import { VISIT_RETAIN_MS, type Visit } from './sessions.js';
import { clickhouseTime } from './rows.js';
import { SOURCE_FIELDS, type VisitSource } from './source.js';
import type { RecordedDrop } from './steps/result.js';
import { REPORT_TYPES } from './steps/visits.js';

const DAY_MS = 86_400_000;

/** A hit of a live project that is not stored as an event, and why (recorded in dropped_hits). */
export interface DroppedHit {
  hit: AcceptedHit;
  reason: RecordedDrop;
}

/** A dead letter on its way to dead_hits, with the hit's time when the message had a readable one. */
export interface SetAside {
  letter: DeadLetter;
  /** the hit's server time (epoch ms), which dates the letter; null when unreadable */
  hitAt: number | null;
}

/** The aggregator's reads and writes of ClickHouse. */
export class EventStore {
  /**
   * @param signal aborts the store's requests in flight (an aggregator being stopped); a
   *   function, so that each call takes the signal of the batch in hand
   */
  constructor(
    private readonly clickhouse: ClickHouseClient,
    private readonly signal: () => AbortSignal | undefined = () => undefined,
  ) {}

  /**
   * Inserts rows as arrays in EVENT_COLUMNS order (a third of the bytes of keyed JSON), with a
   * token of this insert's own on its rows (insert_token): what an insert a crash left half done
   * touched is found by it, and rebuilt (batch/rebuild-slices.ts).
   */
  async insert(rows: readonly EventRow[]): Promise<void> {
    const token = randomUUID();
    const values = rows.map((row) => [...EVENT_COLUMNS.map((column) => row[column]), token]);
    await this.clickhouse.insert({
      table: 'events',
      values,
      format: 'JSONCompactEachRow',
      columns: [...EVENT_COLUMNS, 'insert_token'],
      abort_signal: this.signal(),
    });
  }

  /** Records dropped hits (dropped_hits, keyed by event id: writing them again changes nothing). */
  async insertDropped(dropped: readonly DroppedHit[]): Promise<void> {
    const values = dropped.map(({ hit, reason }) => [hit.hit.p, moscowDate(hit.at), reason, hit.id, clickhouseTime(hit.at)]);
    await this.clickhouse.insert({
      table: 'dropped_hits',
      values,
      format: 'JSONCompactEachRow',
      columns: ['project_id', 'event_date', 'reason', 'event_id', 'ts'],
      abort_signal: this.signal(),
    });
  }

  /** Records dead letters (dead_hits, keyed by the message: writing them again changes nothing). */
  async insertDead(letters: readonly SetAside[]): Promise<void> {
    const values = letters.map(({ letter, hitAt }) => [
      clickhouseTime(letter.at),
      moscowDate(hitAt ?? letter.at),
      letter.projectId,
      letter.eventId,
      letter.reason,
      letter.raw,
    ]);
    await this.clickhouse.insert({
      table: 'dead_hits',
      values,
      format: 'JSONCompactEachRow',
      columns: ['set_aside_at', 'event_date', 'project_id', 'event_id', 'reason', 'raw'],
      abort_signal: this.signal(),
    });
  }

  /**
   * Which of `offsets` of a partition are stored as events: found by the events themselves, not
   * by ingest_offsets, which its materialized view fills after the events' part is written (a
   * crash between the two leaves events stored above the recorded offset). Read by the primary
   * key: the batch's projects and the days of its hits. Each found offset with the token of the
   * insert that stored it ('' for events stored before tokens).
   */
  async storedAmong(place: { topic: string; partition: number }, offsets: readonly number[], scope: { projects: readonly number[]; times: readonly number[] }): Promise<Map<number, string>> {
    if (offsets.length === 0 || scope.times.length === 0) return new Map();
    const { times } = scope;
    const result = await this.clickhouse.query({
      query: `SELECT bus_offset, any(insert_token) AS insert_token FROM events
              WHERE project_id IN {projects:Array(UInt32)} AND event_date BETWEEN {from:Date} AND {to:Date}
                AND bus_topic = {topic:String} AND bus_partition = {partition:Int32} AND bus_offset IN {offsets:Array(Int64)}
              GROUP BY bus_offset`,
      query_params: {
        projects: [...new Set(scope.projects)],
        // A day either side: the stored day is the Moscow day of the hit's time.
        from: moscowDate(Math.min(...times) - DAY_MS),
        to: moscowDate(Math.max(...times) + DAY_MS),
        topic: place.topic,
        partition: place.partition,
        offsets: [...offsets],
      },
      format: 'JSONEachRow',
      abort_signal: this.signal(),
    });
    const rows = await result.json<{ bus_offset: string | number; insert_token: string }>();
    return new Map(rows.map((row) => [Number(row.bus_offset), row.insert_token]));
  }

  /**
   * Which of the event keys are stored as events, among the projects and around the days given
   * (read by the primary key): how a hit sent to Kafka twice is recognised, whatever its offsets.
   */
  async storedKeys(keys: readonly string[], scope: { projects: readonly number[]; times: readonly number[] }): Promise<Set<string>> {
    if (keys.length === 0 || scope.times.length === 0) return new Set();
    const result = await this.clickhouse.query({
      query: `SELECT DISTINCT toString(event_key) AS event_key FROM events
              WHERE project_id IN {projects:Array(UInt32)} AND event_date BETWEEN {from:Date} AND {to:Date}
                AND toString(event_key) IN {keys:Array(String)}`,
      query_params: {
        projects: [...new Set(scope.projects)],
        from: moscowDate(Math.min(...scope.times) - DAY_MS),
        to: moscowDate(Math.max(...scope.times) + DAY_MS),
        keys: [...keys],
      },
      format: 'JSONEachRow',
      abort_signal: this.signal(),
    });
    return new Set((await result.json<{ event_key: string }>()).map((row) => row.event_key));
  }

  /** The highest bus offset stored for a partition, or -1 when none is. */
  async writtenOffset(topic: string, partition: number): Promise<number> {
    const result = await this.clickhouse.query({
      query: 'SELECT max(offset) AS offset, count() AS n FROM ingest_offsets WHERE topic = {topic:String} AND partition = {partition:Int32}',
      query_params: { topic, partition },
      format: 'JSONEachRow',
      abort_signal: this.signal(),
    });
    const [row] = await result.json<{ offset: string | number; n: string | number }>();
    return Number(row?.n ?? 0) > 0 ? Number(row?.offset) : -1;
  }

  /**
   * How many visits each visitor has stored (the highest visit number), for visitors found;
   * keyed `project:visitor`.
   */
  async visitCounts(visitors: { project: number; visitor: string }[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    if (visitors.length === 0) return found;
    const result = await this.clickhouse.query({
      query: `SELECT project_id, visitor_id, max(visits) AS visits FROM visitor_visits
              WHERE project_id IN {projects:Array(UInt32)} AND visitor_id IN {visitors:Array(String)}
              GROUP BY project_id, visitor_id`,
      query_params: {
        projects: [...new Set(visitors.map((v) => v.project))],
        visitors: [...new Set(visitors.map((v) => v.visitor))],
      },
      format: 'JSONEachRow',
      abort_signal: this.signal(),
    });
    for (const row of await result.json<{ project_id: number; visitor_id: string; visits: string | number }>()) {
      found.set(`${row.project_id}:${row.visitor_id}`, Number(row.visits));
    }
    return found;
  }

  /**
   * The latest visit of each visitor that may still be open at `since` (epoch ms), from the
   * stored events: how visits survive a restart of the aggregator.
   */
  async openVisits(visitors: { project: number; visitor: string }[], since: number): Promise<Map<string, Visit>> {
    const found = new Map<string, Visit>();
    if (visitors.length === 0) return found;
    // First the latest visit of each visitor seen within the keeping time, then that whole visit
    // (a visit rarely lasts a day, so a day back finds its first events). UInt64 travels as a
    // string: JSON numbers lose its low bits. As the cutter keeps them: the visit's last hit
    // not counting reports, its engaged time, and its bounce as the sum of its deltas.
    const result = await this.clickhouse.query({
      query: `WITH latest AS (
                SELECT argMax(session_id, ts) AS sid FROM events
                WHERE project_id IN {projects:Array(UInt32)} AND event_date >= {recent:Date}
                  AND visitor_id IN {visitors:Array(String)} AND ts >= fromUnixTimestamp64Milli({since:Int64})
                GROUP BY project_id, visitor_id)
              SELECT project_id, visitor_id, toString(session_id) AS session_id,
                     toUnixTimestamp64Milli(min(session_start)) AS start_at,
                     toUnixTimestamp64Milli(greatest(min(session_start), maxIf(ts, event_type NOT IN {reports:Array(String)}))) AS last_at,
                     count() AS events, countIf(event_type = 'pageview') AS page_views, max(session_number) AS number,
                     sum(engaged_ms) AS engaged_ms, sum(bounce_delta) AS bounces,
                     ${SOURCE_FIELDS.map((f) => `toString(any(${f})) AS ${f}`).join(', ')}
              FROM events
              WHERE project_id IN {projects:Array(UInt32)} AND event_date >= {from:Date}
                AND visitor_id IN {visitors:Array(String)} AND session_id IN (SELECT sid FROM latest)
              GROUP BY project_id, visitor_id, session_id`,
      query_params: {
        projects: [...new Set(visitors.map((v) => v.project))],
        recent: moscowDate(since - VISIT_RETAIN_MS),
        from: moscowDate(since - DAY_MS),
        visitors: [...new Set(visitors.map((v) => v.visitor))],
        since: since - VISIT_RETAIN_MS,
        reports: REPORT_TYPES,
      },
      format: 'JSONEachRow',
      abort_signal: this.signal(),
    });
    type Row = VisitSource & {
      project_id: number;
      visitor_id: string;
      session_id: string;
      start_at: string | number;
      last_at: string | number;
      events: string | number;
      page_views: string | number;
      number: string | number;
      engaged_ms: string | number;
      bounces: string | number;
    };
    // Projects and visitors are matched apart; the pairs nobody asked for are dropped here.
    const asked = new Set(visitors.map((v) => `${v.project}:${v.visitor}`));
    for (const row of await result.json<Row>()) {
      if (!asked.has(`${row.project_id}:${row.visitor_id}`)) continue;
      found.set(`${row.project_id}:${row.visitor_id}`, {
        id: BigInt(row.session_id),
        number: Number(row.number),
        startAt: Number(row.start_at),
        lastAt: Number(row.last_at),
        events: Number(row.events),
        pageViews: Number(row.page_views),
        engagedMs: Number(row.engaged_ms),
        bounce: Number(row.bounces) > 0,
        source: Object.fromEntries(SOURCE_FIELDS.map((f) => [f, row[f]])) as VisitSource,
      });
    }
    return found;
  }
}
