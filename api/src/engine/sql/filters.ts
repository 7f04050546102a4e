import { dimensionType, FILTER_LIMITS, isFilterNumber, LIST_OPERATORS, METRIC_OPERATORS, type Dimension, type DimensionFilterRule, type Metric } from '@stat/schemas';
import type { Plan } from '../plan-types.js';
import { ReportQueryError, Params } from './params.js';
import { eventColumn, typedValue } from './dimensions.js';
import { metricAlias } from './metrics.js';

/** The conditions of dimension filter rules (before grouping) and of metric filters (after it). */

/**
 * A filter pattern as a LIKE pattern: `*` stands for any characters, every other character is
 * itself (so `%`, `_` and `\` are escaped); a leading `@` makes the match ignore case.
 */
function likePattern(pattern: string): { like: string; ignoreCase: boolean } {
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
export function ruleSql(d: Dimension, expr: string, rule: DimensionFilterRule, p: Params): string {
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
export function eventRuleSql(rule: DimensionFilterRule, p: Params): string {
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

/** The metric filters' conditions (§3: kept apart from the dimension filters, applied after grouping). */
export function metricConditions(plan: Plan, p: Params): string[] {
  return plan.metricFilters.map((rule) => {
    const i = plan.metrics.indexOf(rule.key as Metric);
    if (i < 0) throw new ReportQueryError(`metric_filters: ${rule.key} is not among the metrics`);
    // A rule stored before its value was bounded: refused by the same bound, never sent.
    if (!isFilterNumber(rule.value)) throw new ReportQueryError(`metric_filters: value must be a number from -${FILTER_LIMITS.number} to ${FILTER_LIMITS.number}`);
    // The operator goes into the SQL as written: only one of the catalogue's, whatever the caller checked.
    if (!(METRIC_OPERATORS as readonly string[]).includes(rule.op)) throw new ReportQueryError(`metric_filters: op must be one of ${METRIC_OPERATORS.join(', ')}`);
    return `${metricAlias(i)} ${rule.op} ${p.add(rule.value, 'Float64')}`;
  });
}
