import type { Metric } from '../catalogue.js';
import type { Dimension } from '../dimensions.js';
import type { DimensionFilterRule } from '../filters.js';

/** The menu group a report belongs to (one file of definitions each). */
export type ReportGroup = 'summary' | 'sources' | 'audience' | 'technology' | 'content' | 'events' | 'media' | 'constructor';

/**
 * A base report as data (ARCHITECTURE: "a report is data, the engine is code"): the api's one
 * engine turns any definition into SQL, and the web app renders any definition with one view.
 */
export interface ReportDefinition {
  /** the `reportName` of the route and the api */
  name: string;
  /** page title */
  title: string;
  group: ReportGroup;
  /**
   * The rows' dimensions as a drill-down path: top-level rows are the values of the first; a row
   * expands into the values of the next under it. Empty: the rows are the period's time buckets.
   */
  drilldown: readonly Dimension[];
  /** every metric the report offers */
  metrics: readonly Metric[];
  /** the metrics shown when the request names none */
  defaultMetrics: readonly Metric[];
  /** the order of the rows when the request names none */
  defaultSort: { name: Metric | 'date'; order: 'asc' | 'desc' };
  /** whether the report may read a sample of visitors (§4 "Sampling"); otherwise it is always exact */
  sampling: boolean;
  /** rows whose value is empty at this level and below are left out (a report of one kind of source) */
  skipEmpty: boolean;
  /** conditions the report always adds to the request's filters */
  where: readonly DimensionFilterRule[];
  /** what an empty report shows (§2 "Empty-state placeholder reports") */
  empty: 'table' | 'placeholder';
  /** whether the report takes filters (§3); the rating's rows are other sites, not the site's traffic */
  filterable: boolean;
  /** the first column's header when it is not the drill-down's titles (the spec's «Название материала, URL») */
  header?: string;
  /** set when the service does not collect what the report needs: the report answers no rows, with this reason */
  notCollected?: string;
}

/** What a definition may leave out, with the defaults every report shares. */
type DefinitionInput = Omit<ReportDefinition, 'sampling' | 'skipEmpty' | 'where' | 'empty' | 'defaultMetrics' | 'filterable'> &
  Partial<Pick<ReportDefinition, 'sampling' | 'skipEmpty' | 'where' | 'empty' | 'defaultMetrics' | 'filterable'>>;

/** A report definition with the shared defaults: samples, keeps empty values, no fixed filter, a table when empty, takes filters. */
export function defineReport(input: DefinitionInput): ReportDefinition {
  return {
    filterable: true,
    sampling: true,
    skipEmpty: false,
    where: [],
    empty: 'table',
    defaultMetrics: input.metrics.slice(0, 3),
    ...input,
  };
}

/** What a group says once for its reports: their metrics and order, and any other field most of them share. */
type GroupDefaults = Pick<DefinitionInput, 'metrics' | 'defaultSort'> & Partial<Omit<DefinitionInput, 'group' | 'name' | 'title' | 'drilldown' | 'metrics' | 'defaultSort'>>;

/** A report of a group: what defineReport takes, less the group and what the group says (which it may say otherwise). */
export type GroupReportInput = Omit<DefinitionInput, 'group' | 'metrics' | 'defaultSort'> & Partial<GroupDefaults>;

/**
 * The definer of one menu group's reports (one file each): a report of it is in `group` and has
 * the group's `defaults` unless it says otherwise; then defineReport's defaults apply.
 */
export function reportGroup(group: ReportGroup, defaults: GroupDefaults): (input: GroupReportInput) => ReportDefinition {
  return (input) => defineReport({ group, ...defaults, ...input });
}

/** The metrics of a report whose rows are visits' sources, places or devices (every event of a visit has the same value). */
export const VISIT_METRICS = [
  'visits',
  'visitors',
  'page_views',
  'bounces',
  'avg_view_depth',
  'avg_sessions_duration',
  'uid',
] as const satisfies readonly Metric[];

/** The metrics of a report whose rows are pages or events (a visit has several values). */
export const HIT_METRICS = ['page_views', 'visits', 'visitors', 'avg_view_duration', 'uid'] as const satisfies readonly Metric[];

/** Descending by visits: the order of every report of visitors (§4 "Default sorts are descending by page_views or visitors"). */
export const BY_VISITS = { name: 'visits', order: 'desc' } as const;
export const BY_PAGE_VIEWS = { name: 'page_views', order: 'desc' } as const;
