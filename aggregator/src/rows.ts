import { moscowDate, type AcceptedHit } from '@stat/schemas';
import type { Enrichment } from './enrich/index.js';
import type { VisitStep } from './sessions.js';

/** The fields of a visit's source: taken from its first hit and stamped on all its events. */
export const SOURCE_FIELDS = [
  'traffic_type',
  'traffic_system',
  'search_system',
  'search_phrase',
  'social_network',
  'message_system',
  'recom_system',
  'aggrnews_system',
  'exchange_system',
  'ad_system',
  'qr_system',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'openstat_service',
  'openstat_campaign',
  'openstat_ad',
  'openstat_source',
] as const satisfies readonly (keyof Enrichment)[];

export type VisitSource = Pick<Enrichment, (typeof SOURCE_FIELDS)[number]>;

/** The source part of a hit's enrichment. */
export function sourceOf(enrichment: Enrichment): VisitSource {
  const source = {} as Record<string, string>;
  for (const field of SOURCE_FIELDS) source[field] = enrichment[field];
  return source as VisitSource;
}

/** A row of the `events` table, as inserted (JSONEachRow); visitor_hash is computed by ClickHouse. */
export interface EventRow extends Enrichment {
  event_id: string;
  project_id: number;
  event_type: string;
  /** UTC, written YYYY-MM-DD HH:mm:ss.sss */
  ts: string;
  event_date: string;
  visitor_id: string;
  session_id: string;
  session_start: string;
  event_number: number;
  bounce_delta: number;
  duration_delta: number;
  referrer: string;
  title: string;
  screen_width: number;
  screen_height: number;
  user_agent: string;
  bus_topic: string;
  bus_partition: number;
  bus_offset: number;
}

/** Where the hit sat on the bus; partition -1 for the in-process bus. */
export interface BusPlace {
  topic: string;
  partition: number;
  offset: number;
}

const NOWHERE: BusPlace = { topic: '', partition: -1, offset: -1 };

/** A DateTime64(3) value in UTC, as ClickHouse reads it from JSON. */
export function clickhouseTime(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 23).replace('T', ' ');
}

/**
 * Maps an accepted hit to its event row: the hit's own facts, its enrichment, and the source of
 * its visit in place of the hit's own. The client address is not carried over.
 */
export function toEventRow(accepted: AcceptedHit, enrichment: Enrichment, step: VisitStep, place: BusPlace = NOWHERE): EventRow {
  const { hit } = accepted;
  const { visit } = step;
  return {
    ...enrichment,
    ...(visit.source ?? sourceOf(enrichment)),
    event_id: accepted.id,
    project_id: hit.p,
    event_type: hit.t,
    ts: clickhouseTime(accepted.at),
    event_date: moscowDate(accepted.at),
    visitor_id: hit.v,
    session_id: visit.id.toString(),
    session_start: clickhouseTime(visit.startAt),
    event_number: step.eventNumber,
    bounce_delta: step.bounceDelta,
    duration_delta: step.durationDelta,
    referrer: hit.r,
    title: hit.ti,
    screen_width: hit.sw,
    screen_height: hit.sh,
    user_agent: accepted.ua,
    bus_topic: place.topic,
    bus_partition: place.partition,
    bus_offset: place.offset,
  };
}
