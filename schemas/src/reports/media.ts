import type { Metric } from '../catalogue.js';
import { BY_PAGE_VIEWS, reportGroup, type ReportDefinition } from './define.js';

/**
 * The entry of a project's `available_reports` that opens its media reports (specification 000:
 * the menu shows them only with it): the api lists it when the project has stored material hits.
 */
export const MEDIA_TOTALS = 'media_totals';

/**
 * The metrics of the media reports: a material's readers and how far they read. Rows are the
 * article pages' materials (what the full counter sends on their hits), so a visit or a visitor
 * counts in every material it read.
 */
export const MEDIA_METRICS = ['page_views', 'visitors', 'visits', 'read_throughs', 'read_through_share', 'avg_view_duration'] as const satisfies readonly Metric[];

/** Every media report counts a material's readers, most page views first, and leaves out the pages of no material. */
const mediaReport = reportGroup('media', { metrics: MEDIA_METRICS, defaultMetrics: ['page_views', 'visitors', 'read_through_share'], defaultSort: BY_PAGE_VIEWS, skipEmpty: true });

/**
 * «Материалы» (materials_summary): a row per material title, expanding into its addresses; and
 * «Авторы» (authors_summary): a row per author, expanding into the author's materials. Pages
 * without a material (no article) are not rows. The other media pages (top, material, author)
 * are not built yet.
 */
export const MEDIA_REPORTS: readonly ReportDefinition[] = [
  mediaReport({ name: 'materials_summary', title: 'Материалы', header: 'Название материала, URL', drilldown: ['media_title', 'url_no_args'] }),
  mediaReport({ name: 'authors_summary', title: 'Авторы', header: 'Автор', drilldown: ['author_name', 'media_title'] }),
];
