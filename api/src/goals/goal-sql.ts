import { GOAL_CONDITION_KEYS, type GoalBody } from '@stat/schemas';
import { eventConditionsSql, Params, ReportQueryError, type Sql } from '../reports/compile.js';

/**
 * A goal as a condition on the rows of `events`: an event reaches the goal when it meets every
 * condition. Compiled by the report engine's own filter compiler (values as typed parameters,
 * columns from the catalogue), so a goal counts over all stored events, the past included.
 */
export function goalCondition(body: GoalBody, p: Params): string {
  for (const rule of body.dimension_filters) {
    if (!GOAL_CONDITION_KEYS.includes(rule.key)) throw new ReportQueryError(`${rule.key} cannot be a goal's condition`);
  }
  return eventConditionsSql(body.dimension_filters, p);
}

/** What a goal counted in a period: its events (reaches), the visits and visitors that reached it. */
export interface GoalCounts {
  reaches: number;
  visits: number;
  visitors: number;
}

/** The query of a goal's counts in a project over Moscow days [dateStart, dateEnd] (YYYY-MM-DD). */
export function compileGoalCounts(projectId: number, body: GoalBody, dateStart: string, dateEnd: string): Sql {
  const p = new Params();
  const period = `project_id = ${p.add(projectId, 'UInt32')} AND event_date BETWEEN ${p.add(dateStart, 'Date')} AND ${p.add(dateEnd, 'Date')}`;
  const query = `SELECT toString(count()) AS reaches, toString(uniqExact(session_id)) AS visits, toString(uniqExact(visitor_hash)) AS visitors
    FROM events WHERE ${period} AND ${goalCondition(body, p)}`;
  return { query, params: p.values, table: 'events' };
}
