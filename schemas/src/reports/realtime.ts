import type { Metric } from '../catalogue.js';
import type { DimensionFilterRule, MetricFilterRule } from '../filters.js';
import type { PeriodDetail, PeriodGroup } from '../period.js';
import type { TrafficType } from '../traffic.js';
import type { GraphResult, MetricValues, TableRow } from './api.js';

/**
 * The live dashboard (specification 001, §2 "dashboard", §3 "Dashboard widgets", §4 "Real-time
 * dashboard", §7 `POST /api/report/v1.0/eventbase/{projectId}/realtime`): its sections, limits
 * and texts, read by the api that answers it and the web app that draws it.
 */

/** The sections of the realtime answer (§3 "Realtime result sections"). */
export const REALTIME_SECTIONS = ['current_user_count', 'active_pages', 'traffic_sources', 'page_views', 'audience', 'platforms', 'events', 'utms'] as const;
export type RealtimeSection = (typeof REALTIME_SECTIONS)[number];

/** Minutes back from now that «current users» counts: the shortest period detail (§3). */
export const CURRENT_USERS_MINUTES = 5;

/**
 * The period details the dashboard offers, with their texts (§3 "shown options": 30 minutes,
 * 1 hour, 2 hours, 4 hours, since the start of the day; 5 minutes is «current users»' own).
 * The details themselves and the groups each allows are `@stat/schemas/period`'s.
 */
export const PERIOD_DETAIL_OPTIONS: readonly { value: PeriodDetail; title: string }[] = [
  { value: 30, title: '30 минут' },
  { value: 60, title: '1 час' },
  { value: 120, title: '2 часа' },
  { value: 240, title: '4 часа' },
  { value: 'today', title: 'С начала дня' },
];

/** Rows of each widget (§7, §9: traffic sources 5, events 30, tables 50; the events picker's list 20). */
export const REALTIME_LIMITS = { traffic_sources: 5, events: 30, table: 50, events_list: 20, slices: 5 } as const;

/** The events the events widget draws at most (§4 "A metric picker in the live view allows at most 5 events"). */
export const MAX_DASHBOARD_EVENTS = 5;

/** §9 "Dashboard refresh 30 s". */
export const DASHBOARD_REFRESH_MS = 30_000;

/**
 * The traffic-source groups of the dashboard's filter (§3): each the traffic type whose systems
 * the widget then shows, read by the base report of that kind of source.
 */
export const TRAFFIC_SOURCE_GROUPS: readonly { type: TrafficType; report: string; title: string }[] = [
  { type: 'ad', report: 'ad_systems', title: 'Рекламные системы' },
  { type: 'recommend', report: 'recom_system', title: 'Рекомендательные системы' },
  { type: 'social', report: 'social_network', title: 'Социальные сети' },
  { type: 'exchange', report: 'exchange_system', title: 'Обменные сети' },
  { type: 'search', report: 'search_system_phrase', title: 'Поисковые системы' },
  { type: 'link', report: 'sites', title: 'Сайты' },
  { type: 'messenger', report: 'message_system', title: 'Мессенджеры' },
];

/** The audience widget's tabs (§4: gender, age_tns, geo_country), each answered by its base report. */
export const AUDIENCE_DIMENSIONS = [
  { dimension: 'gender', report: 'sex', title: 'Пол' },
  { dimension: 'age_tns', report: 'age', title: 'Возраст' },
  { dimension: 'geo_country', report: 'geo', title: 'Страны' },
] as const;
export type AudienceDimension = (typeof AUDIENCE_DIMENSIONS)[number]['dimension'];

/** §3 "Audience legend". */
export const GENDER_TITLES = { male: 'Мужчины', female: 'Женщины', unknown: 'Не определено' } as const;
/** §3 "platform legend adds Прочее": the slices past the widget's first ones, together. */
export const OTHER_TITLE = 'Прочее';

/** The metric each widget counts when the request names none (additive ones where slices are summed). */
export const REALTIME_DEFAULT_METRICS: Readonly<Record<Exclude<RealtimeSection, 'current_user_count'>, readonly Metric[]>> = {
  page_views: ['page_views'],
  traffic_sources: ['visits'],
  active_pages: ['page_views', 'visitors'],
  audience: ['visits'],
  platforms: ['page_views'],
  events: ['events_count'],
  utms: ['visits', 'visitors'],
};

/** The base report behind each widget: where its title leads (§4 "Clicking a widget title goes to the matching full report"). */
export const REALTIME_REPORTS: Readonly<Record<RealtimeSection, string>> = {
  current_user_count: 'summary',
  page_views: 'summary',
  traffic_sources: 'traffic_sources',
  active_pages: 'page_urls',
  audience: 'geo',
  platforms: 'page_formats',
  events: 'custom_vars',
  utms: 'utms',
};

/** One widget's parameters (§7 `widget_params`). */
export interface RealtimeWidgetParams {
  /** the widget's metrics; for the events widget, the names of the events drawn (at most 5) */
  metrics?: string[];
  /** rows, up to the widget's limit */
  limit?: number;
  /** the audience widget: gender, age_tns or geo_country */
  dimension?: AudienceDimension;
  /** the traffic sources widget: one group's systems instead of the traffic types */
  traffic_type?: TrafficType;
}

/** The body of `POST /api/report/v1.0/eventbase/{projectId}/realtime`. */
export interface RealtimeRequest {
  date_start: string;
  date_end: string;
  group: PeriodGroup;
  /** (0, 1]; today is always read whole */
  sample?: number;
  filters?: DimensionFilterRule[];
  dimension_filters?: DimensionFilterRule[];
  metric_filters?: MetricFilterRule[];
  /** today only: minutes back from now the widgets read (`today` or missing: the whole day) */
  period?: PeriodDetail;
  /** the sections wanted (missing: all) */
  sections?: RealtimeSection[];
  widget_params?: Partial<Record<RealtimeSection, RealtimeWidgetParams>>;
}

/** A widget of rows (a table or a pie). */
export interface RealtimeTable {
  metrics: Metric[];
  data: TableRow[];
  totals: MetricValues;
  /** rows of the whole answer before the widget's limit */
  total: number;
  /** set when the service does not collect what the widget shows (gender, age) */
  not_collected?: string;
}

/** «Unique visitors now»: distinct visitors of the last CURRENT_USERS_MINUTES minutes, against the minutes before. */
export interface CurrentUsers {
  value: number;
  previous: number;
  diff: 'up' | 'down' | null;
  minutes: number;
}

/** The answer: the sections asked for, and the window they were read over. */
export interface RealtimeResult {
  current_user_count?: CurrentUsers;
  page_views?: GraphResult;
  traffic_sources?: RealtimeTable & { graph: GraphResult; traffic_type: TrafficType | null; report: string };
  active_pages?: RealtimeTable;
  audience?: RealtimeTable & { dimension: AudienceDimension };
  platforms?: RealtimeTable;
  events?: RealtimeTable & { graph: GraphResult | null; events_list: { value: string; title: string }[] };
  utms?: RealtimeTable;
  meta: {
    date_start: string;
    date_end: string;
    group: PeriodGroup;
    /** epoch seconds: the start of the window read (null: the whole period) */
    since: number | null;
    /** epoch ms of the server's clock when it read */
    server_time: number;
    sample: number;
  };
}
