import { GOAL_CONDITION_KEYS, goalCountedRules, type GoalBody } from '@stat/schemas';
import { eventConditionsSql, Params, ReportQueryError, type Sql } from '../engine/index.js';

/**
 * A goal as a condition on the rows of `events`: an event reaches the goal when it meets every
 * condition (and is a page view when no condition chooses an event: schemas' goalCountedRules).
 * Compiled by the report engine's own filter compiler (values as typed parameters, columns from
 * the catalogue), so a goal counts over all stored events, the past included.
 */
export function goalCondition(body: GoalBody, p: Params): string {
  for (const rule of body.dimension_filters) {
    if (!GOAL_CONDITION_KEYS.includes(rule.key)) throw new ReportQueryError(`${rule.key} cannot be a goal's condition`);
  }
  return eventConditionsSql(goalCountedRules(body), p);
}

/** What a goal counted in a period: its events (reaches), the visits and visitors that reached it. */
export interface GoalCounts {
  reaches: number;
  visits: number;
  visitors: number;
}

/**
 * The one query of several goals' counts in a project over Moscow days [dateStart, dateEnd]
 * (YYYY-MM-DD): a single read of the period's events that meet any of the goals, each goal's
 * figures counted by its own condition. One row; the figures of goal i in `reaches_i`,
 * `visits_i` and `visitors_i` (strings, as UInt64 travels in JSON). Read by {@link goalCountsOf}.
 */
export function compileGoalCounts(projectId: number, bodies: readonly GoalBody[], dateStart: string, dateEnd: string): Sql {
  if (bodies.length === 0) throw new ReportQueryError('no goals to count');
  const p = new Params();
  const period = `project_id = ${p.add(projectId, 'UInt32')} AND event_date BETWEEN ${p.add(dateStart, 'Date')} AND ${p.add(dateEnd, 'Date')}`;
  const conditions = bodies.map((body) => `(${goalCondition(body, p)})`);
  const figures = conditions.map(
    (c, i) => `toString(countIf(${c})) AS reaches_${i}, toString(uniqExactIf(session_id, ${c})) AS visits_${i}, toString(uniqExactIf(visitor_hash, ${c})) AS visitors_${i}`,
  );
  const query = `SELECT ${figures.join(', ')} FROM events WHERE ${period} AND (${conditions.join(' OR ')})`;
  return { query, params: p.values, table: 'events' };
}

/** The counts of each goal, in the order compiled, from the query's one row. */
export function goalCountsOf(row: Record<string, unknown> | undefined, goals: number): GoalCounts[] {
  const n = (name: string): number => Number(row?.[name] ?? 0);
  return Array.from({ length: goals }, (_, i) => ({ reaches: n(`reaches_${i}`), visits: n(`visits_${i}`), visitors: n(`visitors_${i}`) }));
}
