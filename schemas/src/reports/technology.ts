import { BY_PAGE_VIEWS, BY_VISITS, HIT_METRICS, reportGroup, VISIT_METRICS, type ReportDefinition } from './define.js';

/** The reports of technology count visits, most first, but for the page formats (pages). */
const technologyReport = reportGroup('technology', { metrics: VISIT_METRICS, defaultSort: BY_VISITS });

export const TECHNOLOGY_REPORTS: readonly ReportDefinition[] = [
  technologyReport({ name: 'device', title: 'Устройства', drilldown: ['device_type', 'device_brand', 'device_model'] }),
  technologyReport({ name: 'browser', title: 'Браузеры', drilldown: ['browser_family', 'browser_version_major'] }),
  technologyReport({ name: 'os', title: 'Операционные системы', drilldown: ['os_family', 'os_version_major'] }),
  technologyReport({ name: 'screensize', title: 'Разрешения экрана', drilldown: ['screen_size'], skipEmpty: true }),
  technologyReport({ name: 'drilldown_width', title: 'Ширина экрана', drilldown: ['screen_width', 'screen_height'], skipEmpty: true }),
  technologyReport({ name: 'page_formats', title: 'Форматы страниц', drilldown: ['page_format'], metrics: HIT_METRICS, defaultSort: BY_PAGE_VIEWS }),
];
