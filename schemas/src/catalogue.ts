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
  'read_throughs',
  'read_through_share',
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
  /** what it counts, for the report's «Узнать подробнее»: README's definition in a sentence */
  about: string;
}

export const METRIC_INFO: Record<Metric, MetricInfo> = {
  page_views: { title: 'Просмотры', unit: 'count', order: 'desc',
    about: 'Загрузки страниц сайта, переходы внутри одностраничного приложения и, если счётчик учитывает хеш, смены хеша; перезагрузка страницы — тоже просмотр.' },
  visits: { title: 'Визиты', unit: 'count', order: 'desc',
    about: 'Последовательность действий одного посетителя на сайте. Новый визит начинается после 30 минут без просмотров и действий или при переходе из другого источника. Визит считается там, где он начался.' },
  visitors: { title: 'Посетители', unit: 'count', order: 'desc',
    about: 'Разные посетители за весь период (не сумма по дням): браузеры с разными идентификаторами счётчика. Погрешность подсчёта — меньше 1 %.' },
  bounces: { title: 'Отказы', unit: 'percent', order: 'desc',
    about: 'Доля визитов из одного просмотра, которые продлились меньше 15 секунд и не были активны 15 секунд.' },
  avg_view_depth: { title: 'Глубина просмотра', unit: 'ratio', order: 'desc',
    about: 'Просмотры, делённые на визиты: сколько страниц в среднем смотрят за визит.' },
  avg_sessions_duration: { title: 'Время на сайте', unit: 'seconds', order: 'desc',
    about: 'Среднее время визита: от первого действия до последнего просмотра или действия. Время на последней странице неизвестно, поэтому визит из одного просмотра длится 0 секунд.' },
  avg_view_duration: { title: 'Время просмотра страницы', unit: 'seconds', order: 'desc',
    about: 'Время, когда страница была видна на экране, в среднем на просмотр.' },
  events_count: { title: 'События', unit: 'count', order: 'desc',
    about: 'События, которые сайт отправил счётчику.' },
  uid: { title: 'Авторизованные посетители', unit: 'count', order: 'desc',
    about: 'Разные посетители, которым сайт передал идентификатор пользователя.' },
  usability_views: { title: 'Показы блока', unit: 'count', order: 'desc',
    about: 'Показы размеченных блоков страниц.' },
  usability_clicks: { title: 'Клики по блоку', unit: 'count', order: 'desc',
    about: 'Клики по размеченным блокам страниц.' },
  usability_ctr: { title: 'CTR блока', unit: 'percent', order: 'desc',
    about: 'Клики по блоку, делённые на его показы, в процентах.' },
  read_throughs: { title: 'Дочитывания', unit: 'count', order: 'desc',
    about: 'Просмотры статьи, в которых читатель дошёл до её конца (цель «Дочитывание статьи», один раз за просмотр).' },
  read_through_share: { title: 'Доля дочитываний', unit: 'percent', order: 'desc',
    about: 'Дочитывания, делённые на просмотры, в процентах.' },
  popularity: { title: 'Популярность', unit: 'count', order: 'desc',
    about: 'Посетители сайта за целые дни периода, который заканчивается не позже вчерашнего дня. Видна для самого сайта и сайтов с открытой статистикой.' },
  // The first place is the best: a position column sorts ascending first.
  position: { title: 'Позиция', unit: 'count', order: 'asc',
    about: 'Место сайта среди сайтов категории по популярности: чем больше посетителей, тем выше место.' },
};

/** What each metric counts (kept for the callers that need the unit only). */
export const METRIC_UNITS: Record<Metric, MetricUnit> = Object.fromEntries(
  METRICS.map((m) => [m, METRIC_INFO[m].unit]),
) as Record<Metric, MetricUnit>;

/** Time buckets of a report graph, finest first (§3 "groupBy values"): the period rules' groups. */
export { PERIOD_GROUPS as GROUPS, type PeriodGroup as Group } from './period.js';
