import type { AttributionModel, ConversionMetric, GoalBody } from '@stat/schemas';
import { Params, type Sql } from '../reports/compile.js';
import { goalCondition } from '../goals/goal-sql.js';

/** What a conversion query reads: a project's Moscow days [dateStart, dateEnd]. */
export interface ConversionPeriod {
  projectId: number;
  dateStart: string;
  dateEnd: string;
}

/** What one unit of a metric is: a visit, a visitor, an event. */
const UNIT: Record<ConversionMetric, string> = {
  visits: 'session_id',
  visitors: 'visitor_hash',
  events_count: 'event_key',
};

/** The metric over the rows: distinct visits or visitors, or events. */
const COUNT: Record<ConversionMetric, string> = {
  visits: 'uniqExact(session_id)',
  visitors: 'uniqExact(visitor_hash)',
  events_count: 'count()',
};

function periodWhere(q: ConversionPeriod, p: Params): string {
  return `project_id = ${p.add(q.projectId, 'UInt32')} AND event_date BETWEEN ${p.add(q.dateStart, 'Date')} AND ${p.add(q.dateEnd, 'Date')}`;
}

/**
 * A side of a conversion per day and in total: the metric over the events that reach the goal,
 * or, without a goal (an empty denominator, §3), all the period's visits. Rows: one per day with
 * `day` and `value`, and one with `day` = '' holding the period's total (distinct counts do not
 * add up over days).
 */
export function compileConversionSide(q: ConversionPeriod, metric: ConversionMetric, goal: GoalBody | null): Sql {
  const p = new Params();
  const where = periodWhere(q, p);
  const count = goal === null ? COUNT.visits : COUNT[metric];
  const condition = goal === null ? '1' : goalCondition(goal, p);
  const query = `SELECT toString(event_date) AS day, toString(${count}) AS value FROM events WHERE ${where} AND ${condition} GROUP BY event_date
    UNION ALL
    SELECT '' AS day, toString(${count}) AS value FROM events WHERE ${where} AND ${condition}`;
  return { query, params: p.values, table: 'events' };
}

/** The source credited among a unit's visits in the window, by model (s: the visits, tt their traffic type). */
const CREDIT: Record<AttributionModel, string> = {
  last_click: 'argMax(s.tt, s.start)',
  first_click: 'argMin(s.tt, s.start)',
  // The last visit that did not come directly; direct only when every visit did.
  last_valuable: "if(countIf(s.tt != 'direct') > 0, argMaxIf(s.tt, s.start, s.tt != 'direct'), 'direct')",
  // The last visit from an ad system; without one, the last click.
  sberads: "if(countIf(s.tt = 'ad') > 0, argMaxIf(s.tt, s.start, s.tt = 'ad'), argMax(s.tt, s.start))",
};

/**
 * The conversion's units that reached the goal in the period, each credited to a traffic type by
 * the model: among the visits of its visitor that started within `windowDays` days before it
 * reached the goal (its own visit included), computed in ClickHouse. Rows: `traffic_type`, `numerator`.
 */
export function compileAttributed(q: ConversionPeriod, metric: ConversionMetric, goal: GoalBody, model: AttributionModel, windowDays: number): Sql {
  const p = new Params();
  const project = p.add(q.projectId, 'UInt32');
  const from = p.add(q.dateStart, 'Date');
  const to = p.add(q.dateEnd, 'Date');
  const days = p.add(windowDays, 'UInt16');
  const condition = goalCondition(goal, p);
  const unit = UNIT[metric];
  const query = `SELECT source AS traffic_type, toString(count()) AS numerator FROM (
      SELECT ${CREDIT[model]} AS source
      FROM (SELECT visitor_hash, ${unit} AS unit, min(ts) AS at FROM events
            WHERE project_id = ${project} AND event_date BETWEEN ${from} AND ${to} AND ${condition}
            GROUP BY visitor_hash, unit) AS c
      INNER JOIN (SELECT visitor_hash, session_id, min(ts) AS start, argMin(traffic_type, ts) AS tt FROM events
                  WHERE project_id = ${project} AND event_date BETWEEN ${from} - ${days} AND ${to}
                  GROUP BY visitor_hash, session_id) AS s ON c.visitor_hash = s.visitor_hash
      WHERE s.start <= c.at AND s.start >= c.at - toIntervalDay(${days})
      GROUP BY c.visitor_hash, c.unit)
    GROUP BY traffic_type`;
  return { query, params: p.values, table: 'events' };
}

/**
 * The denominator by traffic type, without attribution: the metric over the events that reach the
 * goal (all the period's visits without one), by their visit's own traffic type.
 */
export function compileDenominatorBySource(q: ConversionPeriod, metric: ConversionMetric, goal: GoalBody | null): Sql {
  const p = new Params();
  const where = periodWhere(q, p);
  const count = goal === null ? COUNT.visits : COUNT[metric];
  const condition = goal === null ? '1' : goalCondition(goal, p);
  const query = `SELECT traffic_type, toString(${count}) AS denominator FROM events WHERE ${where} AND ${condition} GROUP BY traffic_type`;
  return { query, params: p.values, table: 'events' };
}
