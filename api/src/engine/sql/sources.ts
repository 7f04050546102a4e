import type { Dimension, DimensionFilterRule, Group } from '@stat/schemas';
import { wholeWeeks, type Days } from '../weeks.js';
import type { Plan } from '../plan-types.js';
import { ReportQueryError, TZ, Params } from './params.js';
import { isHitDimension, isVisitTableDimension, eventColumn, dimensionSql, pathConditions } from './dimensions.js';
import { ruleSql, eventRuleSql } from './filters.js';

/**
 * The rows a query reads from each source (a time rollup, a path rollup, the raw events, the
 * visits): the FROM clause with its sample and the WHERE conditions of the period and filters.
 */

function periodOfEvents(plan: Plan, p: Params): string {
  const period = `project_id = ${p.add(plan.projectId, 'UInt32')} AND event_date BETWEEN ${p.add(plan.dateStart, 'Date')} AND ${p.add(plan.dateEnd, 'Date')}`;
  const from = plan.since === undefined ? '' : ` AND ts >= ${sinceSql(plan.since, p)}`;
  const to = plan.until === undefined ? '' : ` AND ts < ${sinceSql(plan.until, p)}`;
  return `${period}${from}${to}`;
}

/** An instant of a window's start as a DateTime64 of the events' `ts`. */
const sinceSql = (since: number, p: Params): string => `toDateTime64(${p.add(since, 'UInt32')}, 3, 'UTC')`;

/** The visits of the period that have an event matching the rules. */
function visitsWithEvents(plan: Plan, rules: readonly DimensionFilterRule[], p: Params): string {
  const conditions = rules.map((r) => eventRuleSql(r, p)).join(' AND ');
  return `session_id IN (SELECT session_id FROM events WHERE ${periodOfEvents(plan, p)} AND ${conditions})`;
}

/**
 * ClickHouse takes no query parameter in SAMPLE, so the share is written as a literal: a number
 * the planner checked to lie in (0, 1), printed by us, never a request's text.
 */
function sampleClause(plan: Plan): string {
  return sampleSql(plan.sample);
}

/** The SAMPLE clause of a share of visitors (empty at 1), for any query on a table sampled by visitor_hash. */
export function sampleSql(share: number): string {
  if (share >= 1) return '';
  if (!(share > 0)) throw new ReportQueryError('sample must lie in (0, 1]');
  return ` SAMPLE ${share.toFixed(6)}`;
}

/** The rows a query reads: the FROM clause with its sample and the WHERE conditions. */
export interface Rows {
  from: string;
  /** the table `from` reads, without its sample clause or subquery (see Sql.table) */
  table: string;
  where: string[];
}

export const whereSql = (rows: Rows): string => (rows.where.length > 0 ? rows.where.join(' AND ') : '1');

/** The per-visit rows of the period: one a visit, merged from the visits table's parts. */
function visitRows(plan: Plan, p: Params, eventRules: readonly DimensionFilterRule[]): string {
  const where = [`project_id = ${p.add(plan.projectId, 'UInt32')}`, `start_date BETWEEN ${p.add(plan.dateStart, 'Date')} AND ${p.add(plan.dateEnd, 'Date')}`];
  // A visit's start is the least of its parts' starts: a window would cut parts, not visits.
  if (plan.since !== undefined || plan.until !== undefined) throw new ReportQueryError('a window of minutes is read from the events, not the visits');
  if (eventRules.length > 0) where.push(visitsWithEvents(plan, eventRules, p));
  return `(SELECT session_id, visitor_hash, min(start_ts) AS visit_start, any(start_date) AS visit_date,
                 sum(page_views) AS page_views, sum(bounce) AS bounced,
                 sum(duration_ms) AS duration_ms,
                 argMinMerge(entry_url) AS entry_url, argMaxMerge(exit_url) AS exit_url
          FROM visits${sampleClause(plan)} WHERE ${where.join(' AND ')}
          GROUP BY visitor_hash, session_id)`;
}

/** The rollup table of a grouping: the coarsest whose buckets are fine enough. */
export function rollupTable(group: Group): string | undefined {
  switch (group) {
    case 'minute':
      return undefined;
    case 'five_minute':
      return 'rollup_5m';
    case 'hour':
      return 'rollup_hour';
    default:
      return 'rollup_day';
  }
}

function rollupRows(plan: Plan, group: Group, p: Params): Rows {
  if (plan.since !== undefined || plan.until !== undefined) throw new ReportQueryError('a window of minutes is read from the events, not a rollup');
  const table = rollupTable(group);
  if (table === undefined) throw new ReportQueryError(`no rollup answers ${group}`);
  const project = `project_id = ${p.add(plan.projectId, 'UInt32')}`;
  const from = p.add(plan.dateStart, 'Date');
  const to = p.add(plan.dateEnd, 'Date');
  if (table === 'rollup_day') return { from: table, table, where: [project, `event_date BETWEEN ${from} AND ${to}`] };
  return { from: table, table, where: [project, `bucket >= toDateTime(${from}, ${TZ})`, `bucket < toDateTime(${to}, ${TZ}) + INTERVAL 1 DAY`] };
}

/**
 * A path rollup's rows of the period: every filter is on its dimensions (the planner made sure).
 * Without time buckets (`byWeek`: a table, its totals, a CSV) the period's whole weeks are read
 * from the week twin and only the days around them from the day rollup: the same states merged,
 * a fifth as many of them over a month (migration 0020). The conditions go into each part, so
 * that a filter drops rows before their states are read.
 */
function pathRollupRows(plan: Plan, p: Params, byWeek: boolean): Rows {
  const rollup = plan.pathRollup;
  if (plan.since !== undefined || plan.until !== undefined) throw new ReportQueryError('a window of minutes is read from the events, not a rollup');
  if (rollup === undefined) throw new ReportQueryError('no path rollup was planned');
  const project = `project_id = ${p.add(plan.projectId, 'UInt32')}`;
  const conditions = [...pathConditions(plan, p), ...plan.filters.map((r) => ruleSql(r.key as Dimension, eventColumn(r.key as Dimension), r, p))];
  const between = (days: Days): string => `event_date BETWEEN ${p.add(days.first, 'Date')} AND ${p.add(days.last, 'Date')}`;
  const split = byWeek ? wholeWeeks(plan.dateStart, plan.dateEnd) : undefined;
  if (split === undefined) return { from: rollup.table, table: rollup.table, where: [project, between({ first: plan.dateStart, last: plan.dateEnd }), ...conditions] };
  const part = (table: string, period: string): string => `SELECT * FROM ${table} WHERE ${[project, period, ...conditions].join(' AND ')}`;
  const parts = [part(rollup.weekTable, between(split.weeks))];
  if (split.days.length > 0) parts.push(part(rollup.table, `(${split.days.map(between).join(' OR ')})`));
  return { from: `(${parts.join(' UNION ALL ')})`, table: rollup.weekTable, where: [] };
}

/** The path's conditions above the rows' level, the filters, and the report's fixed rules. */
export function rowsOf(plan: Plan, group: Group, p: Params, byWeek = false): Rows {
  if (plan.source === 'rollup') return rollupRows(plan, group, p);
  if (plan.source === 'paths') return pathRollupRows(plan, p, byWeek);
  const visitTableRules = plan.filters.filter((r) => isVisitTableDimension(r.key as Dimension));
  const eventRules = plan.filters.filter((r) => !isVisitTableDimension(r.key as Dimension));
  if (plan.source === 'visits') {
    return {
      from: visitRows(plan, p, eventRules),
      table: 'visits',
      where: [...pathConditions(plan, p), ...visitTableRules.map((r) => ruleSql(r.key as Dimension, dimensionSql(r.key as Dimension, 'visits'), r, p))],
    };
  }
  // In a report of visits, a rule on pages keeps the visits that have such a page, whole.
  const direct = plan.scope === 'hit' ? eventRules : eventRules.filter((r) => !isHitDimension(r.key as Dimension));
  const byVisit = plan.scope === 'hit' ? [] : eventRules.filter((r) => isHitDimension(r.key as Dimension));
  const where = [periodOfEvents(plan, p), ...pathConditions(plan, p), ...direct.map((r) => eventRuleSql(r, p))];
  if (byVisit.length > 0) where.push(visitsWithEvents(plan, byVisit, p));
  if (visitTableRules.length > 0) where.push(visitsMeeting(plan, visitTableRules, p));
  return { from: `events${sampleClause(plan)}`, table: 'events', where };
}

/**
 * The events of a project's period, of a share of its visitors, that a report of visits keeps
 * under `filters` ({@link rowsOf}: a rule on what a visit has one value of — its source, place,
 * device — keeps the events meeting it; a rule on pages or events keeps the visits having such a
 * hit, whole; a rule on a visit's depth, time or entry and exit pages the visits meeting it). For
 * counts made outside a report definition (the conversions' sides) that filter as the reports do.
 */
export function visitEventRows(q: { projectId: number; dateStart: string; dateEnd: string; sample: number }, filters: readonly DimensionFilterRule[], p: Params): Rows {
  const plan: Plan = { ...q, source: 'events', scope: 'visit', metrics: [], path: [], parents: [], filters, metricFilters: [], skipEmpty: false };
  return rowsOf(plan, 'day', p);
}

/**
 * The visits of the period whose own figures (depth, time on site, entry or exit page) meet the
 * rules: such a rule keeps a report of events to those visits' events. A visit is judged whole,
 * over the period, also when a window of minutes reads only its latest events.
 */
function visitsMeeting(plan: Plan, rules: readonly DimensionFilterRule[], p: Params): string {
  const period: Plan = { ...plan };
  delete period.since;
  delete period.until;
  const conditions = rules.map((r) => ruleSql(r.key as Dimension, dimensionSql(r.key as Dimension, 'visits'), r, p));
  return `session_id IN (SELECT session_id FROM ${visitRows(period, p, [])} WHERE ${conditions.join(' AND ')})`;
}

/** The day rollup's rows of the period, for the site's totals ({@link totalsOfSite}). */
export function siteDays(plan: Plan, p: Params): Rows {
  const where = [`project_id = ${p.add(plan.projectId, 'UInt32')}`, `event_date BETWEEN ${p.add(plan.dateStart, 'Date')} AND ${p.add(plan.dateEnd, 'Date')}`];
  return { from: 'rollup_day', table: 'rollup_day', where };
}
