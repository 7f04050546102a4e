import { moscowDayStart, type Group, type Metric } from '@stat/schemas';
import type { Plan } from '../plan-types.js';
import { type Sql, ReportQueryError, TZ, Params } from './params.js';
import { dimensionSql, emptyValue, keyParamOf, equalsSql, rowDimension } from './dimensions.js';
import { metricConditions } from './filters.js';
import { metricAlias, selectMetrics } from './metrics.js';
import { whereSql, rowsOf, siteDays } from './sources.js';
import { type TableQuery, TOTALS_MARK, totalsRollUp, mergesStates, findsKeysFirst, totalsOfSite } from './query-plan.js';

/**
 * The report engine's SQL compiler: pure functions from a plan to ClickHouse SQL and its
 * parameters (tables, totals, series, several projects' spans). Identifiers come only from the
 * allow-lists of these files and the catalogue (`DIMENSIONS`); every value of a request travels
 * as a typed query parameter.
 */

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
