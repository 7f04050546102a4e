import { describe, expect, it } from 'vitest';
import { bucketCount } from '@stat/schemas/period';
import { firstIncomplete, splitIncomplete } from './incomplete';

/** Epoch ms of a Moscow wall time, `YYYY-MM-DD HH:mm`. */
const msk = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}:00+03:00`);
/** A bucket starting at a Moscow wall time, as the api sends it (Unix seconds). */
const at = (wall: string) => ({ ts: msk(wall) / 1000 });

/** The day buckets of `first` … `last` (Moscow days). */
function days(first: string, last: string): { ts: number }[] {
  const from = msk(`${first} 00:00`);
  return Array.from({ length: (msk(`${last} 00:00`) - from) / 86_400_000 + 1 }, (_v, i) => ({ ts: (from + i * 86_400_000) / 1000 }));
}

// Today is Tuesday 24 November 2026, 14:30 in Moscow.
const NOW = msk('2026-11-24 14:30');

describe('the first bucket not yet over, of a report', () => {
  it('is today, the last, for 7 days by day ending today', () => {
    const week = days('2026-11-18', '2026-11-24');
    expect(firstIncomplete(week, NOW, 'day', '2026-11-24')).toBe(6);
  });

  it('is none for a period that ended yesterday', () => {
    const week = days('2026-11-17', '2026-11-23');
    expect(firstIncomplete(week, NOW, 'day', '2026-11-23')).toBe(7);
  });

  it('is none for a week cut by a period that ended yesterday, though the week itself runs to Sunday', () => {
    // 30 days by week, 25.10–23.11: Sunday 25.10 alone, then the Mondays up to 23.11, whose week
    // ends on 30.11 but whose bucket holds only Monday 23.11.
    const weeks = ['2026-10-25', '2026-10-26', '2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23'].map((d) => at(`${d} 00:00`));
    expect(weeks).toHaveLength(bucketCount('2026-10-25', '2026-11-23', 'week'));
    expect(firstIncomplete(weeks, NOW, 'week', '2026-11-23')).toBe(6);
    // Without the period's end, the week would still be running.
    expect(firstIncomplete(weeks, NOW, 'week')).toBe(5);
  });

  it('is the current month, cut at today, the last', () => {
    const months = ['2026-09-01', '2026-10-01', '2026-11-01'].map((d) => at(`${d} 00:00`));
    expect(firstIncomplete(months, NOW, 'month', '2026-11-24')).toBe(2);
  });

  it('is the 14:00 bucket of today by hour at 14:30, with or without the hours to come', () => {
    const hours = Array.from({ length: 24 }, (_v, h) => at(`2026-11-24 ${String(h).padStart(2, '0')}:00`));
    expect(firstIncomplete(hours.slice(0, 15), NOW, 'hour', '2026-11-24')).toBe(14);
    expect(firstIncomplete(hours, NOW, 'hour', '2026-11-24')).toBe(14);
  });

  it('cuts by the Moscow day, not the UTC one: at 01:30 in Moscow, still 23.11 in UTC, a period ending 23.11 is over', () => {
    const week = days('2026-11-17', '2026-11-23');
    expect(firstIncomplete(week, Date.parse('2026-11-23T22:30:00Z'), 'day', '2026-11-23')).toBe(7);
    // 23:30 in Moscow on the 23rd: still running.
    expect(firstIncomplete(week, Date.parse('2026-11-23T20:30:00Z'), 'day', '2026-11-23')).toBe(6);
  });

  it('counts a bucket over at the very instant it ends, not a millisecond before', () => {
    const week = days('2026-11-17', '2026-11-23');
    expect(firstIncomplete(week, msk('2026-11-24 00:00'), 'day', '2026-11-23')).toBe(7);
    expect(firstIncomplete(week, msk('2026-11-24 00:00') - 1, 'day', '2026-11-23')).toBe(6);
  });

  it('ends December at the new year', () => {
    const months = ['2026-10-01', '2026-11-01', '2026-12-01'].map((d) => at(`${d} 00:00`));
    expect(firstIncomplete(months, msk('2026-12-31 23:59'), 'month', '2026-12-31')).toBe(2);
    expect(firstIncomplete(months, msk('2027-01-01 00:00'), 'month', '2026-12-31')).toBe(3);
  });

  it('is none while the time is unknown, and 0 of no buckets', () => {
    expect(firstIncomplete(days('2026-11-18', '2026-11-24'), undefined, 'day', '2026-11-24')).toBe(7);
    expect(firstIncomplete([], NOW, 'day', '2026-11-24')).toBe(0);
  });
});

describe('the first bucket not yet over, of the live window (no period end)', () => {
  const minutes = [{ ts: 0 }, { ts: 60 }, { ts: 120 }];

  it('is the one whose end, the next start or the last plus its minute, is after now', () => {
    expect(firstIncomplete(minutes, 130_000, 'minute')).toBe(2);
    expect(firstIncomplete(minutes, 179_999, 'minute')).toBe(2);
    expect(firstIncomplete(minutes, 180_000, 'minute')).toBe(3);
    expect(firstIncomplete(minutes, 59_000, 'minute')).toBe(0);
  });

  it('ends a lone bucket by its group, with no neighbour to measure a step by', () => {
    expect(firstIncomplete([{ ts: 0 }], 299_000, 'five_minute')).toBe(0);
    expect(firstIncomplete([{ ts: 0 }], 300_000, 'five_minute')).toBe(1);
  });
});

describe('a line split at its first bucket not yet over', () => {
  const values = [4, 6, 5, 3];

  it('joins the dashed tail to the last whole bucket', () => {
    expect(splitIncomplete(values, 3, false)).toEqual({ whole: [4, 6, 5, null], tail: [null, null, 5, 3] });
  });

  it('gives a bar to one of the two only', () => {
    expect(splitIncomplete(values, 3, true)).toEqual({ whole: [4, 6, 5, null], tail: [null, null, null, 3] });
  });

  it('is all tail when the first bucket is not over', () => {
    expect(splitIncomplete(values, 0, false)).toEqual({ whole: [null, null, null, null], tail: [4, 6, 5, 3] });
  });

  it('has no tail when every bucket is over', () => {
    expect(splitIncomplete(values, 4, false)).toEqual({ whole: [4, 6, 5, 3], tail: null });
  });
});
