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

/** The device types the aggregator gives a user agent (aggregator/src/enrich/user-agent.ts decides them). */
export const DEVICE_TYPES = ['desktop', 'mobile', 'tablet', 'tv', 'console', 'wearable', 'embedded', 'other'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

/** Russian titles of the device types, as the reports show them. */
export const DEVICE_TYPE_TITLES: Readonly<Record<DeviceType, string>> = {
  desktop: 'Компьютеры',
  mobile: 'Смартфоны',
  tablet: 'Планшеты',
  tv: 'Телевизоры',
  console: 'Игровые приставки',
  wearable: 'Носимые устройства',
  embedded: 'Встроенные устройства',
  other: 'Другие устройства',
};

/** The titles of stored values that are codes, by dimension; any other value is its own title. */
export const VALUE_TITLES: Readonly<Partial<Record<'traffic_type' | 'device_type', Readonly<Record<string, string>>>>> = {
  traffic_type: TRAFFIC_TYPE_TITLES,
  device_type: DEVICE_TYPE_TITLES,
};
