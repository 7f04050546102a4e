import type { Metric } from '../catalogue.js';
import { DIMENSIONS, HIT_DIMENSIONS, type Dimension } from '../dimensions.js';
import type { DimensionFilterRule, MetricFilterRule } from '../filters.js';
import { addDays, startOfMonth, startOfWeek, type PeriodGroup } from '../period.js';
import type { ReportRequest } from './api.js';
import { defineReport, type ReportDefinition } from './define.js';

/**
 * The report constructor (specification 001, §3 "Constructor template", §4 "Constructor", §5, §9):
 * its catalogues, limits and texts, the ready templates, and the report definition a constructor
 * query is turned into at request time, so that the api's one engine answers it.
 */

/** §3 "Constructor offers" (rambler_id is a login of the original's own; not collected here). */
export const CONSTRUCTOR_METRICS = ['page_views', 'visits', 'visitors', 'uid', 'events_count', 'avg_view_depth'] as const satisfies readonly Metric[];
export type ConstructorMetric = (typeof CONSTRUCTOR_METRICS)[number];

/** §5: at most 10 dimensions at once; an 11th is ignored. */
export const CONSTRUCTOR_MAX_DIMENSIONS = 10;
/** §5 "Количество строк": 10, 25, 50 or 100 rows. */
export const CONSTRUCTOR_LIMITS = [10, 25, 50, 100] as const;
/** §9 "Constructor graph lines". */
export const CONSTRUCTOR_GRAPH_LINES = 10;
/** §4: changes apply after a delay (ms): of the columns and rows, of the start row. */
export const CONSTRUCTOR_APPLY_DELAY = { items: 1000, offset: 1500 } as const;
/** §5 template name: 3 to 255 characters. */
export const CONSTRUCTOR_TITLE = { min: 3, max: 255 } as const;

export const CONSTRUCTOR_VIEW_TYPES = ['table', 'graph'] as const;
export type ConstructorViewType = (typeof CONSTRUCTOR_VIEW_TYPES)[number];

/** The texts of the constructor (§4, §5, §8), shown by the api's errors and the web alike. */
export const CONSTRUCTOR_TEXTS = {
  title: 'Конструктор отчётов',
  saved: 'Отчёт сохранён',
  changed: 'Отчёт изменён',
  deleted: 'Отчёт удалён',
  titleRequired: 'Поле не заполнено',
  titleTooShort: `Минимальная длина названия: ${CONSTRUCTOR_TITLE.min} символа`,
  titleTooLong: `Максимальная длина названия: ${CONSTRUCTOR_TITLE.max} символов`,
  notFound: 'Шаблон не найден',
  modifiedSuffix: ' (изменён)',
  tenParameters: 'Одновременно можно выбрать не более 10 параметров',
  nothingChosen: 'Не выбрано',
} as const;

/** Dimensions that need another one above them (a parameter's value needs its key) or are no rows of a site's traffic. */
const NOT_OFFERED: ReadonlySet<string> = new Set(['project_id', 'customer_params_value', 'event_type', 'visit_time']);

/** The constructor's dimension groups (§3 "Dimensions (catalogue, grouped)"): the tree of the sidebar. */
export const CONSTRUCTOR_DIMENSION_GROUPS: readonly { readonly title: string; readonly dimensions: readonly Dimension[] }[] = [
  { title: 'Дата', dimensions: ['date'] },
  { title: 'События', dimensions: ['event_class', 'event_name', 'ub_block_list', 'customer_params_key'] },
  { title: 'Аудитория', dimensions: ['session_number', 'view_depth', 'geo_country', 'geo_area', 'geo_city'] },
  {
    title: 'Технологии',
    dimensions: [
      'screen_size', 'screen_width', 'screen_height', 'device_type', 'device_brand', 'device_family', 'device_model',
      'os_family', 'os_version_major', 'os_version_minor', 'browser_family', 'browser_version_major', 'browser_version_minor', 'native_mobile',
    ],
  },
  {
    title: 'Источники',
    dimensions: [
      'traffic_type', 'traffic_system', 'ad_system', 'ad_campaign', 'search_system', 'search_phrase', 'aggrnews_system', 'exchange_system',
      'recom_system', 'social_network', 'message_system', 'qr_system', 'referer', 'referer_domain', 'referer_path',
      'utm_campaign', 'utm_content', 'utm_medium', 'utm_source', 'utm_term', 'openstat_ad', 'openstat_campaign', 'openstat_service', 'openstat_source',
    ],
  },
  { title: 'Содержание', dimensions: ['url', 'url_no_args', 'url_args_key', 'url_chapter', 'url_section_1', 'url_section_2', 'entry_page', 'exit_page', 'external_url', 'title', 'page_format'] },
  { title: 'Тип авторизации', dimensions: ['auth_top100'] },
];

/** Every dimension the constructor offers: the collected ones of its groups. */
export const CONSTRUCTOR_DIMENSIONS: readonly Dimension[] = CONSTRUCTOR_DIMENSION_GROUPS.flatMap((g) => g.dimensions).filter(
  (d) => DIMENSIONS[d].table !== null && !NOT_OFFERED.has(d),
);

export const isConstructorDimension = (d: string): d is Dimension => (CONSTRUCTOR_DIMENSIONS as readonly string[]).includes(d);
export const isConstructorMetric = (m: string): m is ConstructorMetric => (CONSTRUCTOR_METRICS as readonly string[]).includes(m);

/** Ratios per visit: rows of pages or events (HIT_DIMENSIONS) cannot answer them. */
const PER_VISIT_METRICS: readonly ConstructorMetric[] = ['avg_view_depth'];

/** Whether rows of these dimensions can answer the metric (depth per visit has no meaning for a page's rows). */
export function metricFitsDimensions(metric: ConstructorMetric, dimensions: readonly Dimension[]): boolean {
  return !PER_VISIT_METRICS.includes(metric) || !dimensions.some((d) => HIT_DIMENSIONS.has(d));
}

/**
 * The report definition of a constructor query: its dimensions are the drill-down path (the
 * first at the top, each row expands into the next), its metrics the constructor's. `date` as
 * the only dimension reads the period's days as any dimension's values.
 */
export function constructorDefinition(dimensions: readonly Dimension[]): ReportDefinition {
  return defineReport({
    name: 'constructor',
    title: CONSTRUCTOR_TEXTS.title,
    group: 'constructor',
    drilldown: dimensions.slice(0, CONSTRUCTOR_MAX_DIMENSIONS),
    metrics: CONSTRUCTOR_METRICS,
    defaultMetrics: ['page_views', 'visits', 'visitors'],
    defaultSort: { name: 'page_views', order: 'desc' },
  });
}

/** The body of `POST /api/report/v1.0/eventbase/{projectId}/constructor`: a report request with the view wanted. */
export interface ConstructorRequest extends ReportRequest {
  /** table (default): the drill-down table; graph: lines of the first dimension's top rows by date */
  view_type?: ConstructorViewType;
}

/** What a template keeps (§3 "Constructor template"): the constructor's query. */
export interface ConstructorTemplateBody {
  metrics: string[];
  dimensions: string[];
  sort?: { name: string; order: 'asc' | 'desc' };
  group?: PeriodGroup;
  viewType: ConstructorViewType;
  sample?: number;
  graphs?: number;
  /** the global filters */
  dimension_filters?: DimensionFilterRule[];
  /** the table filters */
  metric_filters?: MetricFilterRule[];
  limit?: number;
  offset?: number;
}

/** A saved template as the api answers it. */
export interface ConstructorTemplate {
  id: number;
  title: string;
  /** the creator's e-mail */
  email: string;
  /** ISO time of the last change */
  update_date: string;
  /** days between dateStart and dateEnd when saved */
  days_in_range: number;
  body: ConstructorTemplateBody;
  /**
   * Set when the template named dimensions or metrics the constructor no longer offers: they are
   * left out of `body`, and this says which, for the page to tell the user.
   */
  notice?: string;
  dropped?: string[];
}

/** `GET /api/v1.0/user/constructor_templates`. */
export interface ConstructorTemplateList {
  constructor_template: ConstructorTemplate[];
  totals: number;
}

/**
 * A template body with what the constructor does not offer left out (validated on save and on
 * load, §4): the names dropped, so that a template never opens a broken page.
 */
export function cleanTemplateBody(body: ConstructorTemplateBody): { body: ConstructorTemplateBody; dropped: string[] } {
  const dropped = [...body.dimensions.filter((d) => !isConstructorDimension(d)), ...body.metrics.filter((m) => !isConstructorMetric(m))];
  if (dropped.length === 0) return { body, dropped };
  const metrics = body.metrics.filter(isConstructorMetric);
  const clean: ConstructorTemplateBody = { ...body, dimensions: body.dimensions.filter(isConstructorDimension), metrics };
  if (clean.sort && clean.sort.name !== 'title' && clean.sort.name !== 'date' && !isConstructorMetric(clean.sort.name)) delete clean.sort;
  if (clean.metric_filters) clean.metric_filters = clean.metric_filters.filter((r) => metrics.includes(r.key as ConstructorMetric));
  return { body: clean, dropped };
}

/** The notice of a template that lost items. */
export const droppedNotice = (dropped: readonly string[]): string =>
  `Шаблон ссылается на параметры, которых больше нет: ${dropped.join(', ')}. Они убраны из отчёта.`;

/** Ready template groups on «Конструктор отчётов» (§4). */
export const READY_TEMPLATE_GROUPS = [
  { id: 'audience', title: 'Аудитория' },
  { id: 'technology', title: 'Технологии' },
  { id: 'sources', title: 'Источники' },
  { id: 'content', title: 'Содержание и поведение' },
] as const;
export type ReadyTemplateGroup = (typeof READY_TEMPLATE_GROUPS)[number]['id'];

/**
 * A ready template: a constructor query opened from a card. Its period is `today` at five-minute
 * grouping (§4 "Presets: today to today at five-minute grouping"), or for DAU, WAU and MAU the
 * current day, week or month and the two before it (§4 "range 2 back").
 */
export interface ReadyTemplate {
  id: string;
  group: ReadyTemplateGroup;
  title: string;
  description: string;
  metrics: ConstructorMetric[];
  dimensions: Dimension[];
  period: 'today' | 'day' | 'week' | 'month';
  dimension_filters?: DimensionFilterRule[];
  /** The table's order when not the constructor's default (page views, most first); `title` is the first dimension's column. */
  sort?: { name: 'title' | ConstructorMetric; order: 'asc' | 'desc' };
  /** The share of visitors read when not the constructor's default (10 %); 1 reads them all. */
  sample?: number;
}

/**
 * DAU, WAU and MAU are read by date: the first day at the top, as a calendar reads (sorted by
 * visitors, the three rows came in any order); and exactly, since a count of unique visitors
 * per period is the figure itself, not an estimate from a 10 % sample.
 */
const BY_DATE_EXACT = { sort: { name: 'title', order: 'asc' }, sample: 1 } as const satisfies Pick<ReadyTemplate, 'sort' | 'sample'>;

export const READY_TEMPLATES: readonly ReadyTemplate[] = [
  { id: 'dau', group: 'audience', title: 'DAU', description: 'Уникальные посетители по дням за 3 дня', metrics: ['visitors'], dimensions: ['date'], period: 'day', ...BY_DATE_EXACT },
  { id: 'wau', group: 'audience', title: 'WAU', description: 'Уникальные посетители по неделям за 3 недели', metrics: ['visitors'], dimensions: ['date'], period: 'week', ...BY_DATE_EXACT },
  { id: 'mau', group: 'audience', title: 'MAU', description: 'Уникальные посетители по месяцам за 3 месяца', metrics: ['visitors'], dimensions: ['date'], period: 'month', ...BY_DATE_EXACT },
  { id: 'geo', group: 'audience', title: 'География', description: 'Визиты по странам и городам', metrics: ['visits', 'visitors'], dimensions: ['geo_country', 'geo_city'], period: 'today' },
  { id: 'platforms', group: 'technology', title: 'Платформы', description: 'Устройства и операционные системы', metrics: ['visits', 'visitors'], dimensions: ['device_type', 'os_family'], period: 'today' },
  { id: 'browsers', group: 'technology', title: 'Браузеры', description: 'Браузеры и их версии', metrics: ['visits', 'visitors'], dimensions: ['browser_family', 'browser_version_major'], period: 'today' },
  { id: 'traffic', group: 'sources', title: 'Источники трафика', description: 'Типы источников и системы', metrics: ['visits', 'visitors'], dimensions: ['traffic_type', 'traffic_system'], period: 'today' },
  {
    id: 'utm', group: 'sources', title: 'UTM-метки', description: 'Визиты по UTM-меткам',
    metrics: ['visits', 'visitors'], dimensions: ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'], period: 'today',
  },
  { id: 'pages', group: 'content', title: 'Популярные страницы', description: 'Просмотры страниц сайта', metrics: ['page_views', 'visitors'], dimensions: ['url_no_args'], period: 'today' },
  {
    id: 'custom_events', group: 'content', title: 'Пользовательские события', description: 'События, которые отправляет сайт',
    metrics: ['events_count', 'visitors'], dimensions: ['event_name'], period: 'today',
    dimension_filters: [{ key: 'event_class', op: '=', value: 'cv' }],
  },
  {
    id: 'blocks', group: 'content', title: 'Блочная аналитика', description: 'Показы и клики по блокам страниц',
    metrics: ['visits', 'visitors'], dimensions: ['ub_block_list', 'event_name'], period: 'today',
    dimension_filters: [{ key: 'event_class', op: '=', value: 'ub' }],
  },
];

/** The period and grouping a ready template opens with, on the Moscow day `today`. */
export function readyTemplatePeriod(template: Pick<ReadyTemplate, 'period'>, today: string): { dateStart: string; dateEnd: string; group: PeriodGroup } {
  switch (template.period) {
    case 'today':
      return { dateStart: today, dateEnd: today, group: 'five_minute' };
    case 'day':
      return { dateStart: addDays(today, -2), dateEnd: today, group: 'day' };
    case 'week':
      return { dateStart: addDays(startOfWeek(today), -14), dateEnd: today, group: 'week' };
    case 'month': {
      const previous = startOfMonth(addDays(startOfMonth(today), -1));
      return { dateStart: startOfMonth(addDays(previous, -1)), dateEnd: today, group: 'month' };
    }
  }
}
