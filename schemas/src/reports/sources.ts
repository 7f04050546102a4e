import { BY_VISITS, defineReport, VISIT_METRICS, type ReportDefinition } from './define.js';
import type { Dimension } from '../dimensions.js';

/** A report of one kind of source: its systems, only the visits that came from one. */
const systemReport = (name: Dimension & string, title: string): ReportDefinition =>
  defineReport({ name, title, group: 'sources', drilldown: [name], metrics: VISIT_METRICS, defaultSort: BY_VISITS, skipEmpty: true });

export const SOURCES_REPORTS: readonly ReportDefinition[] = [
  defineReport({
    name: 'traffic_sources',
    title: 'Источники трафика',
    group: 'sources',
    drilldown: ['traffic_type', 'traffic_system', 'search_phrase'],
    metrics: VISIT_METRICS,
    defaultSort: BY_VISITS,
  }),
  defineReport({
    name: 'drilldown_sources',
    title: 'Источники, подробно',
    group: 'sources',
    drilldown: ['traffic_type', 'traffic_system', 'referer_domain'],
    metrics: VISIT_METRICS,
    defaultSort: BY_VISITS,
  }),
  defineReport({
    name: 'ad_systems',
    title: 'Рекламные системы',
    group: 'sources',
    drilldown: ['ad_system', 'ad_campaign'],
    metrics: VISIT_METRICS,
    defaultSort: BY_VISITS,
    skipEmpty: true,
  }),
  defineReport({
    name: 'utms',
    title: 'UTM-метки',
    group: 'sources',
    drilldown: ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'],
    metrics: VISIT_METRICS,
    defaultSort: BY_VISITS,
    skipEmpty: true,
  }),
  defineReport({
    name: 'openstat',
    title: 'Метки Openstat',
    group: 'sources',
    drilldown: ['openstat_service', 'openstat_campaign', 'openstat_ad', 'openstat_source'],
    metrics: VISIT_METRICS,
    defaultSort: BY_VISITS,
    skipEmpty: true,
  }),
  defineReport({
    name: 'sites',
    title: 'Сайты',
    group: 'sources',
    drilldown: ['referer_domain', 'referer_path'],
    metrics: VISIT_METRICS,
    defaultSort: BY_VISITS,
    where: [{ key: 'traffic_type', op: '=', value: 'link' }],
  }),
  defineReport({
    name: 'search_system_phrase',
    title: 'Поисковые системы',
    group: 'sources',
    drilldown: ['search_system', 'search_phrase'],
    metrics: VISIT_METRICS,
    defaultSort: BY_VISITS,
    skipEmpty: true,
  }),
  defineReport({
    name: 'search_phrase_system',
    title: 'Поисковые фразы',
    group: 'sources',
    drilldown: ['search_phrase', 'search_system'],
    metrics: VISIT_METRICS,
    defaultSort: BY_VISITS,
    where: [{ key: 'traffic_type', op: '=', value: 'search' }],
  }),
  systemReport('aggrnews_system', 'Новостные агрегаторы'),
  systemReport('exchange_system', 'Обменные сети'),
  systemReport('recom_system', 'Рекомендательные системы'),
  systemReport('social_network', 'Социальные сети'),
  systemReport('message_system', 'Мессенджеры'),
  systemReport('qr_system', 'QR-коды'),
];
