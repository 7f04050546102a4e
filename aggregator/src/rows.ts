import { moscowDate, type AcceptedHit, type Hit } from '@stat/schemas';
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
export function sourceOf(e: Enrichment): VisitSource {
  return {
    traffic_type: e.traffic_type,
    traffic_system: e.traffic_system,
    search_system: e.search_system,
    search_phrase: e.search_phrase,
    social_network: e.social_network,
    message_system: e.message_system,
    recom_system: e.recom_system,
    aggrnews_system: e.aggrnews_system,
    exchange_system: e.exchange_system,
    ad_system: e.ad_system,
    qr_system: e.qr_system,
    utm_source: e.utm_source,
    utm_medium: e.utm_medium,
    utm_campaign: e.utm_campaign,
    utm_content: e.utm_content,
    utm_term: e.utm_term,
    openstat_service: e.openstat_service,
    openstat_campaign: e.openstat_campaign,
    openstat_ad: e.openstat_ad,
    openstat_source: e.openstat_source,
  };
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
  event_class: string;
  event_name: string;
  event_params: Record<string, string>;
  user_id: string;
  block_name: string;
  link_url: string;
  engaged_ms: number;
  scroll_percent: number;
  read_percent: number;
  session_id: string;
  session_start: string;
  session_number: number;
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

/**
 * The event class of the catalogue for each hit type: a custom event carries its own; block
 * clicks and shows are usability (ub), reading depth is media, the rest base.
 */
export function eventClassOf(hit: Hit): string {
  switch (hit.t) {
    case 'event':
      return hit.ec ?? 'cv';
    case 'click':
    case 'show':
      return 'ub';
    case 'read':
      return 'media';
    case 'pageview':
    case 'outbound':
    case 'engagement':
      return 'base';
  }
}

/** Event parameters as the Map(String, String) column holds them: numbers as text. */
function paramsOf(hit: Hit): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(hit.ep ?? {})) params[key] = String(value);
  return params;
}

/** A DateTime64(3) value in UTC, as ClickHouse reads it from JSON. */
export function clickhouseTime(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 23).replace('T', ' ');
}

/**
 * Maps an accepted hit to its event row: the hit's own facts, its enrichment, and the source of
 * its visit in place of the hit's own. The client address is not carried over. One literal,
 * not spreads: V8 builds a 60-key spread as a slow dictionary object, ~70 µs a row.
 */
export function toEventRow(accepted: AcceptedHit, e: Enrichment, step: VisitStep, place: BusPlace = NOWHERE): EventRow {
  const { hit } = accepted;
  const { visit } = step;
  const s = visit.source ?? sourceOf(e);
  return {
    event_id: accepted.id,
    project_id: hit.p,
    event_type: hit.t,
    event_class: eventClassOf(hit),
    event_name: hit.en ?? hit.t,
    event_params: paramsOf(hit),
    user_id: hit.uid ?? '',
    block_name: hit.bl ?? '',
    link_url: hit.l ?? '',
    engaged_ms: hit.d ?? 0,
    scroll_percent: hit.sp ?? 0,
    read_percent: hit.rp ?? 0,
    ts: clickhouseTime(accepted.at),
    event_date: moscowDate(accepted.at),
    visitor_id: hit.v,
    session_id: visit.id.toString(),
    session_start: clickhouseTime(visit.startAt),
    session_number: visit.number,
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
    browser_family: e.browser_family,
    browser_version_major: e.browser_version_major,
    browser_version_minor: e.browser_version_minor,
    os_family: e.os_family,
    os_version_major: e.os_version_major,
    os_version_minor: e.os_version_minor,
    device_type: e.device_type,
    device_brand: e.device_brand,
    device_model: e.device_model,
    geo_country: e.geo_country,
    geo_area: e.geo_area,
    geo_city: e.geo_city,
    referer_domain: e.referer_domain,
    referer_path: e.referer_path,
    url: e.url,
    url_no_args: e.url_no_args,
    url_args_key: e.url_args_key,
    page_format: e.page_format,
    traffic_type: s.traffic_type,
    traffic_system: s.traffic_system,
    search_system: s.search_system,
    search_phrase: s.search_phrase,
    social_network: s.social_network,
    message_system: s.message_system,
    recom_system: s.recom_system,
    aggrnews_system: s.aggrnews_system,
    exchange_system: s.exchange_system,
    ad_system: s.ad_system,
    qr_system: s.qr_system,
    utm_source: s.utm_source,
    utm_medium: s.utm_medium,
    utm_campaign: s.utm_campaign,
    utm_content: s.utm_content,
    utm_term: s.utm_term,
    openstat_service: s.openstat_service,
    openstat_campaign: s.openstat_campaign,
    openstat_ad: s.openstat_ad,
    openstat_source: s.openstat_source,
  };
}

/** The columns of an event row, in the order of the compact insert format. */
export const EVENT_COLUMNS = Object.keys(
  toEventRow(
    { id: '', at: 0, ip: '', ua: '', hit: { p: 1, t: 'pageview', u: '', r: '', ti: '', sw: 0, sh: 0, v: '' } },
    {} as Enrichment,
    { visit: { id: 0n, number: 0, startAt: 0, lastAt: 0, events: 0, pageViews: 0, source: {} as VisitSource }, eventNumber: 0, bounceDelta: 0, durationDelta: 0 },
  ),
) as [keyof EventRow, ...(keyof EventRow)[]];
