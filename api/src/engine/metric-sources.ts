import type { Metric } from '@stat/schemas';
import type { Plan, Scope, Source } from './plan-types.js';

/** What the time rollups (five minutes, hour, day) hold: sums of visits and hits and the visitors' states. */
const TIME_ROLLUP: readonly Metric[] = ['page_views', 'visits', 'visitors', 'bounces', 'avg_view_depth', 'avg_sessions_duration', 'events_count'];

/** What the visits hold: one row a visit, its depth, time and bounce. */
const VISITS: readonly Metric[] = ['page_views', 'visits', 'visitors', 'bounces', 'avg_view_depth', 'avg_sessions_duration'];

/**
 * Which source answers which metric, by what the rows are: the planner reads a rollup only where
 * it answers every metric asked ({@link canAnswer}), and the SQL of a metric is written only
 * where this table says its source answers it (sql/metrics.ts). A path rollup of visits (sources,
 * places) and one of hits (pages) hold different states; the raw events answer everything but the
 * figures of whole visits in rows of hits (a page's bounces). `popularity` and `position` are no
 * source's: a site's place among others is the rating's own (api/src/projects/rating-report.ts).
 */
export const METRIC_SOURCES: Readonly<Record<Source, Readonly<Record<Scope, readonly Metric[]>>>> = {
  rollup: { visit: TIME_ROLLUP, hit: TIME_ROLLUP },
  paths: {
    visit: ['page_views', 'visits', 'visitors', 'bounces', 'avg_view_depth', 'avg_sessions_duration', 'uid'],
    hit: ['page_views', 'visits', 'visitors', 'avg_view_duration', 'uid'],
  },
  visits: { visit: VISITS, hit: VISITS },
  events: {
    visit: [
      'page_views',
      'visits',
      'visitors',
      'bounces',
      'avg_view_depth',
      'avg_sessions_duration',
      'avg_view_duration',
      'events_count',
      'uid',
      'usability_views',
      'usability_clicks',
      'usability_ctr',
      'read_throughs',
      'read_through_share',
    ],
    hit: ['page_views', 'visits', 'visitors', 'avg_view_duration', 'events_count', 'uid', 'usability_views', 'usability_clicks', 'usability_ctr', 'read_throughs', 'read_through_share'],
  },
};

/** Whether the plan's source can answer the metric ({@link METRIC_SOURCES}). */
export function canAnswer(m: Metric, plan: Omit<Plan, 'metrics'>): boolean {
  return METRIC_SOURCES[plan.source][plan.scope].includes(m);
}
