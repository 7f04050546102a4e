import { bucketCount as periodBucketCount, type PeriodGroup } from './period.js';
import { MOSCOW_OFFSET_MS, moscowDayStart } from './time.js';

/**
 * The time buckets of a report period, in Moscow time (UTC+3 all year), as epoch seconds of
 * their starts. Weeks start on Monday and months on the 1st, but a bucket never reaches outside
 * the period: a week or a month cut by the period's first day is that part only and starts on
 * that day (1–10 November 2026 by week: Sunday 1 November alone, then 2 and 9 November). The
 * last bucket is cut by the period's end the same way (it simply has no later days).
 *
 * The engine must key its rows by the same starts, or the points and the rows do not meet:
 * - week: `greatest(toMonday(event_date), {from:Date})`; not `toStartOfWeek(event_date)`, whose
 *   default mode starts weeks on Sunday (`toStartOfWeek(event_date, 1)` is Monday's);
 * - month: `greatest(toStartOfMonth(event_date), {from:Date})`;
 * each turned into this module's epoch seconds with `toUnixTimestamp(toDateTime(…, 'Europe/Moscow'))`;
 * - minute: `toStartOfMinute(ts)` (no rollup holds minutes: the raw events answer it);
 * - five_minute, hour, day: as today (Moscow's five minutes and hours are UTC's).
 * {@link bucketStartOf} is that mapping, for one instant, in TypeScript.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Bucket lengths of the groups whose buckets all have the same length, in ms. */
const FIXED: Readonly<Partial<Record<PeriodGroup, number>>> = {
  minute: MINUTE,
  five_minute: 5 * MINUTE,
  hour: 60 * MINUTE,
  day: DAY,
};

/**
 * The starts (epoch seconds) of every bucket of a period in Moscow time, so that a graph
 * spans the period even where nothing happened. `dateStart` and `dateEnd` are the period's
 * first and last Moscow days, `YYYY-MM-DD`.
 */
export function bucketStarts(dateStart: string, dateEnd: string, group: PeriodGroup): number[] {
  const until = moscowDayStart(dateEnd) + DAY;
  const starts: number[] = [];
  for (let t = moscowDayStart(dateStart); t < until; t = nextBucketStart(t, group)) starts.push(t / 1000);
  return starts;
}

/** How many buckets a period has (the length of {@link bucketStarts}), without building them. */
export function bucketCount(dateStart: string, dateEnd: string, group: PeriodGroup): number {
  return periodBucketCount(dateStart, dateEnd, group);
}

/**
 * The start (epoch seconds) of the bucket of a period that holds an instant (epoch seconds),
 * clamped as the buckets are: the first week or month starts on the period's first day,
 * `dateStart` (a Moscow day, `YYYY-MM-DD`). Throws a RangeError for an instant before the
 * period's start, which no bucket of the period holds.
 */
export function bucketStartOf(epochSeconds: number, group: PeriodGroup, dateStart: string): number {
  const periodStart = moscowDayStart(dateStart);
  const at = epochSeconds * 1000;
  if (!(at >= periodStart)) throw new RangeError(`instant ${epochSeconds} is before the period starting ${dateStart}`);
  const fixed = FIXED[group];
  // Moscow's offset is whole hours, so a UTC-aligned minute, five minutes or hour is Moscow's.
  if (fixed !== undefined) return (Math.floor((at + MOSCOW_OFFSET_MS) / fixed) * fixed - MOSCOW_OFFSET_MS) / 1000;
  const day = Math.floor((at + MOSCOW_OFFSET_MS) / DAY) * DAY - MOSCOW_OFFSET_MS;
  const natural = group === 'week' ? mondayOf(day) : firstOfMonth(day);
  return Math.max(natural, periodStart) / 1000;
}

/** Moscow wall-clock time of an instant, written YYYY-MM-DD HH:mm:ss. */
export function moscowDateTime(epochSeconds: number): string {
  return new Date(epochSeconds * 1000 + MOSCOW_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** The Moscow midnight starting the Monday of the week of `dayStart` (a Moscow midnight, ms). */
function mondayOf(dayStart: number): number {
  const weekday = (new Date(dayStart + MOSCOW_OFFSET_MS).getUTCDay() + 6) % 7;
  return dayStart - weekday * DAY;
}

/** The Moscow midnight starting the month of the instant `t` (ms). */
function firstOfMonth(t: number): number {
  const wall = new Date(t + MOSCOW_OFFSET_MS);
  return Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), 1) - MOSCOW_OFFSET_MS;
}

/**
 * Where a bucket starting at `t` (ms) ends by its group alone, which is where the next one
 * starts: a fixed length, the Monday after for a week and the 1st after for a month. A week cut
 * by a period's first day starts after its Monday, so it ends at the next Monday, not 7 days on.
 */
export function nextBucketStart(t: number, group: PeriodGroup): number {
  const fixed = FIXED[group];
  if (fixed !== undefined) return t + fixed;
  if (group === 'week') return mondayOf(t) + 7 * DAY;
  const wall = new Date(t + MOSCOW_OFFSET_MS);
  return Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth() + 1, 1) - MOSCOW_OFFSET_MS;
}
