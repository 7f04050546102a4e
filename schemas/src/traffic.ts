/**
 * The traffic types the aggregator gives each visit's source (aggregator/src/enrich/referrer.ts
 * decides them), with the Russian titles the reports show.
 */
export const TRAFFIC_TYPES = ['direct', 'internal', 'search', 'social', 'messenger', 'recommend', 'aggrnews', 'exchange', 'ad', 'qr', 'link'] as const;
export type TrafficType = (typeof TRAFFIC_TYPES)[number];

/** Russian titles of the traffic types, as the reports show them. */
export const TRAFFIC_TYPE_TITLES: Readonly<Record<TrafficType, string>> = {
  direct: 'Прямые заходы',
  internal: 'Внутренние переходы',
  search: 'Поисковые системы',
  social: 'Социальные сети',
  messenger: 'Мессенджеры',
  recommend: 'Рекомендательные системы',
  aggrnews: 'Новостные агрегаторы',
  exchange: 'Обменные сети',
  ad: 'Рекламные системы',
  qr: 'QR-коды',
  link: 'Переходы по ссылкам на сайтах',
};
