/**
 * The metric and grouping catalogues shared by the api and the web app. Names are the wire
 * names of the specification; each service maps them to its own work (SQL, titles).
 */
export const METRICS = ['page_views', 'visits', 'visitors'] as const;
export type Metric = (typeof METRICS)[number];

/** Time buckets of a report graph, finest first. */
export const GROUPS = ['five_minute', 'hour', 'day', 'week', 'month'] as const;
export type Group = (typeof GROUPS)[number];

/** Reports the api answers so far. */
export const REPORTS = ['summary'] as const;
export type ReportName = (typeof REPORTS)[number];
