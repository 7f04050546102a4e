import { BY_VISITS, defineReport, VISIT_METRICS, type ReportDefinition } from './define.js';

export const TECHNOLOGY_REPORTS: readonly ReportDefinition[] = [
  defineReport({ name: 'device', title: 'Устройства', group: 'technology', drilldown: ['device_type', 'device_brand', 'device_model'], metrics: VISIT_METRICS, defaultSort: BY_VISITS }),
  defineReport({ name: 'browser', title: 'Браузеры', group: 'technology', drilldown: ['browser_family', 'browser_version_major'], metrics: VISIT_METRICS, defaultSort: BY_VISITS }),
  defineReport({ name: 'os', title: 'Операционные системы', group: 'technology', drilldown: ['os_family', 'os_version_major'], metrics: VISIT_METRICS, defaultSort: BY_VISITS }),
  defineReport({ name: 'screensize', title: 'Разрешения экрана', group: 'technology', drilldown: ['screen_size'], metrics: VISIT_METRICS, defaultSort: BY_VISITS, skipEmpty: true }),
  defineReport({ name: 'drilldown_width', title: 'Ширина экрана', group: 'technology', drilldown: ['screen_width', 'screen_height'], metrics: VISIT_METRICS, defaultSort: BY_VISITS, skipEmpty: true }),
  defineReport({ name: 'page_formats', title: 'Форматы страниц', group: 'technology', drilldown: ['page_format'], metrics: ['page_views', 'visits', 'visitors', 'avg_view_duration', 'uid'], defaultSort: { name: 'page_views', order: 'desc' } }),
];
