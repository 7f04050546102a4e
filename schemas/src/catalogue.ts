/**
 * The metric and grouping catalogues shared by the api and the web app. Names are the wire
 * names of the specification; each service maps them to its own work (SQL, titles).
 */
export const METRICS = ['page_views', 'visits', 'visitors', 'bounces', 'avg_view_depth', 'avg_sessions_duration'] as const;
export type Metric = (typeof METRICS)[number];

/**
 * What each metric counts. bounces: the share of visits with a single page view, in percent;
 * avg_view_depth: page views per visit; avg_sessions_duration: seconds per visit.
 */
export const METRIC_UNITS: Record<Metric, 'count' | 'percent' | 'ratio' | 'seconds'> = {
  page_views: 'count',
  visits: 'count',
  visitors: 'count',
  bounces: 'percent',
  avg_view_depth: 'ratio',
  avg_sessions_duration: 'seconds',
};

/** Time buckets of a report graph, finest first. */
export const GROUPS = ['five_minute', 'hour', 'day', 'week', 'month'] as const;
export type Group = (typeof GROUPS)[number];

/** Reports the api answers so far. */
export const REPORTS = ['summary'] as const;
export type ReportName = (typeof REPORTS)[number];
