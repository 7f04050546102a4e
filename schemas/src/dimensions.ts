/**
 * What a dimension's values are, as its column stores them: text (the default), numbers (ids,
 * sizes, counts), dates (`Date`) or instants (`DateTime`, UTC). A filter rule is checked by it
 * (filters.ts, `filterRuleProblem`) before any query, and the report engine compares by it.
 */
export type DimensionType = 'string' | 'number' | 'date' | 'datetime';

/**
 * Where each dimension of the catalogue (specification 001, §3 "Dimensions") is stored: the
 * column of `events` or `visits` that holds it, or why it is not collected. The report engine takes its column names from here
 * (an allow-list: no column name ever comes from a request).
 */
export type DimensionStorage =
  | {
      /** the table and column (or ALIAS column) that holds the dimension's value, or an expression over its columns */
      table: 'events' | 'visits';
      column: string;
      /** what its values are (storage/src/dimensions.test.ts checks it against the column's type) */
      type: DimensionType;
      /**
       * the one stored column an expression is computed from (`column` is then that expression):
       * a rollup that keeps this column computes the dimension as the raw table does
       */
      from?: string;
    }
  | {
      table: null;
      /** why the service does not collect it */
      reason: string;
    };

const event = (column: string, type: DimensionType = 'string'): DimensionStorage => ({ table: 'events', column, type });
const visit = (column: string, type: DimensionType = 'string'): DimensionStorage => ({ table: 'visits', column, type });
/**
 * The URL tree of «Разделы сайта» (the `chapters` report): the section levels under the site's
 * root. A row of level k (1 to URL_SECTION_DEPTH) is a section, the page path's first k segments
 * with the slash after them (`/news/politics/`), when the path goes deeper; or the page itself
 * (its path without arguments, `/news/a.html`, `/news/` for the section's own page) when it ends
 * there. The level below the last keeps every page deeper than the sections, by its whole path.
 */
export const URL_SECTION_DEPTH = 6;

/** A page's path, without host and arguments: `/` for the site's root, empty without an address. */
const PAGE_PATH = "if(path(url_no_args) = '' AND url_no_args != '', '/', path(url_no_args))";

/** The ClickHouse expression of the URL tree's level (1-based), over `url_no_args`. */
function urlSectionSql(level: number): string {
  const slashes = `countSubstrings(${PAGE_PATH}, '/')`;
  if (level > URL_SECTION_DEPTH) return `if(${slashes} > ${URL_SECTION_DEPTH}, ${PAGE_PATH}, '')`;
  const section = `concat(arrayStringConcat(arraySlice(splitByChar('/', ${PAGE_PATH}), 1, ${level + 1}), '/'), '/')`;
  return `multiIf(${slashes} > ${level}, ${section}, ${slashes} = ${level}, ${PAGE_PATH}, '')`;
}

const urlSection = (level: number): DimensionStorage => ({ table: 'events', column: urlSectionSql(level), from: 'url_no_args', type: 'string' });

const missing = (reason: string): Extract<DimensionStorage, { table: null }> => ({ table: null, reason });

const PANEL = 'demographics and interests come from an audience panel or an ad network profile; a self-hosted counter has neither';
const APP = 'only a mobile app SDK reports it; the service has a web counter only';

/** The catalogue's dimensions, grouped as the specification groups them. */
export const DIMENSIONS = {
  date: event('event_date', 'date'),
  /** the site: the rows of the rating report, every rated site of a category */
  project_id: event('project_id', 'number'),
  // Events
  event_class: event('event_class'),
  event_name: event('event_name'),
  ub_block_list: event('block_name'),
  customer_params_key: event('customer_params_key'),
  // Audience
  gender: missing(PANEL),
  age_tns: missing(PANEL),
  category_1: missing(PANEL),
  topic: missing('the topic of a visitor comes from an interests panel; not collected'),
  media_theme: missing('the theme of a material comes from the media reports, not built yet'),
  session_number: event('session_number', 'number'),
  view_depth: visit('page_views', 'number'),
  geo_country: event('geo_country', 'number'),
  geo_area: event('geo_area', 'number'),
  geo_city: event('geo_city', 'number'),
  // Technology
  counter_type_eventbase: missing(APP),
  app_version: missing(APP),
  screen_size: event('screen_size'),
  screen_width: event('screen_width', 'number'),
  screen_height: event('screen_height', 'number'),
  device_type: event('device_type'),
  device_brand: event('device_brand'),
  device_family: event('device_family'),
  device_model: event('device_model'),
  os_family: event('os_family'),
  os_version_major: event('os_version_major'),
  os_version_minor: event('os_version_minor'),
  browser_family: event('browser_family'),
  browser_version_major: event('browser_version_major'),
  browser_version_minor: event('browser_version_minor'),
  native_mobile: event('native_mobile', 'number'),
  // Sources
  utm_campaign: event('utm_campaign'),
  utm_content: event('utm_content'),
  utm_medium: event('utm_medium'),
  utm_source: event('utm_source'),
  utm_term: event('utm_term'),
  openstat_ad: event('openstat_ad'),
  openstat_campaign: event('openstat_campaign'),
  openstat_service: event('openstat_service'),
  openstat_source: event('openstat_source'),
  referer: event('referer'),
  referer_domain: event('referer_domain'),
  referer_path: event('referer_path'),
  traffic_type: event('traffic_type'),
  traffic_system: event('traffic_system'),
  ad_system: event('ad_system'),
  ad_campaign: event('ad_campaign'),
  search_system: event('search_system'),
  search_phrase: event('search_phrase'),
  aggrnews_system: event('aggrnews_system'),
  exchange_system: event('exchange_system'),
  recom_system: event('recom_system'),
  social_network: event('social_network'),
  message_system: event('message_system'),
  qr_system: event('qr_system'),
  // Content
  url: event('url'),
  url_no_args: event('url_no_args'),
  url_args_key: event('url_args_key'),
  entry_page: visit('entry_url'),
  exit_page: visit('exit_url'),
  external_url: event('external_url'),
  title: event('title'),
  page_format: event('page_format'),
  /** the author of an article page's material (the full counter's `ma`); empty elsewhere */
  author_name: event('author_name'),
  /** the title of an article page's material (the full counter's `mt`); empty elsewhere */
  media_title: event('media_title'),
  /** the published time of an article page's material, UTC; 1970-01-01 when unknown */
  published_datetime: event('published_datetime', 'datetime'),
  // Auth type, experiments, custom. auth_top100 here: the visitor was logged in on the site
  // (the page set the site's user id).
  auth_top100: event('auth_top100', 'number'),
  auth_rambler: missing("a login with the original's single sign-on; a self-hosted service has none"),
  split: missing('experiments (split tests) are not built yet'),
  user_cv_key: event('customer_params_key'),
  // Dimensions of base reports beyond the catalogue's list.
  /** a visit's duration (its end_ts less its start_ts), in the «Время на сайте» report's ranges */
  visit_time: visit('end_ts', 'number'),
  /** the site section of a page: its first path segment */
  url_chapter: event('url_chapter'),
  /** the URL tree's levels (URL_SECTION_DEPTH sections, then the pages below them): a section or a page */
  url_section_1: urlSection(1),
  url_section_2: urlSection(2),
  url_section_3: urlSection(3),
  url_section_4: urlSection(4),
  url_section_5: urlSection(5),
  url_section_6: urlSection(6),
  url_section_7: urlSection(7),
  /** the kind of hit: pageview, event (a custom event), click and show (blocks), outbound, engagement, read */
  event_type: event('event_type'),
  /** the value of a custom event's parameter, under its key (custom_vars) */
  customer_params_value: event('event_params'),
} as const satisfies Record<string, DimensionStorage>;

export type Dimension = keyof typeof DIMENSIONS;

/**
 * The type of a dimension's values; a dimension the service does not store (or does not know)
 * is text. `visit_time` is a number: its rows are the lower bounds of the «Время на сайте» ranges.
 */
export function dimensionType(d: string): DimensionType {
  const storage: DimensionStorage | undefined = Object.hasOwn(DIMENSIONS, d) ? DIMENSIONS[d as Dimension] : undefined;
  return storage === undefined || storage.table === null ? 'string' : storage.type;
}

/** The URL tree's levels, from the top: `url_section_1` … (URL_SECTION_DEPTH + 1 of them). */
export const URL_SECTION_DIMENSIONS = Array.from({ length: URL_SECTION_DEPTH + 1 }, (_, i) => `url_section_${i + 1}` as Dimension);

/** The level (1-based) of a dimension of the URL tree; undefined for any other. */
export function urlSectionLevel(d: string): number | undefined {
  const at = (URL_SECTION_DIMENSIONS as readonly string[]).indexOf(d);
  return at < 0 ? undefined : at + 1;
}

/**
 * Whether a row of `d` with this value has rows of `next` (the level below it in the drill-down)
 * under it, as far as the value tells: a page of the URL tree has none (a section has one slash
 * more than its level, the slash after its last segment; a page ending at that level has not);
 * every other row may have. No next level: none.
 */
export function hasRowsBelow(d: Dimension, value: string | number, next: Dimension | undefined): boolean {
  if (next === undefined) return false;
  const level = urlSectionLevel(d);
  if (level === undefined || urlSectionLevel(next) !== level + 1) return true;
  return level <= URL_SECTION_DEPTH && String(value).split('/').length - 1 > level;
}

/**
 * The dimensions whose values are the ids of traffic systems (`yandex`, `vk`, `telegram`), which
 * reports title by the `ch_traffic_systems` dictionary («Яндекс», «ВКонтакте», «Telegram»).
 */
export const SYSTEM_DIMENSIONS: ReadonlySet<Dimension> = new Set<Dimension>([
  'traffic_system',
  'ad_system',
  'search_system',
  'aggrnews_system',
  'exchange_system',
  'recom_system',
  'social_network',
  'message_system',
  'qr_system',
]);

/**
 * Dimensions whose value can differ between the events of one visit (pages, events): their rows
 * count a visit in every row it touched, and ratios per visit (depth, bounces, time on site)
 * have no meaning for them. The report engine reads it; the constructor offers by it.
 */
export const HIT_DIMENSIONS: ReadonlySet<Dimension> = new Set<Dimension>([
  'url',
  'url_no_args',
  'url_args_key',
  'url_chapter',
  ...URL_SECTION_DIMENSIONS,
  'title',
  'external_url',
  'page_format',
  'media_title',
  'author_name',
  'published_datetime',
  'event_type',
  'event_class',
  'event_name',
  'ub_block_list',
  'customer_params_key',
  'customer_params_value',
  'user_cv_key',
]);
