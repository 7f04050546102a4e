/**
 * The buckets of a graph that are not over yet: today's, this hour's, this week's. Their counts
 * still grow, so a graph draws them apart (dashed, a pale bar), or a report that runs up to now
 * reads as traffic collapsing today. Pure functions; "now" is always passed in.
 */
import { addDays, type IsoDate, type PeriodGroup } from '@stat/schemas/period';
import { nextBucketStart } from '@stat/schemas/buckets';
import { moscowDayStart } from '@stat/schemas/time';

/** What a graph's legend says of a bucket not yet over. */
export const INCOMPLETE_NOTE = 'неполные данные';

/** The dash (uPlot's, in CSS pixels) of a line into the buckets not yet over. */
export const INCOMPLETE_DASH: readonly number[] = [3, 4];

/**
 * The index of the first bucket not yet over at `nowMs` (the server's time), or `buckets.length`
 * when all are over (or the time is unknown). A bucket ends where the next one starts; the last at
 * its natural end ({@link nextBucketStart}), or at the end of the period's last day when that
 * comes first: a period that ended before today has no bucket still growing, whatever its group.
 *
 * @param buckets the buckets' starts, Unix seconds, ascending
 * @param periodEnd the period's last Moscow day; absent for a window with no end (the dashboard's)
 */
export function firstIncomplete(buckets: readonly { readonly ts: number }[], nowMs: number | undefined, group: PeriodGroup, periodEnd?: IsoDate): number {
  if (nowMs === undefined) return buckets.length;
  const endOf = (i: number): number => {
    const next = buckets[i + 1];
    if (next) return next.ts * 1000;
    const natural = nextBucketStart(buckets[i]!.ts * 1000, group);
    return periodEnd === undefined ? natural : Math.min(natural, moscowDayStart(addDays(periodEnd, 1)));
  };
  const index = buckets.findIndex((_b, i) => endOf(i) > nowMs);
  return index < 0 ? buckets.length : index;
}

/**
 * A line's values split at the first bucket not yet over: the whole buckets (null from `from` on),
 * and the tail from the last whole bucket on (null before it), so that a line joins its dashed
 * tail and a bar stands in one of the two only. `from` past the end: no tail.
 */
export function splitIncomplete(values: readonly (number | null)[], from: number, bars: boolean): { whole: (number | null)[]; tail: (number | null)[] | null } {
  if (from >= values.length) return { whole: [...values], tail: null };
  const start = bars ? from : Math.max(0, from - 1);
  return {
    whole: values.map((v, i) => (i < from ? v : null)),
    tail: values.map((v, i) => (i >= start ? v : null)),
  };
}
