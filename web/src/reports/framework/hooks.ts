import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router-dom';
import { knownServerClock, serverClockOffset, serverNow, serverToday, subscribeServerClock } from '../../lib/clock';
import { fitGroup, resolveDate, type EventbaseLatency, type IsoDate, type PeriodGroup } from '@stat/schemas/period';
import { calls } from '../../data/calls';
import { firstIncomplete } from './incomplete';
import { parsePeriod, type DateParam, type Period } from '../../lib/period';
import { nextSort, readTableQuery, writeSort } from './query';
import type { ReportSort } from './reportApi';

/** The server's clock as a report needs it. */
export interface ServerClock {
  /** Today's Moscow date by the server's clock. */
  readonly today: IsoDate;
  /** Milliseconds to add to `Date.now()` for the server's time. */
  readonly offsetMs: number;
}

/**
 * The server's clock, or null until the server's time is known (asked once per page load; a failed
 * call falls back to this browser's clock). The page renders again when the clock is asked again
 * (refreshServerClock: «Период:» opened on another day), so that its today is the new day.
 */
export function useServerClock(): ServerClock | null {
  const known = useSyncExternalStore(subscribeServerClock, knownServerClock);
  useEffect(() => {
    if (known === null) void serverClockOffset();
  }, [known]);
  return known === null ? null : { today: serverToday(known.offsetMs), offsetMs: known.offsetMs };
}

/**
 * The server's time when `answer` came ({@link serverNow}), undefined before the first answer. A
 * graph judges by it which buckets were not yet over when they were counted: a bucket still
 * growing then stays drawn so after its end, until the report is asked again.
 */
export function useAnswerTime(answer: unknown): number | undefined {
  return useMemo(() => (answer === undefined ? undefined : serverNow()), [answer]);
}

/**
 * The first of an answer's buckets not yet over when it came ({@link firstIncomplete}), drawn
 * dashed; undefined before the buckets. The group and the period's end are those the answer was
 * asked for, which its key already fixes: the buckets and the answer's time decide alone.
 */
export function useIncompleteFrom(answer: unknown, buckets: readonly { readonly ts: number }[] | undefined, group: PeriodGroup, periodEnd: IsoDate | undefined): number | undefined {
  const answeredAt = useAnswerTime(answer);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => (buckets ? firstIncomplete(buckets, answeredAt, group, periodEnd) : undefined), [buckets, answeredAt]);
}

/** The state of a report held in its URL, and the ways to change it. */
export interface ReportQuery {
  readonly period: Period;
  /** The chosen sort, or null for the server's default. */
  readonly sort: ReportSort | null;
  readonly offset: number;
  /** New dates; the group is kept when the period allows it, else replaced (spec 001 §4). */
  setDates(dateStart: DateParam, dateEnd: DateParam): void;
  setGroup(group: PeriodGroup): void;
  /** A click on a column: sorts by it, or flips the direction when already sorted by it. */
  toggleSort(column: string, current: ReportSort): void;
  setOffset(offset: number): void;
}

/**
 * Writes a page's corrected URL query in place of the one it was opened at (no new history entry),
 * when `correct` finds invalid or missing values (spec 001 §5): a page's one correction. At a URL
 * already correct it writes nothing, so the page renders once. `correct` keeps its identity between
 * renders (a module's function, or useCallback): the URL is checked again when either changes.
 */
export function useUrlCorrection(correct: (search: URLSearchParams) => URLSearchParams | null): void {
  const [search, setSearch] = useSearchParams();
  useEffect(() => {
    const corrected = correct(search);
    if (corrected) setSearch(corrected, { replace: true });
  }, [search, correct, setSearch]);
}

/**
 * Reads the report's state from the URL (`dateStart`, `dateEnd`, `groupBy`, `orderBy`, `offset`)
 * and writes changes back (a new history entry each, so Back returns to the previous view).
 * Changing the period, group or sort goes back to the first page. Invalid values are the page's
 * to correct (useUrlCorrection with the report's rule).
 */
export function useReportQuery(today: IsoDate, sortColumns: readonly string[], pageSize: number): ReportQuery {
  const [search, setSearch] = useSearchParams();
  const { parsed, sort, offset } = useMemo(() => readTableQuery(search, today, sortColumns, pageSize), [search, today, sortColumns, pageSize]);
  const { period } = parsed;

  const update = useCallback(
    (change: (next: URLSearchParams) => void) => {
      setSearch((prev) => {
        const next = new URLSearchParams(prev);
        change(next);
        next.delete('offset');
        return next;
      });
    },
    [setSearch],
  );

  return {
    period,
    sort,
    offset,
    setDates: (dateStart, dateEnd) => {
      const start = resolveDate(dateStart, today);
      const end = resolveDate(dateEnd, today);
      if (!start || !end) return;
      // An interval whose start is after its end is swapped (spec 001 §4 "Date modal").
      const [from, to, fromParam, toParam] = start <= end ? [start, end, dateStart, dateEnd] : [end, start, dateEnd, dateStart];
      const group = fitGroup(period.group, from, to);
      update((next) => {
        next.set('dateStart', fromParam);
        next.set('dateEnd', toParam);
        next.set('groupBy', group);
      });
    },
    setGroup: (group) => update((next) => next.set('groupBy', group)),
    toggleSort: (column, current) => update((next) => next.set('orderBy', writeSort(nextSort(current, column, 'date')))),
    setOffset: (value) =>
      setSearch((prev) => {
        const next = new URLSearchParams(prev);
        if (value > 0) next.set('offset', String(value));
        else next.delete('offset');
        return next;
      }),
  };
}

/** A period of a page beside the reports (conversions, funnels), for the reports' «Период:» picker. */
export interface PagePeriod {
  readonly period: Period;
  /** Today's Moscow date by the server's clock. */
  readonly today: IsoDate;
  /** Writes the picked dates into the URL (a new history entry, as a report does). */
  setDates(dateStart: DateParam, dateEnd: DateParam): void;
}

/**
 * A page's period kept in its URL as a report keeps its own (`dateStart`, `dateEnd`: dates or
 * relative ones, 7 days to today when none or invalid), so a shared link opens the same period;
 * null until the server's clock is known. A new period clears the parameters `reset` names (the
 * page of a table).
 */
export function usePagePeriod(reset: readonly string[] = []): PagePeriod | null {
  const clock = useServerClock();
  const today = clock?.today ?? null;
  const [search, setSearch] = useSearchParams();
  const period = useMemo(() => (today === null ? null : parsePeriod(search, today).period), [search, today]);
  if (today === null || period === null) return null;
  return {
    period,
    today,
    setDates: (dateStart, dateEnd) =>
      setSearch((prev) => {
        const next = new URLSearchParams(prev);
        next.set('dateStart', dateStart);
        next.set('dateEnd', dateEnd);
        for (const name of reset) next.delete(name);
        return next;
      }),
  };
}

export { useRequest } from '../../lib/hooks';

/** The projects' data spans asked for in this page load, by project and day (a failed call: null, no warning). */
const dataRanges = new Map<string, Promise<EventbaseLatency | null>>();

/**
 * The days a project has data (`GET /api/report/v1.0/service/eventbase_latency/{projectId}`, spec
 * 001 §4 "Date modal"), asked once per project and day (`today`, the server's: a page left open
 * past midnight asks again, as the spec's "latency refreshed on open" when the day changed); null
 * until known or when the call fails (the date form then warns of nothing rather than of a wrong span).
 */
export function useDataRange(projectId: string | undefined, today: IsoDate): EventbaseLatency | null {
  const [range, setRange] = useState<EventbaseLatency | null>(null);
  useEffect(() => {
    if (projectId === undefined) return;
    let live = true;
    const key = `${projectId}|${today}`;
    let once = dataRanges.get(key);
    if (!once) {
      once = calls.dataSpan(projectId).then(
        (r) => (r && 'start' in r ? r : null),
        () => null,
      );
      dataRanges.set(key, once);
    }
    void once.then((value) => {
      if (live) setRange(value);
    });
    return () => {
      live = false;
    };
  }, [projectId, today]);
  return range;
}

/**
 * The page body's width, read once and then kept by a ResizeObserver (or window resizes where
 * there is none): a render asks it many times, and each fresh read of `clientWidth` while the
 * page is being built forces the browser to lay it out there and then.
 */
const bodyWidth = (() => {
  let width: number | undefined;
  const listeners = new Set<() => void>();
  let stop: (() => void) | undefined;
  const changed = () => {
    const next = document.body.clientWidth;
    if (next === width) return;
    width = next;
    for (const listener of listeners) listener();
  };
  const watch = (): (() => void) => {
    if (typeof ResizeObserver === 'undefined') {
      window.addEventListener('resize', changed);
      return () => window.removeEventListener('resize', changed);
    }
    // Its first call comes after the next layout, and later ones after each change of size
    // (a window resize, a scrollbar appearing), when reading the width costs nothing.
    const observer = new ResizeObserver(changed);
    observer.observe(document.body);
    return () => observer.disconnect();
  };
  return {
    subscribe(onChange: () => void): () => void {
      listeners.add(onChange);
      stop ??= watch();
      return () => {
        listeners.delete(onChange);
        if (listeners.size > 0) return;
        stop?.();
        stop = undefined;
        width = undefined;
      };
    },
    now: (): number => (width ??= document.body.clientWidth),
  };
})();

/** Body width below which reports are compact: short graphs, fewer and denser columns (spec 001 §9). */
export const NARROW_BODY = 1275;

/** Whether the page body is narrower than `px` (follows its resizes). */
export function useNarrowerThan(px: number): boolean {
  return useSyncExternalStore(
    bodyWidth.subscribe,
    () => bodyWidth.now() < px,
    () => false,
  );
}
