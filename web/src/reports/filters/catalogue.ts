/**
 * The filter dialog's menu (spec 001 §4 "Filters and saved filters"): its groups, the dimensions
 * of each with the filter type that edits them, and the rule limits of each type (§5). Only the
 * dimensions the service collects are offered (FILTERABLE_DIMENSIONS).
 */
import { FILTERABLE_DIMENSIONS } from '@stat/schemas/filters';
import { dimensionFilterTitle } from '@stat/schemas/reports';

/** Filter types (§3 "Filter rule"). */
export type FilterType = 'checkbox' | 'textarea' | 'radio' | 'period' | 'datePeriod' | 'event';

/** Rules one filter of a type may hold (§5 "Number of rules per filter type"); they combine with AND. */
export const RULE_LIMITS: Readonly<Record<FilterType, number>> = {
  checkbox: 3,
  textarea: 3,
  radio: 1,
  event: 1,
  period: 2,
  datePeriod: 2,
};

/** A dimension in the menu. */
export interface FilterItem {
  readonly key: string;
  readonly title: string;
  readonly type: FilterType;
}

/** A group of the menu, with its subgroups (География under Аудитория, UTM Метки under Источники). */
export interface FilterSection {
  readonly title: string;
  readonly items: readonly FilterItem[];
}

const item = (key: string, type: FilterType): FilterItem => ({ key, title: dimensionFilterTitle(key), type });

/** The menu of general reports, before leaving out what is not collected. */
const MENU: readonly FilterSection[] = [
  { title: 'События', items: [item('event_class', 'checkbox'), item('event_name', 'event')] },
  { title: 'Параметры события', items: [item('customer_params_key', 'checkbox'), item('ub_block_list', 'checkbox')] },
  { title: 'Аудитория', items: [item('session_number', 'period'), item('view_depth', 'period'), item('gender', 'radio'), item('age_tns', 'checkbox')] },
  { title: 'География', items: [item('geo_country', 'checkbox'), item('geo_area', 'checkbox'), item('geo_city', 'checkbox')] },
  {
    title: 'Технологии',
    items: [
      item('device_type', 'checkbox'),
      item('device_brand', 'checkbox'),
      item('device_model', 'checkbox'),
      item('os_family', 'checkbox'),
      item('os_version_major', 'checkbox'),
      item('browser_family', 'checkbox'),
      item('browser_version_major', 'checkbox'),
      item('screen_size', 'checkbox'),
      item('page_format', 'checkbox'),
    ],
  },
  {
    title: 'Источники',
    items: [
      item('traffic_type', 'checkbox'),
      item('search_system', 'checkbox'),
      item('search_phrase', 'textarea'),
      item('social_network', 'checkbox'),
      item('ad_system', 'checkbox'),
      item('ad_campaign', 'checkbox'),
      item('recom_system', 'checkbox'),
      item('message_system', 'checkbox'),
      item('exchange_system', 'checkbox'),
      item('aggrnews_system', 'checkbox'),
      item('qr_system', 'checkbox'),
      item('referer_domain', 'checkbox'),
      item('referer', 'textarea'),
    ],
  },
  { title: 'UTM Метки', items: ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'].map((k) => item(k, 'checkbox')) },
  { title: 'Метки Openstat', items: ['openstat_service', 'openstat_campaign', 'openstat_ad', 'openstat_source'].map((k) => item(k, 'checkbox')) },
  {
    title: 'Содержание',
    items: [
      ...['url', 'url_no_args', 'title', 'entry_page', 'exit_page', 'external_url', 'url_args_key'].map((k) => item(k, 'textarea')),
      item('url_section_1', 'checkbox'),
      item('url_section_2', 'checkbox'),
    ],
  },
  { title: 'Тип авторизации', items: [item('auth_top100', 'radio'), item('auth_rambler', 'radio')] },
  { title: 'Эксперименты', items: [item('split', 'checkbox')] },
];

/** The menu: collected dimensions only; a group left empty is not shown. */
export const FILTER_MENU: readonly FilterSection[] = MENU.map((s) => ({ ...s, items: s.items.filter((i) => FILTERABLE_DIMENSIONS.includes(i.key)) })).filter(
  (s) => s.items.length > 0,
);

const BY_KEY = new Map(FILTER_MENU.flatMap((s) => s.items.map((i) => [i.key, i] as const)));

/** The menu item of a dimension; a filterable dimension not in the menu is edited as a checkbox list. */
export function filterItem(key: string): FilterItem {
  return BY_KEY.get(key) ?? item(key, 'checkbox');
}

/** The groups whose title, or a dimension's title, contains `search` (case ignored); a group matched by title keeps all its items. */
export function searchMenu(search: string): FilterSection[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [...FILTER_MENU];
  return FILTER_MENU.flatMap((s) => {
    if (s.title.toLowerCase().includes(needle)) return [s];
    const items = s.items.filter((i) => i.title.toLowerCase().includes(needle));
    return items.length > 0 ? [{ ...s, items }] : [];
  });
}
