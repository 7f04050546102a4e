/**
 * The metric and grouping catalogues shared by the api and the web app. Names are the wire
 * names of the specification (001, §3 "Metrics"); each service maps them to its own work (SQL in
 * the api's report engine, titles and formats in the web). Only metrics the stored data can
 * answer are here (popularity and position are the rating report's alone); the media and funnel
 * metrics come with the reports that own them. README ("Metric definitions") defines each one.
 */
export const METRICS = [
  'page_views',
  'visits',
  'visitors',
  'bounces',
  'avg_view_depth',
  'avg_sessions_duration',
  'avg_view_duration',
  'events_count',
  'uid',
  'usability_views',
  'usability_clicks',
  'usability_ctr',
  'popularity',
  'position',
] as const;
export type Metric = (typeof METRICS)[number];

/** What a metric's number is: how the web formats it and how sampling scales it. */
export type MetricUnit = 'count' | 'percent' | 'ratio' | 'seconds';

/** A metric as users meet it. */
export interface MetricInfo {
  /** column and legend title */
  title: string;
  unit: MetricUnit;
  /** direction of the first click on its column (§4 "Sorting": metrics default to descending) */
  order: 'asc' | 'desc';
}

export const METRIC_INFO: Record<Metric, MetricInfo> = {
  page_views: { title: 'Просмотры', unit: 'count', order: 'desc' },
  visits: { title: 'Визиты', unit: 'count', order: 'desc' },
  visitors: { title: 'Посетители', unit: 'count', order: 'desc' },
  bounces: { title: 'Отказы', unit: 'percent', order: 'desc' },
  avg_view_depth: { title: 'Глубина просмотра', unit: 'ratio', order: 'desc' },
  avg_sessions_duration: { title: 'Время на сайте', unit: 'seconds', order: 'desc' },
  avg_view_duration: { title: 'Время просмотра страницы', unit: 'seconds', order: 'desc' },
  events_count: { title: 'События', unit: 'count', order: 'desc' },
  uid: { title: 'Авторизованные посетители', unit: 'count', order: 'desc' },
  usability_views: { title: 'Показы блока', unit: 'count', order: 'desc' },
  usability_clicks: { title: 'Клики по блоку', unit: 'count', order: 'desc' },
  usability_ctr: { title: 'CTR блока', unit: 'percent', order: 'desc' },
  popularity: { title: 'Популярность', unit: 'count', order: 'desc' },
  // The first place is the best: a position column sorts ascending first.
  position: { title: 'Позиция', unit: 'count', order: 'asc' },
};

/** What each metric counts (kept for the callers that need the unit only). */
export const METRIC_UNITS: Record<Metric, MetricUnit> = Object.fromEntries(
  METRICS.map((m) => [m, METRIC_INFO[m].unit]),
) as Record<Metric, MetricUnit>;

/** Time buckets of a report graph, finest first (§3 "groupBy values"): the period rules' groups. */
export { PERIOD_GROUPS as GROUPS, type PeriodGroup as Group } from './period.js';
