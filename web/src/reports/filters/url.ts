/**
 * The filters in the report URL (spec 001 §3 "Report URL parameters": `globalFilters`,
 * `tableFilters`), read and corrected as §5 says. `globalFilters` holds the api's dimension rules
 * as JSON (values may hold any character); `tableFilters` the metric rules written
 * `key:op:value`, comma-separated (§4: "Metric filters are written key:op:value").
 */
import type { Metric } from '@stat/schemas/catalogue';
import {
  DIMENSION_OPERATORS,
  FILTER_LIMITS,
  FILTERABLE_DIMENSIONS,
  isValueFor,
  METRIC_OPERATORS,
  type DimensionFilterRule,
  type MetricFilterRule,
} from '@stat/schemas/filters';

import { GLOBAL_FILTERS, TABLE_FILTERS } from './params';

export { GLOBAL_FILTERS, TABLE_FILTERS };

/** The filters of a report. */
export interface ReportFilters {
  readonly dimension: readonly DimensionFilterRule[];
  readonly metric: readonly MetricFilterRule[];
}

/** The filters read from a URL, and whether the URL must be rewritten to state them. */
export interface ParsedFilters {
  readonly filters: ReportFilters;
  readonly corrected: boolean;
}

/** A rule of the contract, or null: key collected, operator known, value of the operator's shape. */
function dimensionRule(raw: unknown): DimensionFilterRule | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const { key, op, value, extra } = raw as Record<string, unknown>;
  if (typeof key !== 'string' || !FILTERABLE_DIMENSIONS.includes(key)) return null;
  if (!(DIMENSION_OPERATORS as readonly unknown[]).includes(op) || !isValueFor(op, value)) return null;
  const eventClass = typeof extra === 'object' && extra !== null ? (extra as { eventClass?: unknown }).eventClass : undefined;
  return {
    key,
    op: op as DimensionFilterRule['op'],
    value: Array.isArray(value) ? [...(value as (string | number)[])] : value,
    ...(typeof eventClass === 'string' && eventClass.length <= 100 ? { extra: { eventClass } } : {}),
  };
}

/** Reads `globalFilters`: invalid JSON is dropped, invalid rules are left out, at most the api's rule limit. */
export function parseDimensionFilters(text: string | null): DimensionFilterRule[] {
  if (!text) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return raw.map(dimensionRule).filter((r): r is DimensionFilterRule => r !== null).slice(0, FILTER_LIMITS.rules);
}

/**
 * Reads `tableFilters`: rules of the report's metrics only (§5), an operator of greater, less,
 * equal, and a value that is a number not below 0 (§5 "applied only if >= 0"; an empty value is
 * removed, §4).
 */
export function parseMetricFilters(text: string | null, metrics: readonly Metric[]): MetricFilterRule[] {
  if (!text) return [];
  const rules: MetricFilterRule[] = [];
  for (const part of text.split(',')) {
    const m = /^([a-z_]+):(>|<|=):(\d{1,15}(?:\.\d{1,6})?)$/.exec(part.trim());
    if (!m) continue;
    const key = metrics.find((k) => k === m[1]);
    const op = METRIC_OPERATORS.find((o) => o === m[2]);
    if (key && op) rules.push({ key, op, value: Number(m[3]) });
  }
  return rules.slice(0, FILTER_LIMITS.rules);
}

function writeMetricFilters(rules: readonly MetricFilterRule[]): string {
  return rules.map((r) => `${r.key}:${r.op}:${r.value}`).join(',');
}

/** Writes the filters into a copy of `search`; no filters, no parameter. */
export function writeFilters(search: URLSearchParams, filters: ReportFilters): URLSearchParams {
  const next = new URLSearchParams(search);
  if (filters.dimension.length > 0) next.set(GLOBAL_FILTERS, JSON.stringify(filters.dimension));
  else next.delete(GLOBAL_FILTERS);
  if (filters.metric.length > 0) next.set(TABLE_FILTERS, writeMetricFilters(filters.metric));
  else next.delete(TABLE_FILTERS);
  return next;
}

/** Reads both parameters; `corrected` when writing back what was read gives another URL. */
export function parseFilters(search: URLSearchParams, metrics: readonly Metric[]): ParsedFilters {
  const filters: ReportFilters = {
    dimension: parseDimensionFilters(search.get(GLOBAL_FILTERS)),
    metric: parseMetricFilters(search.get(TABLE_FILTERS), metrics),
  };
  const written = writeFilters(search, filters);
  const corrected = [GLOBAL_FILTERS, TABLE_FILTERS].some((k) => written.get(k) !== search.get(k));
  return { filters, corrected };
}

/**
 * The URL with its filters written as they are read (invalid rules left out, §5), or null when
 * it already states them; other parameters are kept.
 */
export function correctFilters(search: URLSearchParams, metrics: readonly Metric[]): URLSearchParams | null {
  const parsed = parseFilters(search, metrics);
  return parsed.corrected ? writeFilters(search, parsed.filters) : null;
}

/** The filters as the report calls take them (nothing when there are none). */
export function requestFilters(filters: ReportFilters): { dimension_filters?: DimensionFilterRule[]; metric_filters?: MetricFilterRule[] } {
  return {
    ...(filters.dimension.length > 0 ? { dimension_filters: [...filters.dimension] } : {}),
    ...(filters.metric.length > 0 ? { metric_filters: [...filters.metric] } : {}),
  };
}

/** Whether two filter sets are the same rules (a saved filter and the current ones: «(изменён)»). */
export function sameFilters(a: ReportFilters, b: ReportFilters): boolean {
  return JSON.stringify(a.dimension) === JSON.stringify(b.dimension) && JSON.stringify(a.metric) === JSON.stringify(b.metric);
}
