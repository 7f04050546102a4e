import { DIMENSIONS, dimensionType, filterValueProblem, HIT_DIMENSIONS, type Dimension } from '@stat/schemas';
import type { Source, Plan } from '../plan-types.js';
import { ReportQueryError, Params } from './params.js';

/**
 * A dimension's value on a row of each source, its "none", a value of it as a typed parameter,
 * and the drill-down path's conditions above the rows' level. Identifiers come only from the
 * catalogue (`DIMENSIONS`) and this file's allow-list.
 */

/** The lower bounds (seconds) of the «Время на сайте» ranges. */
const VISIT_TIME_BOUNDS = [0, 15, 30, 60, 180, 600, 1800] as const;

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

/** The events' column (or ALIAS column) of a dimension; never a request's text. */
export function eventColumn(d: Dimension): string {
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

/** The custom parameter key above the rows (custom_vars: event → key → value), as a parameter. */
export function keyParamOf(plan: Plan, p: Params): string | undefined {
  const at = plan.path.findIndex((d) => d === 'customer_params_key' || d === 'user_cv_key');
  const key = at >= 0 ? plan.parents[at] : undefined;
  return key === undefined ? undefined : p.add(String(key), 'String');
}

/** The condition that the path's i-th dimension has `value` (a custom parameter key: the event has it). */
export function equalsSql(plan: Plan, i: number, value: string | number, p: Params, keyParam: string | undefined): string {
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

export function pathConditions(plan: Plan, p: Params): string[] {
  const keyParam = keyParamOf(plan, p);
  return plan.parents.map((value, i) => equalsSql(plan, i, value, p, keyParam));
}

/** The dimension of the rows' level and its SQL. */
export function rowDimension(plan: Plan, p: Params): { d: Dimension; sql: string } {
  const d = plan.path[plan.parents.length];
  if (d === undefined) throw new ReportQueryError('the rows have no dimension');
  return { d, sql: levelSql(plan, d, p, d === 'customer_params_value' ? keyParamOf(plan, p) : undefined) };
}
