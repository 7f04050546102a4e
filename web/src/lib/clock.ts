/**
 * The server's clock. Relative report dates (today, 7days…) are resolved against the server's
 * time when this browser's clock is off by more than a minute (spec 001 §4: "server time offset is
 * used only when it differs by more than 60 s"), so a wrong clock never shows the wrong day.
 */
import { apiGet } from './api';
import type { IsoDate } from '@stat/schemas/period';
import { moscowToday } from './dates';

/** Offsets within this are treated as no offset. */
export const CLOCK_TOLERANCE_MS = 60_000;

/** Result of `GET /api/report/v1.0/service/time`. */
export interface ServiceTime {
  /** Server time, unix seconds. */
  readonly timestamp: number;
}

/** Milliseconds to add to this clock to get the server's, or 0 when they agree within a minute. */
export function clockOffset(serverSeconds: number, localMs: number): number {
  const offset = serverSeconds * 1000 - localMs;
  return Math.abs(offset) > CLOCK_TOLERANCE_MS ? offset : 0;
}

let offsetOnce: Promise<number> | undefined;
let knownOffset: number | null = null;

/**
 * The server clock offset, asked once per page load. A failed call counts as no offset: the
 * report then uses this browser's clock rather than not showing at all.
 */
export function serverClockOffset(): Promise<number> {
  offsetOnce ??= apiGet<ServiceTime>('/api/report/v1.0/service/time').then(
    (r) => (typeof r?.timestamp === 'number' ? clockOffset(r.timestamp, Date.now()) : 0),
    () => 0,
  ).then((offset) => {
    knownOffset = offset;
    return offset;
  });
  return offsetOnce;
}

/** The offset once {@link serverClockOffset} has answered, else null: a report renders at once when it is known. */
export function knownClockOffset(): number | null {
  return knownOffset;
}

/** Today's Moscow date by the server's clock, given its offset. */
export function serverToday(offsetMs: number): IsoDate {
  return moscowToday(Date.now() + offsetMs);
}
