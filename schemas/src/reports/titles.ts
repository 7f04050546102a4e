import { urlSectionLevel } from '../dimensions.js';

/**
 * Column titles of the drill-down dimensions: the first column's header of a report's table in
 * the web app, and of its CSV in the api.
 */
const TITLES: Readonly<Record<string, string>> = {
  // The rating's rows: the rated sites (its CSV names the column so too).
  project_id: 'Сайт',
  traffic_type: 'Тип источника',
  traffic_system: 'Система',
  search_phrase: 'Поисковая фраза',
  search_system: 'Поисковая система',
  referer_domain: 'Сайт',
  referer_path: 'Страница сайта',
  ad_system: 'Рекламная система',
  ad_campaign: 'Кампания',
  utm_source: 'utm_source',
  utm_medium: 'utm_medium',
  utm_campaign: 'utm_campaign',
  utm_content: 'utm_content',
  utm_term: 'utm_term',
  openstat_service: 'Сервис',
  openstat_campaign: 'Кампания',
  openstat_ad: 'Объявление',
  openstat_source: 'Место размещения',
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
  browser_version_major: 'Версия',
  os_family: 'Операционная система',
  os_version_major: 'Версия',
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
  url_args_key: 'Параметр',
  entry_page: 'Страница входа',
  exit_page: 'Страница выхода',
  event_name: 'Событие',
  customer_params_key: 'Параметр',
  customer_params_value: 'Значение',
  ub_block_list: 'Блок',
  date: 'Дата',
  event_class: 'Класс события',
  session_number: 'Номер визита',
  referer: 'Адрес перехода',
  device_family: 'Семейство устройств',
  os_version_minor: 'Минорная версия',
  browser_version_minor: 'Минорная версия',
  native_mobile: 'Мобильное приложение',
  auth_top100: 'Авторизация на сайте',
  external_url: 'Внешняя ссылка',
  media_title: 'Название материала',
  author_name: 'Автор',
  published_datetime: 'Дата публикации',
};

/** A dimension's title (its name when it has none); the URL tree's deeper levels by their number. */
export function dimensionTitle(dimension: string): string {
  const level = urlSectionLevel(dimension);
  return TITLES[dimension] ?? (level === undefined ? dimension : `Раздел сайта, уровень ${level}`);
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
