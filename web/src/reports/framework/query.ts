/**
 * Table state in the URL (spec 001 §3 "Report URL parameters"): `orderBy` as `name:asc` or
 * `name:desc`, and `offset`; and the rules every report's URL shares (`sample`, `categoryId`).
 * Pure functions; the period's own rules are in lib/period.
 */
import type { IsoDate } from '@stat/schemas/period';
import type { ReportDefinition } from '@stat/schemas/reports';
import { parsePeriod, writePeriod, type ParsedPeriod } from '../../lib/period';
import type { ReportSort } from './reportApi';

/** Reads `orderBy`; null when missing or not one of `names`. */
export function parseSort(value: string | null, names: readonly string[]): ReportSort | null {
  if (!value) return null;
  const m = /^([a-z_][a-z0-9_]*):(asc|desc)$/.exec(value);
  if (!m || !names.includes(m[1] ?? '')) return null;
  return { name: m[1] ?? '', order: m[2] === 'asc' ? 'asc' : 'desc' };
}

/** The `orderBy` value of a sort. */
export function writeSort(sort: ReportSort): string {
  return `${sort.name}:${sort.order}`;
}

/** Reads `offset`: a non-negative integer multiple of `pageSize`, else 0. */
export function parseOffset(value: string | null, pageSize: number): number {
  if (!value || !/^\d{1,9}$/.test(value)) return 0;
  const n = Number(value);
  return n % pageSize === 0 ? n : 0;
}

/**
 * The sort after a click on a column (spec 001 §4 "Sorting"): a new column starts in its default
 * direction (the title column ascending, metrics descending); a repeated click flips it.
 */
export function nextSort(current: ReportSort, column: string, titleColumn: string): ReportSort {
  if (current.name === column) return { name: column, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { name: column, order: column === titleColumn ? 'asc' : 'desc' };
}

/** A time-series report's state as its URL holds it: the period, the sort and the page. */
export interface TableQuery {
  readonly parsed: ParsedPeriod;
  /** The chosen sort, or null for the server's default. */
  readonly sort: ReportSort | null;
  readonly offset: number;
}

/** Reads a time-series report's state from its URL (`dateStart`, `dateEnd`, `groupBy`, `orderBy`, `offset`). */
export function readTableQuery(search: URLSearchParams, today: IsoDate, sortColumns: readonly string[], pageSize: number): TableQuery {
  return { parsed: parsePeriod(search, today), sort: parseSort(search.get('orderBy'), sortColumns), offset: parseOffset(search.get('offset'), pageSize) };
}

/** `limit` as spec 001 §5 allows it: a whole number from 0 to 100. */
function validLimit(value: string): boolean {
  return /^\d{1,3}$/.test(value) && Number(value) <= 100;
}

/** `sample` as spec 001 §5 allows it: above 0 and up to 1 (up to six decimals). The one rule of every report's URL. */
export function validSample(value: string): boolean {
  if (!/^(0|1)(\.\d{1,6})?$/.test(value)) return false;
  const n = Number(value);
  return n > 0 && n <= 1;
}

/** The rating's category in the URL (spec 001 §3 `categoryId`). */
export const CATEGORY_PARAM = 'categoryId';

/**
 * `search` without `categoryId` on any report but the rating (spec 001 §4: the rating keeps it,
 * every other report clears it), or `search` itself when there is nothing to clear. The one rule
 * of every report's URL.
 */
export function clearForeignCategory(search: URLSearchParams, report: ReportDefinition): URLSearchParams {
  if (report.name === 'rating' || !search.has(CATEGORY_PARAM)) return search;
  const next = new URLSearchParams(search);
  next.delete(CATEGORY_PARAM);
  return next;
}

/**
 * The URL of a time-series report corrected as spec 001 §5 says, or null when it is valid: the
 * period as {@link parsePeriod} reads it; an `orderBy` that is not one of the sort columns, an
 * `offset` that is not a whole page, a `limit` outside 0 … 100 and a `sample` outside (0, 1] are
 * removed (the report then uses its defaults, so the URL and the shown report agree). Other
 * parameters are kept.
 */
export function correctTableQuery(search: URLSearchParams, query: TableQuery): URLSearchParams | null {
  const next = query.parsed.corrected ? writePeriod(search, query.parsed.period) : new URLSearchParams(search);
  const drop = (key: string, invalid: (value: string) => boolean) => {
    const value = search.get(key);
    if (value !== null && invalid(value)) next.delete(key);
  };
  drop('orderBy', () => query.sort === null);
  drop('offset', () => query.offset === 0);
  drop('limit', (v) => !validLimit(v));
  drop('sample', (v) => !validSample(v));
  return next.toString() === search.toString() ? null : next;
}
