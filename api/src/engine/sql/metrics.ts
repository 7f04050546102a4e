import type { Metric } from '@stat/schemas';
import type { Plan } from '../plan-types.js';
import { canAnswer, type METRIC_SOURCES } from '../metric-sources.js';
import { ReportQueryError, Params } from './params.js';

/** The SQL of each metric over each source, scaled back from a sample, as result columns. */

/**
 * The merge of the rollups' distinct-count states (visitors; visits of pages), as migrations
 * 0018 (path rollups) and 0019 (time rollups) store them: `uniqCombined(17)` of the visitor hash,
 * whose states stay exact lists for small sets and merge as a fixed 2^17-cell HyperLogLog above
 * that (benchmarks/RESULTS.md, 2026-11-24, third and fourth runs).
 */
export const DISTINCT_MERGE = 'uniqCombinedMerge(17)';
/** The same count over raw rows (events, visits): the same estimate of the same hashes as the rollups give. */
export const DISTINCT = 'uniqCombined(17)';

/**
 * Scales a count read from a sample back to the whole: times 1 / sample, a half rounded up. The
 * one rule of every sampled count, in SQL here and in TypeScript as {@link scaledCount} (the
 * conversions and funnels scale what they read): the same count gives the same figure in both
 * at any sample (ClickHouse's round() would round a half to even where Math.round goes up).
 */
function scaled(sql: string, plan: Plan, p: Params): string {
  return plan.sample < 1 ? `floor(${sql} * ${p.add(1 / plan.sample, 'Float64')} + 0.5)` : sql;
}

/** A count read from a sample, scaled back to the whole as {@link scaled} scales it in SQL. */
export function scaledCount(count: number, sample: number): number {
  return sample < 1 ? Math.floor(count * (1 / sample) + 0.5) : count;
}

const ratio = (num: string, den: string, factor: number, digits: number): string =>
  `round(if(${den} = 0, 0, ${factor === 1 ? '' : `${factor} * `}${num} / ${den}), ${digits})`;

/** The counter's end-of-article event (the autogoal «Дочитывание статьи»), once a page view: a read-through. */
const READ_THROUGHS = "countIf(event_type = 'event' AND event_class = 'base' AND event_name = 'scroll')";

/**
 * A metric read from a rollup of whole visits (the day and hour rollup, or the paths rollup at the
 * visit scope): sums and merged states of its columns; `own` holds the metrics only that rollup has.
 */
function visitRollupSql(m: Metric, own: Partial<Record<Metric, string>>): string | undefined {
  const visits = 'sum(visit_starts)';
  switch (m) {
    case 'page_views':
      return 'sum(page_views)';
    case 'visits':
      return visits;
    case 'visitors':
      return `${DISTINCT_MERGE}(visitors)`;
    case 'bounces':
      return ratio('sum(bounces)', visits, 100, 2);
    case 'avg_view_depth':
      return ratio('sum(page_views)', visits, 1, 2);
    case 'avg_sessions_duration':
      return ratio('sum(duration_ms)', visits, 0.001, 1);
    default:
      return own[m];
  }
}

/** The SQL of each metric over each source, or undefined where that source cannot answer it ({@link METRIC_SOURCES}). */
function metricSql(m: Metric, plan: Plan, p: Params): string | undefined {
  if (!canAnswer(m, plan)) return undefined;
  const s = (sql: string): string => scaled(sql, plan, p);
  if (plan.source === 'rollup') return visitRollupSql(m, { events_count: 'sum(custom_events)' });
  if (plan.source === 'paths') {
    const pageViews = 'sum(page_views)';
    if (plan.scope === 'hit') {
      switch (m) {
        case 'page_views':
          return pageViews;
        case 'visits':
          return `${DISTINCT_MERGE}(sessions)`;
        case 'visitors':
          return `${DISTINCT_MERGE}(visitors)`;
        case 'avg_view_duration':
          return ratio('sum(engaged_ms)', pageViews, 0.001, 1);
        case 'uid':
          return 'uniqIfMerge(uid)';
        default:
          return undefined;
      }
    }
    return visitRollupSql(m, { uid: 'uniqIfMerge(uid)' });
  }
  if (plan.source === 'visits') {
    switch (m) {
      case 'visits':
        return s('count()');
      case 'visitors':
        return s(`${DISTINCT}(visitor_hash)`);
      case 'page_views':
        return s('sum(page_views)');
      case 'bounces':
        return ratio('countIf(bounced > 0)', 'count()', 100, 2);
      case 'avg_view_depth':
        return ratio('sum(page_views)', 'count()', 1, 2);
      case 'avg_sessions_duration':
        return ratio('sum(duration_ms)', 'count()', 0.001, 1);
      default:
        return undefined;
    }
  }
  const pageViews = "countIf(event_type = 'pageview')";
  const visitStarts = 'countIf(event_number = 1)';
  const views = "countIf(event_type = 'show')";
  const clicks = "countIf(event_type = 'click')";
  const visitScope = plan.scope === 'visit';
  switch (m) {
    case 'page_views':
      return s(pageViews);
    case 'visits':
      return s(visitScope ? visitStarts : `${DISTINCT}(session_id)`);
    case 'visitors':
      // The key's 32-bit hash of the visitor id, stored: counted 2.5 times faster than the id's
      // text (benchmarks/RESULTS.md, 2026-11-24), with collisions far under the sketch's own error.
      return s(`${DISTINCT}(visitor_hash)`);
    case 'bounces':
      return visitScope ? ratio('sum(bounce_delta)', visitStarts, 100, 2) : undefined;
    case 'avg_view_depth':
      return visitScope ? ratio(pageViews, visitStarts, 1, 2) : undefined;
    case 'avg_sessions_duration':
      return visitScope ? ratio('sum(duration_delta)', visitStarts, 0.001, 1) : undefined;
    case 'avg_view_duration':
      return ratio("sumIf(engaged_ms, event_type = 'engagement')", pageViews, 0.001, 1);
    case 'events_count':
      return s("countIf(event_type = 'event')");
    case 'uid':
      return s("uniqIf(user_id, user_id != '')");
    case 'usability_views':
      return s(views);
    case 'usability_clicks':
      return s(clicks);
    case 'usability_ctr':
      return ratio(clicks, views, 100, 2);
    case 'read_throughs':
      return s(READ_THROUGHS);
    case 'read_through_share':
      return ratio(READ_THROUGHS, pageViews, 100, 2);
    case 'popularity':
    case 'position':
      // A site's place among other sites: the rating report's own (api/src/projects/rating-report.ts).
      return undefined;
  }
}

/** The result column of the i-th metric (named apart from the source's columns). */
export const metricAlias = (i: number): string => `m${i}`;

/** The plan's metrics as result columns (`which`: only those, keeping their columns' names). */
export function selectMetrics(plan: Plan, p: Params, which: (m: Metric) => boolean = () => true): string {
  return plan.metrics
    .flatMap((m, i) => {
      if (!which(m)) return [];
      const sql = metricSql(m, plan, p);
      if (sql === undefined) throw new ReportQueryError(`${m} cannot be computed for these rows`);
      return [`${sql} AS ${metricAlias(i)}`];
    })
    .join(', ');
}
