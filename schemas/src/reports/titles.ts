import { urlSectionLevel } from '../dimensions.js';

/**
 * What a dimension is called out of its report, where its column title alone is ambiguous there
 * («Версия» of what?): in the filter menu and its chips, and in the constructor's list.
 */
export interface DimensionNames {
  /** the column title */
  readonly title: string;
  /** the name in the filter menu and in the constructor's list */
  readonly name?: string;
  /** the filter menu's own name, where the constructor's list shows the column title */
  readonly filterName?: string;
  /** the constructor's own name, where the filter menu shows the column title */
  readonly constructorName?: string;
}

/**
 * The titles of the dimensions, the one list of them: each one's column title (the first
 * column's header of a report's table in the web app, and of its CSV in the api), or that and
 * the names it goes by out of its report.
 */
const TITLES: Readonly<Record<string, string | DimensionNames>> = {
  // The rating's rows: the rated sites (its CSV names the column so too).
  project_id: 'Сайт',
  traffic_type: 'Тип источника',
  traffic_system: 'Система',
  search_phrase: 'Поисковая фраза',
  search_system: 'Поисковая система',
  referer_domain: { title: 'Сайт', name: 'Сайт-источник' },
  referer_path: 'Страница сайта',
  ad_system: 'Рекламная система',
  ad_campaign: { title: 'Кампания', filterName: 'Рекламная кампания' },
  utm_source: 'utm_source',
  utm_medium: 'utm_medium',
  utm_campaign: 'utm_campaign',
  utm_content: 'utm_content',
  utm_term: 'utm_term',
  openstat_service: { title: 'Сервис', filterName: 'Сервис Openstat' },
  openstat_campaign: { title: 'Кампания', filterName: 'Кампания Openstat' },
  openstat_ad: { title: 'Объявление', filterName: 'Объявление Openstat' },
  openstat_source: { title: 'Место размещения', filterName: 'Место размещения Openstat' },
  aggrnews_system: 'Новостной агрегатор',
  exchange_system: 'Обменная сеть',
  recom_system: 'Рекомендательная система',
  social_network: 'Социальная сеть',
  message_system: 'Мессенджер',
  qr_system: 'QR-код',
  geo_country: 'Страна',
  geo_area: 'Регион',
  geo_city: 'Город',
  view_depth: 'Глубина просмотра',
  visit_time: 'Время на сайте',
  gender: 'Пол',
  age_tns: 'Возраст',
  category_1: 'Интересы',
  device_type: 'Тип устройства',
  device_brand: 'Производитель',
  device_model: 'Модель',
  browser_family: 'Браузер',
  browser_version_major: { title: 'Версия', name: 'Версия браузера' },
  os_family: 'Операционная система',
  os_version_major: { title: 'Версия', name: 'Версия ОС' },
  screen_size: 'Разрешение экрана',
  screen_width: 'Ширина',
  screen_height: 'Высота',
  page_format: 'Формат страницы',
  url_no_args: 'Адрес без параметров',
  url: 'Адрес страницы',
  url_chapter: 'Раздел',
  url_section_1: 'Раздел сайта',
  url_section_2: 'Подраздел сайта',
  title: 'Заголовок страницы',
  url_args_key: { title: 'Параметр', name: 'Параметр адреса' },
  entry_page: 'Страница входа',
  exit_page: 'Страница выхода',
  event_name: { title: 'Событие', name: 'Название события' },
  customer_params_key: { title: 'Параметр', name: 'Параметр события' },
  customer_params_value: 'Значение',
  ub_block_list: 'Блок',
  date: 'Дата',
  event_class: 'Класс события',
  event_type: 'Тип события',
  session_number: 'Номер визита',
  referer: 'Адрес перехода',
  device_family: 'Семейство устройств',
  os_version_minor: { title: 'Минорная версия', constructorName: 'Минорная версия ОС' },
  browser_version_minor: { title: 'Минорная версия', constructorName: 'Минорная версия браузера' },
  native_mobile: 'Мобильное приложение',
  auth_top100: 'Авторизация на сайте',
  external_url: 'Внешняя ссылка',
  media_title: 'Название материала',
  author_name: 'Автор',
  published_datetime: 'Дата публикации',
};

/** The entry of a dimension, as names. */
function namesOf(dimension: string): DimensionNames | undefined {
  const entry = TITLES[dimension];
  return typeof entry === 'string' ? { title: entry } : entry;
}

/** A dimension's title (its name when it has none); the URL tree's deeper levels by their number. */
export function dimensionTitle(dimension: string): string {
  const level = urlSectionLevel(dimension);
  return namesOf(dimension)?.title ?? (level === undefined ? dimension : `Раздел сайта, уровень ${level}`);
}

/** A dimension's name in the filter menu and its chips. */
export function dimensionFilterTitle(dimension: string): string {
  const names = namesOf(dimension);
  return names?.filterName ?? names?.name ?? dimensionTitle(dimension);
}

/** A dimension's name in the constructor's list. */
export function dimensionConstructorTitle(dimension: string): string {
  const names = namesOf(dimension);
  return names?.constructorName ?? names?.name ?? dimensionTitle(dimension);
}

/** The header of the URL tree's levels, however many a drill-down has: rows are sections and pages. */
const URL_TREE_HEADER = 'Раздел сайта / страница';

/** The first column's header: the drill-down's levels, «Страна / Регион / Город»; the URL tree's levels as one. */
export function drilldownHeader(drilldown: readonly string[]): string {
  const titles = drilldown.map((d) => (urlSectionLevel(d) === undefined ? dimensionTitle(d) : URL_TREE_HEADER));
  return titles.filter((t, i) => t !== URL_TREE_HEADER || titles[i - 1] !== URL_TREE_HEADER).join(' / ');
}

/** The first column's header of a report's table: its own (the media reports', as the spec names them), else its drill-down's. */
export function reportHeader(report: { header?: string; drilldown: readonly string[] }): string {
  return report.header ?? drilldownHeader(report.drilldown);
}
