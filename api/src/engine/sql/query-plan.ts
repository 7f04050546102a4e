import type { Dimension, Metric } from '@stat/schemas';
import type { Plan } from '../plan-types.js';

/**
 * How a table's query is shaped, decided from the plan alone: whether its totals ride along as
 * the roll-up of its rows, come from the site's days, or a page is found keys first.
 */

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
export function mergesStates(m: Metric, plan: Plan): boolean {
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
