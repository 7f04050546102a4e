/**
 * The server's clock. Relative report dates (today, 7days…) are resolved against the server's
 * time when this browser's clock is off by more than a minute (spec 001 §4: "server time offset is
 * used only when it differs by more than 60 s"), so a wrong clock never shows the wrong day.
 */
import { apiGet } from './api';
import type { IsoDate } from '@stat/schemas/period';
import { moscowToday } from './dates';

/** Offsets within this are treated as no offset. */
const CLOCK_TOLERANCE_MS = 60_000;

/** Result of `GET /api/report/v1.0/service/time`. */
interface ServiceTime {
  /** Server time, unix seconds. */
  readonly timestamp: number;
}

/** Milliseconds to add to this clock to get the server's, or 0 when they agree within a minute. */
export function clockOffset(serverSeconds: number, localMs: number): number {
  const offset = serverSeconds * 1000 - localMs;
  return Math.abs(offset) > CLOCK_TOLERANCE_MS ? offset : 0;
}

let offsetOnce: Promise<number> | undefined;

/** The server clock as last answered, replaced by a new object at each answer (even of the same offset). */
export interface KnownClock {
  readonly offsetMs: number;
}

let known: KnownClock | null = null;
/** Whether the last call asked has answered (a refresh then asks anew; one in flight is awaited). */
let answered = false;
const listeners = new Set<() => void>();

/**
 * The server clock offset, asked once per page load (and again by {@link refreshServerClock}). A
 * failed call counts as no offset: the report then uses this browser's clock rather than not
 * showing at all.
 */
export function serverClockOffset(): Promise<number> {
  if (offsetOnce === undefined) answered = false;
  offsetOnce ??= apiGet<ServiceTime>('/api/report/v1.0/service/time').then(
    (r) => (typeof r?.timestamp === 'number' ? clockOffset(r.timestamp, Date.now()) : 0),
    () => 0,
  ).then((offset) => {
    known = { offsetMs: offset };
    answered = true;
    for (const listener of listeners) listener();
    return offset;
  });
  return offsetOnce;
}

/** The offset once {@link serverClockOffset} has answered, else null: a report renders at once when it is known. */
export function knownClockOffset(): number | null {
  return known?.offsetMs ?? null;
}

/**
 * The last answer of the server's clock, for `useSyncExternalStore`: a new object at each answer,
 * so that the pages that read today from it render again after a refresh, when the day may have
 * changed though the offset did not.
 */
export function knownServerClock(): KnownClock | null {
  return known;
}

/** Calls `listener` at each answer of the server's clock; returns the unsubscribe. */
export function subscribeServerClock(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Asks the server's time again; the pages that read today from it then render with the day it
 * gives (spec 001 §4 "Date modal": "If the server day differs from the local day, latency and
 * server time are refreshed on open"). A call already in flight is not asked twice.
 */
export function refreshServerClock(): Promise<number> {
  if (answered) offsetOnce = undefined;
  return serverClockOffset();
}

/**
 * Whether a page's `today` (the server's Moscow day when the page last rendered) is no longer
 * the day: the server's day by the known offset, or this browser's own Moscow day, is another one
 * now. The page was left open past midnight, or the clocks disagree on the day; either way the
 * server is asked again (spec 001 §4 "Date modal").
 */
export function dayChanged(today: IsoDate, offsetMs: number | null, nowMs: number = Date.now()): boolean {
  return moscowToday(nowMs + (offsetMs ?? 0)) !== today || moscowToday(nowMs) !== today;
}

/**
 * The server's time now (ms): this browser's clock plus the known offset, or this clock alone
 * until the offset is known (as {@link serverClockOffset} falls back when the call fails).
 */
export function serverNow(localMs: number = Date.now()): number {
  return localMs + (knownClockOffset() ?? 0);
}

/** Today's Moscow date by the server's clock, given its offset. */
export function serverToday(offsetMs: number): IsoDate {
  return moscowToday(Date.now() + offsetMs);
}
