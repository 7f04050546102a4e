import { BY_VISITS, reportGroup, VISIT_METRICS, type ReportDefinition } from './define.js';
import type { Dimension } from '../dimensions.js';

/** Every report of sources counts visits, most first. */
const sourcesReport = reportGroup('sources', { metrics: VISIT_METRICS, defaultSort: BY_VISITS });

/** A report of one kind of source: its systems, only the visits that came from one. */
const systemReport = (name: Dimension & string, title: string): ReportDefinition =>
  sourcesReport({ name, title, drilldown: [name], skipEmpty: true });

export const SOURCES_REPORTS: readonly ReportDefinition[] = [
  sourcesReport({
    name: 'traffic_sources',
    title: 'Источники трафика',
    drilldown: ['traffic_type', 'traffic_system', 'search_phrase'],
  }),
  sourcesReport({
    name: 'drilldown_sources',
    title: 'Источники, подробно',
    drilldown: ['traffic_type', 'traffic_system', 'referer_domain'],
  }),
  sourcesReport({
    name: 'ad_systems',
    title: 'Рекламные системы',
    drilldown: ['ad_system', 'ad_campaign'],
    skipEmpty: true,
  }),
  sourcesReport({
    name: 'utms',
    title: 'UTM-метки',
    drilldown: ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'],
    skipEmpty: true,
  }),
  sourcesReport({
    name: 'openstat',
    title: 'Метки Openstat',
    drilldown: ['openstat_service', 'openstat_campaign', 'openstat_ad', 'openstat_source'],
    skipEmpty: true,
  }),
  sourcesReport({
    name: 'sites',
    title: 'Сайты',
    drilldown: ['referer_domain', 'referer_path'],
    where: [{ key: 'traffic_type', op: '=', value: 'link' }],
  }),
  sourcesReport({
    name: 'search_system_phrase',
    title: 'Поисковые системы',
    drilldown: ['search_system', 'search_phrase'],
    skipEmpty: true,
  }),
  sourcesReport({
    name: 'search_phrase_system',
    title: 'Поисковые фразы',
    drilldown: ['search_phrase', 'search_system'],
    where: [{ key: 'traffic_type', op: '=', value: 'search' }],
  }),
  systemReport('aggrnews_system', 'Новостные агрегаторы'),
  systemReport('exchange_system', 'Обменные сети'),
  systemReport('recom_system', 'Рекомендательные системы'),
  systemReport('social_network', 'Социальные сети'),
  systemReport('message_system', 'Мессенджеры'),
  systemReport('qr_system', 'QR-коды'),
];
