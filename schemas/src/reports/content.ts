import { URL_SECTION_DIMENSIONS } from '../dimensions.js';
import { BY_PAGE_VIEWS, BY_VISITS, defineReport, HIT_METRICS, VISIT_METRICS, type ReportDefinition } from './define.js';

export const CONTENT_REPORTS: readonly ReportDefinition[] = [
  defineReport({ name: 'page_urls', title: 'Адреса страниц', group: 'content', drilldown: ['url_no_args', 'url'], metrics: HIT_METRICS, defaultSort: BY_PAGE_VIEWS }),
  // The URL tree: a section expands into its subsections and pages, to URL_SECTION_DEPTH sections (dimensions.ts).
  defineReport({ name: 'chapters', title: 'Разделы сайта', group: 'content', drilldown: URL_SECTION_DIMENSIONS, metrics: HIT_METRICS, defaultSort: BY_PAGE_VIEWS }),
  defineReport({ name: 'page_titles', title: 'Заголовки страниц', group: 'content', drilldown: ['title'], metrics: HIT_METRICS, defaultSort: BY_PAGE_VIEWS }),
  defineReport({ name: 'page_args', title: 'Параметры URL', group: 'content', drilldown: ['url_args_key', 'url'], metrics: HIT_METRICS, defaultSort: BY_PAGE_VIEWS, skipEmpty: true }),
  defineReport({ name: 'entrance_pages', title: 'Страницы входа', group: 'content', drilldown: ['entry_page'], metrics: VISIT_METRICS.filter((m) => m !== 'uid'), defaultSort: BY_VISITS }),
  defineReport({ name: 'exit_pages', title: 'Страницы выхода', group: 'content', drilldown: ['exit_page'], metrics: VISIT_METRICS.filter((m) => m !== 'uid'), defaultSort: BY_VISITS }),
];
