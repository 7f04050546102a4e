/**
 * Where each dimension of the catalogue (specification 001, §3 "Dimensions") is stored: the
 * column of `events` or `visits` that holds it, or why it is not collected. The report engine takes its column names from here
 * (an allow-list: no column name ever comes from a request).
 */
export type DimensionStorage =
  | {
      /** the table and column (or ALIAS column) that holds the dimension's value */
      table: 'events' | 'visits';
      column: string;
    }
  | {
      table: null;
      /** why the service does not collect it */
      reason: string;
    };

const event = (column: string): DimensionStorage => ({ table: 'events', column });
const visit = (column: string): DimensionStorage => ({ table: 'visits', column });
const missing = (reason: string): Extract<DimensionStorage, { table: null }> => ({ table: null, reason });

const PANEL = 'demographics and interests come from an audience panel or an ad network profile; a self-hosted counter has neither';
const APP = 'only a mobile app SDK reports it; the service has a web counter only';

/** The catalogue's dimensions, grouped as the specification groups them. */
export const DIMENSIONS = {
  date: event('event_date'),
  /** the site: the rows of the rating report, every rated site of a category */
  project_id: event('project_id'),
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
  session_number: event('session_number'),
  view_depth: visit('page_views'),
  geo_country: event('geo_country'),
  geo_area: event('geo_area'),
  geo_city: event('geo_city'),
  // Technology
  counter_type_eventbase: missing(APP),
  app_version: missing(APP),
  screen_size: event('screen_size'),
  screen_width: event('screen_width'),
  screen_height: event('screen_height'),
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
  native_mobile: event('native_mobile'),
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
  author_name: missing('the author of a material comes from the media reports, not built yet'),
  media_title: missing('the title of a material comes from the media reports, not built yet'),
  // Auth type, experiments, custom. auth_top100 here: the visitor was logged in on the site
  // (the page set the site's user id).
  auth_top100: event('auth_top100'),
  auth_rambler: missing("a login with the original's single sign-on; a self-hosted service has none"),
  split: missing('experiments (split tests) are not built yet'),
  user_cv_key: event('customer_params_key'),
  // Dimensions of base reports beyond the catalogue's list.
  /** a visit's duration (its end_ts less its start_ts), in the «Время на сайте» report's ranges */
  visit_time: visit('end_ts'),
  /** the site section of a page: its first path segment */
  url_chapter: event('url_chapter'),
  /** the kind of hit: pageview, event (a custom event), click and show (blocks), outbound, engagement, read */
  event_type: event('event_type'),
  /** the value of a custom event's parameter, under its key (custom_vars) */
  customer_params_value: event('event_params'),
} as const satisfies Record<string, DimensionStorage>;

export type Dimension = keyof typeof DIMENSIONS;

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
  'title',
  'external_url',
  'page_format',
  'event_type',
  'event_class',
  'event_name',
  'ub_block_list',
  'customer_params_key',
  'customer_params_value',
  'user_cv_key',
]);
