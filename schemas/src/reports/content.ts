import { URL_SECTION_DIMENSIONS } from '../dimensions.js';
import { BY_PAGE_VIEWS, BY_VISITS, HIT_METRICS, reportGroup, VISIT_METRICS, type ReportDefinition } from './define.js';

/** The reports of content count pages, most viewed first, but for the entry and exit pages (visits). */
const contentReport = reportGroup('content', { metrics: HIT_METRICS, defaultSort: BY_PAGE_VIEWS });

export const CONTENT_REPORTS: readonly ReportDefinition[] = [
  contentReport({ name: 'page_urls', title: 'Адреса страниц', drilldown: ['url_no_args', 'url'] }),
  // The URL tree: a section expands into its subsections and pages, to URL_SECTION_DEPTH sections (dimensions.ts).
  contentReport({ name: 'chapters', title: 'Разделы сайта', drilldown: URL_SECTION_DIMENSIONS }),
  contentReport({ name: 'page_titles', title: 'Заголовки страниц', drilldown: ['title'] }),
  contentReport({ name: 'page_args', title: 'Параметры URL', drilldown: ['url_args_key', 'url'], skipEmpty: true }),
  contentReport({ name: 'entrance_pages', title: 'Страницы входа', drilldown: ['entry_page'], metrics: VISIT_METRICS.filter((m) => m !== 'uid'), defaultSort: BY_VISITS }),
  contentReport({ name: 'exit_pages', title: 'Страницы выхода', drilldown: ['exit_page'], metrics: VISIT_METRICS.filter((m) => m !== 'uid'), defaultSort: BY_VISITS }),
];
