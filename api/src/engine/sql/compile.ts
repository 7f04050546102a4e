import { BadRequestException } from '@nestjs/common';
import {
  DIMENSIONS,
  dimensionType,
  FILTER_LIMITS,
  filterValueProblem,
  HIT_DIMENSIONS,
  isFilterNumber,
  LIST_OPERATORS,
  moscowDayStart,
  REPORT_TIME_ZONE,
  type Dimension,
  type DimensionFilterRule,
  type Group,
  type Metric,
  type MetricFilterRule,
} from '@stat/schemas';
import { wholeWeeks, type Days } from '../weeks.js';

/**
 * The report engine's SQL compiler: pure functions from a plan to ClickHouse SQL and its
 * parameters. Identifiers come only from the allow-lists of this file and the catalogue
 * (`DIMENSIONS`); every value of a request travels as a typed query parameter.
 */

/** Where a report's numbers are read: a time rollup, a drill-down path's day rollup, the raw events, or the visits. */
export type Source = 'rollup' | 'paths' | 'events' | 'visits';

/**
 * What the rows of a report are: `visit`, rows whose every event of a visit has the same value
 * (a source, a place, a device), so a visit is counted once where it starts; `hit`, rows of pages
 * or events, where a visit is counted in every row it touched.
 */
export type Scope = 'visit' | 'hit';

/** A day rollup shaped like a drill-down path (migration 0014): its dimensions in key order. */
export interface PathRollup {
  table: string;
  /** its week twin (migration 0020): the same columns, a row a Monday-to-Sunday week */
  weekTable: string;
  dims: readonly Dimension[];
  scope: Scope;
}

/** The drill-down paths kept in day rollups: read when a report's path, filters and metrics fit. */
export const PATH_ROLLUPS: readonly PathRollup[] = [
  { table: 'rollup_sources_day', weekTable: 'rollup_sources_week', dims: ['traffic_type', 'traffic_system', 'search_phrase'], scope: 'visit' },
  { table: 'rollup_geo_day', weekTable: 'rollup_geo_week', dims: ['geo_country', 'geo_area', 'geo_city'], scope: 'visit' },
  { table: 'rollup_pages_day', weekTable: 'rollup_pages_week', dims: ['url_no_args', 'url'], scope: 'hit' },
];

/**
 * The merge of the rollups' distinct-count states (visitors; visits of pages), as migrations
 * 0018 (path rollups) and 0019 (time rollups) store them: `uniqCombined(17)` of the visitor hash,
 * whose states stay exact lists for small sets and merge as a fixed 2^17-cell HyperLogLog above
 * that (benchmarks/RESULTS.md, 2026-11-24, third and fourth runs).
 */
export const DISTINCT_MERGE = 'uniqCombinedMerge(17)';
/** The same count over raw rows (events, visits): the same estimate of the same hashes as the rollups give. */
export const DISTINCT = 'uniqCombined(17)';

/** Everything the compiler needs: decided by the planner from a definition and a request. */
export interface Plan {
  projectId: number;
  /** first and last Moscow day of the period, YYYY-MM-DD */
  dateStart: string;
  dateEnd: string;
  source: Source;
  /** the path rollup read when the source is `paths` */
  pathRollup?: PathRollup;
  /**
   * Rows of the `date` dimension (the constructor's) by week or month, as the request groups them:
   * each row the part of its week or month inside the period, titled by its first day there
   * (§7: buckets never reach outside the period). Days otherwise.
   */
  dateRows?: 'week' | 'month';
  scope: Scope;
  /** share of visitors read, (0, 1]; 1 reads all */
  sample: number;
  metrics: readonly Metric[];
  /** the drill-down dimensions from the top to the rows' level; empty: rows are time buckets */
  path: readonly Dimension[];
  /** the values of the path's dimensions above the rows' level */
  parents: readonly (string | number)[];
  filters: readonly DimensionFilterRule[];
  metricFilters: readonly MetricFilterRule[];
  /** leave out rows whose value is empty */
  skipEmpty: boolean;
  /**
   * epoch seconds: only what happened from this instant on (the live dashboard's last minutes);
   * read from the raw events or the visits, never a rollup (the planner makes sure)
   */
  since?: number;
  /** epoch seconds: only what happened before this instant (with `since`: a window) */
  until?: number;
  /**
   * The project's period holds many events (sampling.ts, `LARGE_PERIOD_EVENTS`): its pages' states
   * are large, and a filtered level of pages is found keys first ({@link findsKeysFirst}).
   */
  largePeriod?: boolean;
}

export interface Sql {
  query: string;
  params: Record<string, unknown>;
  /**
   * The table or rollup the query reads (`events`, `visits`, `rollup_day`, …), from this file's
   * allow-list: the `table` label of stat_report_seconds and of the query's log line.
   */
  table: string;
}

/** A request the compiler refuses (a filter value of the wrong kind): the api answers 400 with its message. */
export class ReportQueryError extends BadRequestException {}

const TZ = `'${REPORT_TIME_ZONE}'`;


/** The lower bounds (seconds) of the «Время на сайте» ranges. */
export const VISIT_TIME_BOUNDS = [0, 15, 30, 60, 180, 600, 1800] as const;

/** Dimensions answered by the visits (one row a visit), with their SQL over the per-visit rows. */
const VISIT_TABLE_SQL: Partial<Record<Dimension, string>> = {
  entry_page: 'entry_url',
  exit_page: 'exit_url',
  view_depth: 'page_views',
  visit_time: `multiIf(${VISIT_TIME_BOUNDS.slice(1)
    .map((bound, i) => `duration_ms < ${bound * 1000}, ${VISIT_TIME_BOUNDS[i]}`)
    .join(', ')}, ${VISIT_TIME_BOUNDS.at(-1)})`,
};

export const isHitDimension = (d: Dimension): boolean => HIT_DIMENSIONS.has(d);
export const isVisitTableDimension = (d: Dimension): boolean => d in VISIT_TABLE_SQL;
/** Dimensions kept as numbers (the catalogue's type): compared as numbers, matched by patterns as text. */
export const isNumericDimension = (d: Dimension): boolean => dimensionType(d) === 'number';

/** Collects the typed parameters of one query under generated names. */
export class Params {
  readonly values: Record<string, unknown> = {};
  private next = 0;

  add(value: unknown, type: string): string {
    const name = `p${this.next++}`;
    this.values[name] = value;
    return `{${name}:${type}}`;
  }
}

/** The events' column (or ALIAS column) of a dimension; never a request's text. */
function eventColumn(d: Dimension): string {
  const storage = DIMENSIONS[d];
  if (storage.table !== 'events') throw new ReportQueryError(`${d} cannot be read from events`);
  return storage.column;
}

/** The SQL of a dimension's value on a row of the source. `keyParam`: the custom parameter key above (custom_vars). */
export function dimensionSql(d: Dimension, source: Source, keyParam?: string): string {
  if (source === 'paths') return eventColumn(d);
  if (source === 'visits') {
    const sql = VISIT_TABLE_SQL[d];
    if (sql === undefined) throw new ReportQueryError(`${d} cannot be read from visits`);
    return sql;
  }
  if (d === 'customer_params_key' || d === 'user_cv_key') return 'arrayJoin(mapKeys(event_params))';
  if (d === 'customer_params_value') return keyParam ? `event_params[${keyParam}]` : 'arrayJoin(mapValues(event_params))';
  return eventColumn(d);
}

/** The value a dimension's column holds for "none": zero, the first instant (an unknown published time), empty text. */
export function emptyValue(d: Dimension): string {
  switch (dimensionType(d)) {
    case 'number':
      return '0';
    case 'date':
      return 'toDate(0)';
    case 'datetime':
      return "toDateTime(0, 'UTC')";
    case 'string':
      return "''";
  }
}

/**
 * A scalar of a filter or a parent as the parameter type of its dimension. Checked here again
 * by the rule's own check (a rule stored before it existed, a path of a request): a value of
 * the wrong type is a 400 that names it, never a query that fails.
 */
export function typedValue(d: Dimension, value: string | number, p: Params): string {
  const problem = filterValueProblem(d, value);
  if (problem !== null) throw new ReportQueryError(problem);
  if (isNumericDimension(d)) return p.add(typeof value === 'number' ? value : Number(value), 'Float64');
  return p.add(String(value), 'String');
}

/**
 * A filter pattern as a LIKE pattern: `*` stands for any characters, every other character is
 * itself (so `%`, `_` and `\` are escaped); a leading `@` makes the match ignore case.
 */
export function likePattern(pattern: string): { like: string; ignoreCase: boolean } {
  const ignoreCase = pattern.startsWith('@');
  const body = ignoreCase ? pattern.slice(1) : pattern;
  return { like: body.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%'), ignoreCase };
}

function likeSql(expr: string, pattern: string | number, p: Params): string {
  const { like, ignoreCase } = likePattern(String(pattern));
  return `${ignoreCase ? 'ilike' : 'like'}(${expr}, ${p.add(like, 'String')})`;
}

const asList = (value: DimensionFilterRule['value']): readonly (string | number)[] => (Array.isArray(value) ? value : [value as string | number]);

/** The condition of one rule on an expression of dimension `d`. */
function ruleSql(d: Dimension, expr: string, rule: DimensionFilterRule, p: Params): string {
  // A pattern matches the text of a number or a date.
  const text = dimensionType(d) === 'string' ? expr : `toString(${expr})`;
  const values = asList(rule.value);
  const isList = (LIST_OPERATORS as readonly string[]).includes(rule.op);
  const first = values[0];
  if (first === undefined) throw new ReportQueryError(`${rule.key}: a filter needs a value`);
  if (!isList && rule.op !== 'range' && Array.isArray(rule.value)) throw new ReportQueryError(`${rule.key}: ${rule.op} takes one value`);
  switch (rule.op) {
    case '=':
    case '!=':
    case '>':
    case '>=':
    case '<':
    case '<=':
      return `${expr} ${rule.op} ${typedValue(d, first, p)}`;
    case 'range': {
      const last = values[1];
      if (values.length !== 2 || last === undefined) throw new ReportQueryError(`${rule.key}: range takes [from, to]`);
      return `${expr} BETWEEN ${typedValue(d, first, p)} AND ${typedValue(d, last, p)}`;
    }
    case 'include':
    case 'exclude': {
      const list = values.map((v) => typedValue(d, v, p));
      return `${expr} ${rule.op === 'include' ? 'IN' : 'NOT IN'} (${list.join(', ')})`;
    }
    case 'like':
      return likeSql(text, first, p);
    case 'nlike':
      return `NOT ${likeSql(text, first, p)}`;
    case 'multilike':
      return `(${values.map((v) => likeSql(text, v, p)).join(' OR ')})`;
    case 'multilikeand':
      return `(${values.map((v) => likeSql(text, v, p)).join(' AND ')})`;
    case 'nmultilike':
      return `NOT (${values.map((v) => likeSql(text, v, p)).join(' OR ')})`;
  }
}

/** A rule on an event dimension, as a condition on events (custom parameters by key). */
function eventRuleSql(rule: DimensionFilterRule, p: Params): string {
  const d = rule.key as Dimension;
  if (d === 'customer_params_key' || d === 'user_cv_key') return `arrayExists(k -> ${ruleSql(d, 'k', rule, p)}, mapKeys(event_params))`;
  if (d === 'customer_params_value') return `arrayExists(v -> ${ruleSql(d, 'v', rule, p)}, mapValues(event_params))`;
  const condition = ruleSql(d, eventColumn(d), rule, p);
  const eventClass = rule.extra?.eventClass;
  return eventClass === undefined ? condition : `(${condition} AND event_class = ${p.add(eventClass, 'String')})`;
}

/**
 * Rules that one event must meet all of, as one condition on `events` (rows of events, not
 * visits): what a goal is (api/src/goals/goal-sql.ts). The rules' keys must be event dimensions.
 */
export function eventConditionsSql(rules: readonly DimensionFilterRule[], p: Params): string {
  if (rules.length === 0) throw new ReportQueryError('a condition needs at least one rule');
  return rules.map((r) => eventRuleSql(r, p)).join(' AND ');
}

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

/** The SQL of each metric over each source, or undefined where that source cannot answer it. */
function metricSql(m: Metric, plan: Plan, p: Params): string | undefined {
  const s = (sql: string): string => scaled(sql, plan, p);
  if (plan.source === 'rollup') {
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
      case 'events_count':
        return 'sum(custom_events)';
      default:
        return undefined;
    }
  }
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
    const visits = 'sum(visit_starts)';
    switch (m) {
      case 'page_views':
        return pageViews;
      case 'visits':
        return visits;
      case 'visitors':
        return `${DISTINCT_MERGE}(visitors)`;
      case 'bounces':
        return ratio('sum(bounces)', visits, 100, 2);
      case 'avg_view_depth':
        return ratio(pageViews, visits, 1, 2);
      case 'avg_sessions_duration':
        return ratio('sum(duration_ms)', visits, 0.001, 1);
      case 'uid':
        return 'uniqIfMerge(uid)';
      default:
        return undefined;
    }
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

/** Whether the plan's source can answer the metric. */
export function canAnswer(m: Metric, plan: Omit<Plan, 'metrics'>): boolean {
  return metricSql(m, { ...plan, metrics: [] }, new Params()) !== undefined;
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

/** The custom parameter key above the rows (custom_vars: event → key → value), as a parameter. */
function keyParamOf(plan: Plan, p: Params): string | undefined {
  const at = plan.path.findIndex((d) => d === 'customer_params_key' || d === 'user_cv_key');
  const key = at >= 0 ? plan.parents[at] : undefined;
  return key === undefined ? undefined : p.add(String(key), 'String');
}

/** The condition that the path's i-th dimension has `value` (a custom parameter key: the event has it). */
function equalsSql(plan: Plan, i: number, value: string | number, p: Params, keyParam: string | undefined): string {
  const d = plan.path[i];
  if (d === undefined) throw new ReportQueryError('a path is deeper than the report');
  if (plan.source !== 'visits' && (d === 'customer_params_key' || d === 'user_cv_key')) return `mapContains(event_params, ${p.add(String(value), 'String')})`;
  return `${levelSql(plan, d, p, d === 'customer_params_value' ? keyParam : undefined)} = ${typedValue(d, value, p)}`;
}

/** A dimension's value on the plan's rows: {@link dimensionSql}, a `date` by week or month its bucket's first day in the period. */
function levelSql(plan: Plan, d: Dimension, p: Params, keyParam?: string): string {
  const sql = dimensionSql(d, plan.source, keyParam);
  if (d !== 'date' || plan.dateRows === undefined) return sql;
  const first = plan.dateRows === 'week' ? `toMonday(${sql})` : `toStartOfMonth(${sql})`;
  return `greatest(${first}, ${p.add(plan.dateStart, 'Date')})`;
}

function pathConditions(plan: Plan, p: Params): string[] {
  const keyParam = keyParamOf(plan, p);
  return plan.parents.map((value, i) => equalsSql(plan, i, value, p, keyParam));
}

/** The dimension of the rows' level and its SQL. */
export function rowDimension(plan: Plan, p: Params): { d: Dimension; sql: string } {
  const d = plan.path[plan.parents.length];
  if (d === undefined) throw new ReportQueryError('the rows have no dimension');
  return { d, sql: levelSql(plan, d, p, d === 'customer_params_value' ? keyParamOf(plan, p) : undefined) };
}

/** The metric filters' conditions (§3: kept apart from the dimension filters, applied after grouping). */
function metricConditions(plan: Plan, p: Params): string[] {
  return plan.metricFilters.map((rule) => {
    const i = plan.metrics.indexOf(rule.key as Metric);
    if (i < 0) throw new ReportQueryError(`metric_filters: ${rule.key} is not among the metrics`);
    // A rule stored before its value was bounded: refused by the same bound, never sent.
    if (!isFilterNumber(rule.value)) throw new ReportQueryError(`metric_filters: value must be a number from -${FILTER_LIMITS.number} to ${FILTER_LIMITS.number}`);
    return `${metricAlias(i)} ${rule.op} ${p.add(rule.value, 'Float64')}`;
  });
}

export interface TableQuery {
  /** sort by a metric of the plan, or by the row's value */
  sortBy: Metric | 'title';
  order: 'asc' | 'desc';
  /** rows of the page; undefined: every row (the CSV export), without the row count */
  limit?: number;
  offset: number;
  /**
   * Also the level's totals, as one more row first (`is_totals` 1), when the rows can carry them
   * (`totalsRollUp`): the totals then merge the rows' states instead of reading the storage again.
   */
  totals?: boolean;
}

/** The column that marks the totals row of a table query asked with `totals`. */
export const TOTALS_MARK = 'is_totals';

/**
 * Whether the rows' query also gives the level's totals (`GROUP BY ROLLUP`): when they are the
 * roll-up of its rows (each stored row is counted in one row of the level) and are not read
 * cheaper apart. Not so for the custom parameters, where an event with two keys is in two rows
 * (its page view would be summed twice); nor for the site's totals ({@link totalsOfSite}), nor
 * for a page found keys first ({@link findsKeysFirst}), which merges the states of its own rows
 * only: their totals are read apart (compileTotals), side by side with the rows.
 */
export function totalsRollUp(plan: Plan, q?: Pick<TableQuery, 'sortBy' | 'limit'>): boolean {
  const d = plan.path[plan.parents.length];
  if (d === undefined || (plan.source !== 'visits' && plan.source !== 'paths' && MULTI_VALUED.has(d))) return false;
  return !totalsOfSite(plan) && !(q !== undefined && findsKeysFirst(plan, q));
}

/**
 * Metrics a path rollup answers by merging distinct-count states (visitors, logged-in users, the
 * visits of pages): the cost of reading it, proportional to the distinct visitors and visits of
 * the rows merged. The sums (page views, visits of sources, durations) and their ratios cost
 * next to nothing.
 */
function mergesStates(m: Metric, plan: Plan): boolean {
  return m === 'visitors' || m === 'uid' || (m === 'visits' && plan.scope === 'hit');
}

/**
 * Whether a page of a path rollup's rows is found before any state is merged ("keys first"): when
 * neither its sort nor its metric filters need a state, the page's values are chosen by their sums
 * alone, and only the page's rows merge their states. The first page of all 8 300 pages of a month
 * at 10 million events merged every page's states: 233 ms, about 50 this way (benchmarks/RESULTS.md,
 * 2026-11-25, "keys first"). The numbers are the same: the same rows, the same sort, ties by value.
 * Where the totals come cheaply from the site's days ({@link totalsOfSite}), or, in a large
 * period, for a filtered top level of pages ({@link splitsLargeLevel}); otherwise a filtered level's totals
 * merge every kept row's states anyway, and one query with the roll-up reads them once for the
 * rows and the totals.
 */
export function findsKeysFirst(plan: Plan, q: Pick<TableQuery, 'sortBy' | 'limit'>): boolean {
  if (plan.source !== 'paths' || q.limit === undefined || !(totalsOfSite(plan) || splitsLargeLevel(plan))) return false;
  const merges = (m: Metric): boolean => mergesStates(m, plan);
  return plan.metrics.some(merges) && (q.sortBy === 'title' || !merges(q.sortBy)) && !plan.metricFilters.some((r) => merges(r.key as Metric));
}

/**
 * Whether a filtered top level of pages is found keys first, its totals merged apart
 * (compileTotals): in a large period (an expanded level has a page's few addresses: one query). The one query with the roll-up merges every kept page's
 * states into its row and each row once more into the totals; apart, the page merges only its
 * rows' states and the totals every kept row's once. With small states (10 million events a
 * month) the one query is cheaper (the filtered pages of benchmarks/RESULTS.md: 48 ms against
 * 41 + 27 run one after the other, as chDB runs them); with large ones (100 million) apart is
 * (187 against 74 + 82). The numbers are the same either way: the same rows and states.
 */
function splitsLargeLevel(plan: Plan): boolean {
  return plan.largePeriod === true && readsBySize(plan);
}

/** Whether the period's size chooses how the plan's level is read ({@link splitsLargeLevel}): a top level of pages whose totals are not the site's. */
export function readsBySize(plan: Plan): boolean {
  return plan.source === 'paths' && plan.scope === 'hit' && plan.parents.length === 0 && !totalsOfSite(plan);
}

/**
 * Whether the totals of the plan's rows are the whole site's, read from the day rollup: the top
 * level of the pages' rollup without filters. Every event is in each path rollup (their views
 * group all events) and the day rollup keeps the same sums and states of them (migration 0021),
 * so the totals are the very same numbers, merged from a row a day instead of every page's.
 * Pages only: a level of sources or places has few rows (ten traffic types, two hundred
 * countries), whose roll-up costs next to nothing, and one query is cheaper than two (the demo's
 * traffic sources: 19.5 ms in one query, 47 keys first with the site's totals).
 */
export function totalsOfSite(plan: Plan): boolean {
  return plan.source === 'paths' && plan.scope === 'hit' && plan.parents.length === 0 && plan.filters.length === 0 && !plan.skipEmpty;
}

/** Dimensions of which one event has several values (an ARRAY JOIN over its parameters). */
const MULTI_VALUED: ReadonlySet<Dimension> = new Set(['customer_params_key', 'user_cv_key', 'customer_params_value']);

/**
 * One page of rows of the plan's level: each row's value, its metrics, and how many rows the
 * level has (`total_rows`); sorted, paged and filtered by metrics in ClickHouse. A page of a path
 * rollup sorted by a sum is found keys first ({@link findsKeysFirst}). With `totals` (and
 * `totalsRollUp`), one query also gives the totals: `GROUP BY ROLLUP` adds the row of all rows,
 * marked by `grouping()`, kept first whatever the page; metric filters never drop it (the totals
 * are the level's, as compileTotals reads them).
 */
export function compileTable(plan: Plan, q: TableQuery): Sql {
  const p = new Params();
  const rows = rowsOf(plan, 'day', p, true);
  const { d, sql } = rowDimension(plan, p);
  if (plan.skipEmpty) rows.where.push(`${sql} != ${emptyValue(d)}`);
  const i = q.sortBy === 'title' ? -1 : plan.metrics.indexOf(q.sortBy);
  const direction = q.order === 'asc' ? 'ASC' : 'DESC';
  const order = i < 0 ? `value ${direction}` : `${metricAlias(i)} ${direction}, value ASC`;
  const paged = q.limit !== undefined;
  const conditions = metricConditions(plan, p);
  if (q.limit !== undefined && findsKeysFirst(plan, q)) {
    // The level's values with the sums and ratios that sort and filter them, no state merged.
    const sums = selectMetrics(plan, p, (m) => !mergesStates(m, plan));
    const level = `SELECT ${sql} AS value${sums === '' ? '' : `, ${sums}`} FROM ${rows.from} WHERE ${whereSql(rows)}
      GROUP BY value${conditions.length === 0 ? '' : ` HAVING ${conditions.join(' AND ')}`}`;
    const page = `${level} ORDER BY ${order} LIMIT ${p.add(q.limit, 'UInt32')} OFFSET ${p.add(q.offset, 'UInt32')}`;
    // ClickHouse pushes the condition into each part of the rollup's rows: only the page's rows are read whole.
    const query = `SELECT ${sql} AS value, ${selectMetrics(plan, p)}, (SELECT count() FROM (${level})) AS total_rows
    FROM ${rows.from} WHERE ${[...rows.where, `${sql} IN (SELECT value FROM (${page}))`].join(' AND ')}
    GROUP BY value
    ORDER BY ${order}`;
    return { query, params: p.values, table: rows.table };
  }
  if (q.totals === true && totalsRollUp(plan, q)) {
    const having = conditions.length === 0 ? '' : `\n    HAVING ${TOTALS_MARK} = 1 OR (${conditions.join(' AND ')})`;
    const page = paged ? `,\n      sum(1 - ${TOTALS_MARK}) OVER () AS total_rows, row_number() OVER (PARTITION BY ${TOTALS_MARK} ORDER BY ${order}) AS row_at` : '';
    const offset = paged ? p.add(q.offset, 'UInt32') : '';
    const query = `SELECT ${sql} AS value, ${selectMetrics(plan, p)}, grouping(value) AS ${TOTALS_MARK}${page}
    FROM ${rows.from} WHERE ${whereSql(rows)}
    GROUP BY ROLLUP(value)${having}${paged ? `
    QUALIFY ${TOTALS_MARK} = 1 OR (row_at > ${offset} AND row_at <= ${offset} + ${p.add(q.limit, 'UInt32')})` : ''}
    ORDER BY ${TOTALS_MARK} DESC, ${order}`;
    return { query, params: p.values, table: rows.table };
  }
  const query = `SELECT ${sql} AS value, ${selectMetrics(plan, p)}${paged ? ', count() OVER () AS total_rows' : ''}
    FROM ${rows.from} WHERE ${whereSql(rows)}
    GROUP BY value${conditions.length === 0 ? '' : ` HAVING ${conditions.join(' AND ')}`}
    ORDER BY ${order}${paged ? `
    LIMIT ${p.add(q.limit, 'UInt32')} OFFSET ${p.add(q.offset, 'UInt32')}` : ''}`;
  return { query, params: p.values, table: rows.table };
}

/** The day rollup's rows of the period, for the site's totals ({@link totalsOfSite}). */
function siteDays(plan: Plan, p: Params): Rows {
  const where = [`project_id = ${p.add(plan.projectId, 'UInt32')}`, `event_date BETWEEN ${p.add(plan.dateStart, 'Date')} AND ${p.add(plan.dateEnd, 'Date')}`];
  return { from: 'rollup_day', table: 'rollup_day', where };
}

/** The plan's metrics over all its rows (the table's totals line). */
export function compileTotals(plan: Plan): Sql {
  const p = new Params();
  const rows = totalsOfSite(plan) ? siteDays(plan, p) : rowsOf(plan, 'day', p, true);
  if (plan.path.length > plan.parents.length && plan.skipEmpty) {
    const { d, sql } = rowDimension(plan, p);
    rows.where.push(`${sql} != ${emptyValue(d)}`);
  }
  return { query: `SELECT ${selectMetrics(plan, p)} FROM ${rows.from} WHERE ${whereSql(rows)}`, params: p.values, table: rows.table };
}

/**
 * The Moscow start (epoch seconds) of the bucket of each row. Weeks and months cut by the
 * period's first day start there (buckets never reach outside the period; see buckets.ts).
 */
function bucketSql(plan: Plan, group: Group, p: Params): string {
  if (plan.source === 'paths' && (group === 'minute' || group === 'five_minute' || group === 'hour')) throw new ReportQueryError(`a day rollup has no ${group} buckets`);
  const instant = plan.source === 'rollup' ? 'bucket' : plan.source === 'visits' ? 'visit_start' : 'ts';
  const day = plan.source === 'visits' ? 'visit_date' : 'event_date';
  const first = (): string => p.add(plan.dateStart, 'Date');
  // Moscow is UTC+3 all year, so its minute, five-minute and hour buckets are UTC's.
  switch (group) {
    case 'minute':
      return `toUnixTimestamp(toStartOfMinute(${instant}))`;
    case 'five_minute':
      return `toUnixTimestamp(toStartOfFiveMinutes(${instant}))`;
    case 'hour':
      return `toUnixTimestamp(toStartOfHour(${instant}))`;
    case 'day':
      return `toUnixTimestamp(toDateTime(${day}, ${TZ}))`;
    case 'week':
      return `toUnixTimestamp(toDateTime(greatest(toMonday(${day}), ${first()}), ${TZ}))`;
    case 'month':
      return `toUnixTimestamp(toDateTime(greatest(toStartOfMonth(${day}), ${first()}), ${TZ}))`;
  }
}

/** A graph line: rows whose path starts with these values (a row of the table and all under it). */
export type LinePath = readonly (string | number)[];

/**
 * The plan's metrics per time bucket: for the whole (no lines), or for each line, keyed by the
 * line's index (a row can be under several selected lines, so lines are an array joined).
 */
export function compileSeries(plan: Plan, group: Group, lines?: readonly LinePath[]): Sql {
  const p = new Params();
  const rows = rowsOf(plan, group, p);
  // The whole report's line holds what its table holds: without the rows left out as empty.
  const top = plan.path[0];
  if (plan.skipEmpty && top !== undefined) rows.where.push(`${dimensionSql(top, plan.source)} != ${emptyValue(top)}`);
  let line = '';
  if (lines !== undefined) {
    const keyParam = keyParamOf(plan, p);
    const matches = lines.map((values, n) => {
      // A line's own key is the parameter key of its value (custom_vars), not the rows' parent's.
      const at = plan.path.findIndex((d) => d === 'customer_params_key' || d === 'user_cv_key');
      const ownKey = at >= 0 && values[at] !== undefined ? p.add(String(values[at]), 'String') : keyParam;
      const conditions = values.map((value, i) => equalsSql(plan, i, value, p, ownKey));
      return `if(${conditions.join(' AND ') || '1'}, ${n + 1}, 0)`;
    });
    line = `, arrayJoin(arrayFilter(x -> x != 0, [${matches.join(', ')}])) AS line`;
  }
  const query = `SELECT ${bucketSql(plan, group, p)} AS bucket_start${line}, ${selectMetrics(plan, p)}
    FROM ${rows.from} WHERE ${whereSql(rows)}
    GROUP BY bucket_start${line ? ', line' : ''} ORDER BY bucket_start`;
  return { query, params: p.values, table: rows.table };
}

/** A stretch of time, epoch seconds: the hour rollup's buckets that start in [from, to]. */
export interface Span {
  from: number;
  to: number;
}

/**
 * Each Moscow day's metrics of several projects from the hour rollup, from the first hour of
 * `from` to the last of `to`: `span` is the day's index from `from` (0, 1, …). One grouping in
 * SQL, however many days, where compileProjectSpans writes a condition per span.
 */
export function compileProjectDays(projectIds: readonly number[], from: string, to: string, metrics: readonly Metric[]): Sql {
  if (to < from) throw new ReportQueryError('no day to read');
  const p = new Params();
  const plan: Plan = { projectId: 0, dateStart: from, dateEnd: to, source: 'rollup', scope: 'visit', sample: 1, metrics, path: [], parents: [], filters: [], metricFilters: [], skipEmpty: false };
  const first = p.add(from, 'Date');
  const query = `SELECT project_id, toUInt32(dateDiff('day', ${first}, toDate(bucket, ${TZ}))) AS span, ${selectMetrics(plan, p)}
    FROM rollup_hour
    WHERE project_id IN ${p.add([...projectIds], 'Array(UInt32)')}
      AND bucket >= toDateTime(${p.add(moscowDayStart(from) / 1000, 'UInt32')}, 'UTC')
      AND bucket <= toDateTime(${p.add(moscowDayStart(to) / 1000 + 23 * 3600, 'UInt32')}, 'UTC')
    GROUP BY project_id, span`;
  return { query, params: p.values, table: 'rollup_hour' };
}

/**
 * Metrics of several projects over several stretches of time at once, from the hour rollup,
 * with the SQL every report uses (the sites list: today so far against the same hours of the
 * day before; the rating: a week's visitors). A row per project and span (`span`: its index);
 * a bucket in no span is not read, and one in several counts in the first (spans should not overlap).
 */
export function compileProjectSpans(projectIds: readonly number[], spans: readonly Span[], metrics: readonly Metric[]): Sql {
  if (spans.length === 0) throw new ReportQueryError('no span of time to read');
  const p = new Params();
  const plan: Plan = { projectId: 0, dateStart: '', dateEnd: '', source: 'rollup', scope: 'visit', sample: 1, metrics, path: [], parents: [], filters: [], metricFilters: [], skipEmpty: false };
  const which = spans
    .map((s, i) => `bucket >= toDateTime(${p.add(s.from, 'UInt32')}, 'UTC') AND bucket <= toDateTime(${p.add(s.to, 'UInt32')}, 'UTC'), ${i}`)
    .join(', ');
  const query = `SELECT project_id, multiIf(${which}, -1) AS span, ${selectMetrics(plan, p)}
    FROM rollup_hour
    WHERE project_id IN ${p.add([...projectIds], 'Array(UInt32)')}
      AND bucket >= toDateTime(${p.add(Math.min(...spans.map((s) => s.from)), 'UInt32')}, 'UTC')
      AND bucket <= toDateTime(${p.add(Math.max(...spans.map((s) => s.to)), 'UInt32')}, 'UTC')
      AND span >= 0
    GROUP BY project_id, span`;
  return { query, params: p.values, table: 'rollup_hour' };
}
