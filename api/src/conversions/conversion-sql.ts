import { DIMENSIONS, type AttributionModel, type ConversionMetric, type ConversionTableDimension, type ConversionWidgetDimension, type DimensionFilterRule, type GoalBody } from '@stat/schemas';
import { Params, ReportQueryError, sampleSql, visitEventRows, whereSql, type Sql } from '../engine/index.js';
import { goalCondition } from '../goals/goal-sql.js';

/** What a conversion query reads: a project's Moscow days [dateStart, dateEnd], of a share of its visitors. */
export interface ConversionPeriod {
  projectId: number;
  dateStart: string;
  dateEnd: string;
  /**
   * The share of visitors read, (0, 1]. Every subquery samples the same visitors (by visitor_hash),
   * so a converted unit still meets its visitor's earlier visits; counts come back unscaled.
   */
  sample: number;
}

/** The events of the period's sample: the FROM of every conversion query. */
const events = (q: ConversionPeriod): string => `events${sampleSql(q.sample)}`;

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
 * or, without a goal (an empty denominator, §3), all the period's visits; of the visits that the
 * report filters keep, as a report of visits keeps them (spec 002 §7 "body filters";
 * {@link visitEventRows}). Rows: one per day with `day` and `value`, and one with `day` = ''
 * holding the period's total (distinct counts do not add up over days).
 */
export function compileConversionSide(q: ConversionPeriod, metric: ConversionMetric, goal: GoalBody | null, filters: readonly DimensionFilterRule[] = []): Sql {
  const p = new Params();
  const rows = visitEventRows(q, filters, p);
  const where = whereSql(rows);
  const count = goal === null ? COUNT.visits : COUNT[metric];
  const condition = goal === null ? '1' : goalCondition(goal, p);
  const query = `SELECT toString(event_date) AS day, toString(${count}) AS value FROM ${rows.from} WHERE ${where} AND ${condition} GROUP BY event_date
    UNION ALL
    SELECT '' AS day, toString(${count}) AS value FROM ${rows.from} WHERE ${where} AND ${condition}`;
  return { query, params: p.values, table: 'events' };
}

/** A dimension the conversion is broken down by: the table's or a widget's tab. */
export type ConversionDimension = ConversionTableDimension | ConversionWidgetDimension;

/** A dimension's value on an event, as text (a column of the allow-list); '' for one the service does not collect. */
function valueSql(d: ConversionDimension): string {
  const storage = DIMENSIONS[d];
  if (storage.table === null) return "''";
  if (storage.table !== 'events') throw new ReportQueryError(`${d} cannot be read from events`);
  return `toString(${storage.column})`;
}

/** The values of the dimensions on an event, as one Array(String). */
const valuesSql = (dimensions: readonly ConversionDimension[]): string => `[${dimensions.map(valueSql).join(', ')}]`;

/**
 * The values credited among a unit's visits in the window, by model (s: the visits; s.tt their
 * traffic type, which the models read; s.vals the values of the asked dimensions on each).
 */
const CREDIT: Record<AttributionModel, string> = {
  last_click: 'argMax(s.vals, s.start)',
  first_click: 'argMin(s.vals, s.start)',
  // The last visit that did not come directly; the last one (a direct one) when every visit did.
  last_valuable: "if(countIf(s.tt != 'direct') > 0, argMaxIf(s.vals, s.start, s.tt != 'direct'), argMax(s.vals, s.start))",
  // The last visit from an ad system; without one, the last click.
  sberads: "if(countIf(s.tt = 'ad') > 0, argMaxIf(s.vals, s.start, s.tt = 'ad'), argMax(s.vals, s.start))",
};

/** What a breakdown of a conversion reads beside the period: its metric, goals, attribution and dimensions. */
export interface ConversionBreakdown {
  metric: ConversionMetric;
  numerator: GoalBody;
  /** null: all visits */
  denominator: GoalBody | null;
  model: AttributionModel;
  windowDays: number;
  dimensions: readonly ConversionDimension[];
  /** a row per Moscow day (`day`) as well as per values */
  byDay?: boolean;
}

/**
 * One row per converted unit (`unit_day`: the Moscow day it first reached the goal; `v`: the values
 * credited to it): the unit's visitor's visits that started within `windowDays` days before it
 * reached the goal (its own visit included), the credited one chosen by the model.
 */
function creditedUnitsSql(q: ConversionPeriod, b: Pick<ConversionBreakdown, 'metric' | 'numerator' | 'model' | 'windowDays' | 'dimensions'>, p: Params): string {
  const project = p.add(q.projectId, 'UInt32');
  const from = p.add(q.dateStart, 'Date');
  const to = p.add(q.dateEnd, 'Date');
  const days = p.add(b.windowDays, 'UInt16');
  const condition = goalCondition(b.numerator, p);
  const unit = UNIT[b.metric];
  return `SELECT c.day AS unit_day, ${CREDIT[b.model]} AS v
      FROM (SELECT visitor_hash, ${unit} AS unit, min(ts) AS at, min(event_date) AS day FROM ${events(q)}
            WHERE project_id = ${project} AND event_date BETWEEN ${from} AND ${to} AND ${condition}
            GROUP BY visitor_hash, unit) AS c
      INNER JOIN (SELECT visitor_hash, session_id, min(ts) AS start, argMin(traffic_type, ts) AS tt, argMin(${valuesSql(b.dimensions)}, ts) AS vals FROM ${events(q)}
                  WHERE project_id = ${project} AND event_date BETWEEN ${from} - ${days} AND ${to}
                  GROUP BY visitor_hash, session_id) AS s ON c.visitor_hash = s.visitor_hash
      WHERE s.start <= c.at AND s.start >= c.at - toIntervalDay(${days})
      GROUP BY c.visitor_hash, c.unit, c.day`;
}

/** The denominator by the values of each unit's own visit (all the period's visits without a goal): rows `day`, `v`, `denominator`. */
function denominatorSql(q: ConversionPeriod, b: Pick<ConversionBreakdown, 'metric' | 'denominator' | 'dimensions'>, p: Params, byDay: boolean): string {
  const where = periodWhere(q, p);
  const count = b.denominator === null ? COUNT.visits : COUNT[b.metric];
  const condition = b.denominator === null ? '1' : goalCondition(b.denominator, p);
  return `SELECT ${byDay ? 'event_date' : "toDate('1970-01-01')"} AS day, ${valuesSql(b.dimensions)} AS v, ${count} AS denominator
    FROM ${events(q)} WHERE ${where} AND ${condition} GROUP BY day, v`;
}

/** The dimensions' values of a row as named columns (names from the allow-list, never a request's text). */
const namedValues = (dimensions: readonly ConversionDimension[]): string => dimensions.map((d, i) => `v[${i + 1}] AS ${d}`).join(', ');

/**
 * The conversion's units that reached the goal in the period, each credited to the values of
 * `dimensions` (the traffic type by default) by the model, computed in ClickHouse. Rows: a
 * column per dimension, `numerator`.
 */
export function compileAttributed(q: ConversionPeriod, metric: ConversionMetric, goal: GoalBody, model: AttributionModel, windowDays: number, dimensions: readonly ConversionDimension[] = ['traffic_type']): Sql {
  const p = new Params();
  const units = creditedUnitsSql(q, { metric, numerator: goal, model, windowDays, dimensions }, p);
  return { query: `SELECT ${namedValues(dimensions)}, toString(count()) AS numerator FROM (${units}) GROUP BY v`, params: p.values, table: 'events' };
}

/**
 * The denominator by `dimensions` (the traffic type by default), without attribution: the metric
 * over the events that reach the goal (all the period's visits without one), by their visit's own values.
 */
export function compileDenominatorBySource(q: ConversionPeriod, metric: ConversionMetric, goal: GoalBody | null, dimensions: readonly ConversionDimension[] = ['traffic_type']): Sql {
  const p = new Params();
  const rows = denominatorSql(q, { metric, denominator: goal, dimensions }, p, false);
  return { query: `SELECT ${namedValues(dimensions)}, denominator FROM (${rows})`, params: p.values, table: 'events' };
}

/** Both sides by the values (and the day), joined: numerator credited by the model, denominator by each unit's own visit. */
function joinedSql(q: ConversionPeriod, b: ConversionBreakdown, p: Params): string {
  const byDay = b.byDay === true;
  const units = creditedUnitsSql(q, b, p);
  const numerator = `SELECT ${byDay ? 'unit_day' : "toDate('1970-01-01')"} AS day, v, count() AS numerator FROM (${units}) GROUP BY day, v`;
  return `SELECT day, v, numerator, denominator, if(denominator > 0, 100 * numerator / denominator, NULL) AS conversion
    FROM (${numerator}) AS n FULL OUTER JOIN (${denominatorSql(q, b, p, byDay)}) AS d USING (day, v)`;
}

/**
 * A widget's figures: both sides and the conversion by the values of its dimension, in the
 * period (and by day with `byDay`). Rows: `date` (1970-01-01 without `byDay`), `value`, `numerator`, `denominator`.
 */
export function compileConversionBreakdown(q: ConversionPeriod, b: ConversionBreakdown): Sql {
  const p = new Params();
  const query = `SELECT toString(day) AS date, v[1] AS value, numerator, denominator FROM (${joinedSql(q, b, p)})`;
  return { query, params: p.values, table: 'events' };
}

/** What orders the table: one of its dimensions or its metrics. */
export interface ConversionTableQuery {
  sortBy: ConversionDimension | 'numerator' | 'denominator' | 'conversion';
  order: 'asc' | 'desc';
  /** rows of the page; undefined: every row (the CSV), without the row count */
  limit?: number;
  offset: number;
}

/**
 * One page of the conversion table: a row per combination of the dimensions' values, with both
 * sides and the conversion, sorted, paged and counted (`total_rows`) in ClickHouse. Ties go by
 * the values, so pages never overlap.
 */
export function compileConversionTable(q: ConversionPeriod, b: ConversionBreakdown, t: ConversionTableQuery): Sql {
  const p = new Params();
  const direction = t.order === 'asc' ? 'ASC' : 'DESC';
  const byValues = b.dimensions.map((d) => `${d} ASC`).join(', ');
  const order = (b.dimensions as readonly string[]).includes(t.sortBy) ? `${t.sortBy} ${direction}, ${byValues}` : `${t.sortBy} ${direction} NULLS LAST, ${byValues}`;
  const paged = t.limit !== undefined;
  const query = `SELECT ${namedValues(b.dimensions)}, numerator, denominator, conversion${paged ? ', count() OVER () AS total_rows' : ''}
    FROM (${joinedSql(q, { ...b, byDay: false }, p)})
    ORDER BY ${order}${paged ? `
    LIMIT ${p.add(t.limit, 'UInt32')} OFFSET ${p.add(t.offset, 'UInt32')}` : ''}`;
  return { query, params: p.values, table: 'events' };
}
