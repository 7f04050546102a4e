/**
 * The report's filters as its URL holds them, and the titles of their values. Invalid filters in
 * the URL are the page's to correct (useUrlCorrection, with `correctFilters` in its rule).
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Metric } from '@stat/schemas/catalogue';
import type { DimensionFilterRule } from '@stat/schemas/filters';
import { VALUE_TITLES } from '@stat/schemas/traffic';
import { fetchGeoPlaces } from './filtersApi';
import type { TitleOf } from './form';
import { parseFilters, requestFilters, writeFilters, type ReportFilters } from './url';

/** The filters of a report and how to change them. */
export interface ReportFiltersState {
  readonly filters: ReportFilters;
  /** The filters as the report calls take them. */
  readonly request: ReturnType<typeof requestFilters>;
  /** New filters: a new history entry, and the table back to its first page. */
  apply(filters: ReportFilters): void;
}

export function useReportFilters(metrics: readonly Metric[]): ReportFiltersState {
  const [search, setSearch] = useSearchParams();
  const { filters } = useMemo(() => parseFilters(search, metrics), [search, metrics]);
  const apply = useCallback(
    (filters: ReportFilters) =>
      setSearch((prev) => {
        const next = writeFilters(prev, filters);
        next.delete('offset');
        return next;
      }),
    [setSearch],
  );
  const request = useMemo(() => requestFilters(filters), [filters]);
  return { filters, request, apply };
}

/** Titles seen in the dialog's lists and the dictionary, by `key\0value`, for the page's life. */
const knownTitles = new Map<string, string>();
const titleKey = (key: string, value: string | number) => `${key}\u0000${String(value)}`;

/** Remembers the titles the dialog showed, so that chips read as the lists did. */
export function rememberTitle(key: string, value: string | number, title: string): void {
  knownTitles.set(titleKey(key, value), title);
}

const GEO = new Set(['geo_country', 'geo_area', 'geo_city']);

function titleOf(key: string, value: string | number): string {
  const known = knownTitles.get(titleKey(key, value));
  if (known !== undefined) return known;
  const coded = key === 'traffic_type' || key === 'device_type' ? VALUE_TITLES[key]?.[String(value)] : undefined;
  return coded ?? String(value);
}

/**
 * The title of each value of the rules: the lists' or the coded ones; geo ids not yet seen are
 * named by the dictionary (§4: "Geo … ids not yet known are resolved by dictionary calls").
 */
export function useValueTitles(rules: readonly DimensionFilterRule[]): TitleOf {
  const [version, setVersion] = useState(0);
  const missing = useMemo(() => {
    const ids = new Set<number>();
    for (const rule of rules) {
      if (!GEO.has(rule.key)) continue;
      for (const v of Array.isArray(rule.value) ? rule.value : [rule.value]) {
        const id = Number(v);
        if (Number.isInteger(id) && id > 0 && !knownTitles.has(titleKey(rule.key, v as string | number))) ids.add(id);
      }
    }
    return [...ids].sort((a, b) => a - b);
  }, [rules]);
  const missingKey = missing.join(',');
  useEffect(() => {
    if (!missingKey) return undefined;
    const controller = new AbortController();
    fetchGeoPlaces(missingKey.split(',').map(Number), { signal: controller.signal }).then(
      ({ data }) => {
        for (const place of data) for (const key of GEO) rememberTitle(key, place.id, place.name);
        setVersion((v) => v + 1);
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [missingKey]);
  // A new function when titles arrive, so that what depends on it is drawn again.
  return useCallback((key: string, value: string | number) => titleOf(key, value), [version]); // eslint-disable-line react-hooks/exhaustive-deps
}
