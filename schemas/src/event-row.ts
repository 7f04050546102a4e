/**
 * A row of the ClickHouse `events` table as the aggregator inserts it, and the columns it names.
 * The contract between the writer (the aggregator) and anyone who reads or fakes rows (tests,
 * benchmarks); the DDL itself is in migrations/clickhouse. Strings are the values as stored:
 * the enrichment's narrower types (device types, traffic types, page formats) are strings here.
 */

/** The dimensions the enrichment adds to a hit: user agent, geography, source, page address. */
export interface EventEnrichment {
  browser_family: string;
  browser_version_major: string;
  browser_version_minor: string;
  os_family: string;
  os_version_major: string;
  os_version_minor: string;
  device_type: string;
  device_brand: string;
  device_model: string;
  /** GeoNames ids, 0 when unknown */
  geo_country: number;
  geo_area: number;
  geo_city: number;
  traffic_type: string;
  traffic_system: string;
  search_system: string;
  search_phrase: string;
  social_network: string;
  message_system: string;
  recom_system: string;
  aggrnews_system: string;
  exchange_system: string;
  ad_system: string;
  qr_system: string;
  referer_domain: string;
  referer_path: string;
  url: string;
  url_no_args: string;
  url_args_key: string;
  page_format: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_content: string;
  utm_term: string;
  openstat_service: string;
  openstat_campaign: string;
  openstat_ad: string;
  openstat_source: string;
}

/** A row of the `events` table, as inserted; visitor_hash is computed by ClickHouse. */
export interface EventRow extends EventEnrichment {
  /** the event's stored key, UInt64 as decimal text: `eventKeyOf` the collector's UUID */
  event_key: string;
  project_id: number;
  event_type: string;
  /** UTC, written YYYY-MM-DD HH:mm:ss.sss */
  ts: string;
  /** the Moscow calendar day of ts, YYYY-MM-DD */
  event_date: string;
  visitor_id: string;
  event_class: string;
  event_name: string;
  /** the Map(String, String) column: numbers as text */
  event_params: Record<string, string>;
  user_id: string;
  block_name: string;
  link_url: string;
  engaged_ms: number;
  scroll_percent: number;
  read_percent: number;
  /** UInt64 as decimal text (a JSON number would lose its low bits) */
  session_id: string;
  /** UTC, as ts */
  session_start: string;
  session_number: number;
  event_number: number;
  bounce_delta: number;
  duration_delta: number;
  referrer: string;
  title: string;
  /** the article page's material (hit keys mt, ma, mp); empty on other pages */
  media_title: string;
  author_name: string;
  /** UTC epoch seconds, 0 when unknown (as DateTime reads a number) */
  published_datetime: number;
  screen_width: number;
  screen_height: number;
  user_agent: string;
  /** where the hit sat on the bus; '', -1, -1 for the in-process bus */
  bus_topic: string;
  bus_partition: number;
  bus_offset: number;
}

/**
 * The columns of a visit's source: taken from the visit's first hit and stamped on all its
 * events (the aggregator's visit cutter keeps them per visit). The referring site and page are
 * the visit's too: a later page of the visit, opened from the site's own pages, still came from
 * the site that brought the visit (the «Сайты» report's rows).
 */
export const VISIT_SOURCE_COLUMNS = [
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
  'referer_domain',
  'referer_path',
] as const satisfies readonly (keyof EventEnrichment)[];

/** The columns of an event row, in the order of the compact insert format (JSONCompactEachRow). */
export const EVENT_COLUMNS = [
  'event_key',
  'project_id',
  'event_type',
  'event_class',
  'event_name',
  'event_params',
  'user_id',
  'block_name',
  'link_url',
  'engaged_ms',
  'scroll_percent',
  'read_percent',
  'ts',
  'event_date',
  'visitor_id',
  'session_id',
  'session_start',
  'session_number',
  'event_number',
  'bounce_delta',
  'duration_delta',
  'referrer',
  'title',
  'media_title',
  'author_name',
  'published_datetime',
  'screen_width',
  'screen_height',
  'user_agent',
  'bus_topic',
  'bus_partition',
  'bus_offset',
  'browser_family',
  'browser_version_major',
  'browser_version_minor',
  'os_family',
  'os_version_major',
  'os_version_minor',
  'device_type',
  'device_brand',
  'device_model',
  'geo_country',
  'geo_area',
  'geo_city',
  'url',
  'url_no_args',
  'url_args_key',
  'page_format',
  ...VISIT_SOURCE_COLUMNS,
] as const satisfies readonly (keyof EventRow)[];

/** A column of the events table that the aggregator writes. */
export type EventColumn = (typeof EVENT_COLUMNS)[number];

// Every key of EventRow is a column and every column a key: a miss is a compile error here.
type Missing = Exclude<keyof EventRow, EventColumn>;
const everyColumnListed: [Missing] extends [never] ? true : Missing = true;
void everyColumnListed;

/**
 * The key an event is stored under: the last 64 bits of the collector's UUID (its last 16 hex
 * digits, read as one unsigned number), as decimal text for the UInt64 column. A UUID took 16
 * bytes of every stored row, a third of the table; 8 random-enough bits per byte are what a key
 * that only tells events apart needs (62 random bits: two of 30 million events share one with a
 * chance of 0.01 %). Migration 0015 fills the old rows with the same function in SQL.
 */
export function eventKeyOf(uuid: string): string {
  return BigInt(`0x${uuid.slice(19, 23)}${uuid.slice(24, 36)}`).toString();
}
