/**
 * Every report the app knows, as data (ARCHITECTURE: "a report is data, the engine is code").
 * A definition names the report, its title and metrics, and the view that renders it; views are
 * loaded on demand, so the initial bundle carries none of them.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** Props every report view gets. */
export interface ReportViewProps {
  readonly projectId: string;
  readonly report: ReportDefinition;
}

/** A metric of a report, with what the user sees. */
export interface ReportMetric {
  /** Wire name (spec 001 §3 "Metrics"). */
  readonly name: string;
  /** Column and legend title. */
  readonly title: string;
}

/** A report that can be opened at `new/report/{name}`. */
export interface ReportDefinition {
  /** The `reportName` of the route and the api. */
  readonly name: string;
  /** Page title (spec 001 §2: summary is «Посещаемость»). */
  readonly title: string;
  /** A short help text under the title. */
  readonly hint?: string;
  /** Metrics requested and shown, in order. */
  readonly metrics: readonly ReportMetric[];
  /** Table rows per page (spec 001 §9: summary report rows 90). */
  readonly pageSize: number;
  /** The view that renders it. */
  readonly view: LazyExoticComponent<ComponentType<ReportViewProps>>;
}

const TimeSeriesReport = lazy(() => import('./timeseries/TimeSeriesReport'));

/** The reports that are built, by name. */
export const REPORTS: Readonly<Record<string, ReportDefinition>> = {
  summary: {
    name: 'summary',
    title: 'Посещаемость',
    hint: 'Просмотры страниц, визиты и уникальные посетители сайта за выбранный период.',
    metrics: [
      { name: 'page_views', title: 'Просмотры' },
      { name: 'visits', title: 'Визиты' },
      { name: 'visitors', title: 'Посетители' },
    ],
    pageSize: 90,
    view: TimeSeriesReport,
  },
};

/**
 * Base report names of the spec (001 §2) that are not built yet: their route shows a «coming»
 * placeholder; any other name is a 404.
 */
export const PLANNED_REPORTS: ReadonlySet<string> = new Set([
  'view_depth', 'visit_time', 'geo', 'sex', 'age', 'segments', 'device', 'browser', 'os', 'screensize',
  'page_formats', 'traffic_sources', 'ad_systems', 'utms', 'openstat', 'sites', 'search_system_phrase',
  'search_phrase_system', 'aggrnews_system', 'exchange_system', 'recom_system', 'social_network',
  'message_system', 'qr_system', 'page_urls', 'entrance_pages', 'exit_pages', 'page_titles', 'page_args',
  'custom_vars', 'usability', 'likes', 'rating', 'constructor',
]);

/** Media report names of the spec (001 §2), all still to be built. */
export const PLANNED_MEDIA_REPORTS: ReadonlySet<string> = new Set([
  'top', 'materials_summary', 'authors_summary', 'material', 'author',
]);
