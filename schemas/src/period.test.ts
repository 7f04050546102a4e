import { describe, expect, it } from 'vitest';
import {
  ratingDefaultPeriod,
  ratingPeriod,
  addDays,
  allowedGroups,
  bucketCount,
  daysBetween,
  downloadName,
  defaultGroup,
  endOfMonth,
  fitGroup,
  isIsoDate,
  isPeriodGroup,
  PERIOD_GROUPS,
  periodDays,
  resolveDate,
  startOfMonth,
  startOfWeek,
  weekdayMondayFirst,
} from './period.js';

const today = '2025-03-12'; // a Wednesday

describe('calendar arithmetic', () => {
  it('accepts real dates only', () => {
    expect(['2024-02-29', '2025-02-29', '2025-13-01', '2025-1-01', '01.02.2025', ''].map(isIsoDate)).toEqual([true, false, false, false, false, false]);
  });

  it('adds days across months, years and a leap day', () => {
    expect([addDays('2025-01-31', 1), addDays('2025-01-01', -1), addDays('2024-02-28', 1), addDays('2025-03-30', 0)]).toEqual([
      '2025-02-01',
      '2024-12-31',
      '2024-02-29',
      '2025-03-30',
    ]);
  });

  it('counts days between dates, negative backwards', () => {
    expect([
      daysBetween('2025-03-01', '2025-03-01'),
      daysBetween('2025-03-01', '2025-03-31'),
      daysBetween('2025-03-31', '2025-03-01'),
      daysBetween('2024-01-01', '2025-01-01'),
    ]).toEqual([0, 30, -30, 366]);
  });

  it('starts weeks on Monday, across a year end', () => {
    expect([weekdayMondayFirst('2025-03-10'), weekdayMondayFirst('2025-03-16')]).toEqual([0, 6]);
    expect([startOfWeek('2025-03-16'), startOfWeek('2025-03-10'), startOfWeek('2025-01-01')]).toEqual(['2025-03-10', '2025-03-10', '2024-12-30']);
  });

  it('finds month bounds, leap February included', () => {
    expect([startOfMonth('2025-02-17'), endOfMonth('2025-02-17'), endOfMonth('2024-02-01'), endOfMonth('2025-12-05')]).toEqual([
      '2025-02-01',
      '2025-02-28',
      '2024-02-29',
      '2025-12-31',
    ]);
  });

  it('refuses to compute with a malformed date', () => {
    expect(() => addDays('2025-3-1', 1)).toThrow(RangeError);
  });
});

describe('groups', () => {
  it('lists every group of spec §3, finest first', () => {
    expect(PERIOD_GROUPS).toEqual(['minute', 'five_minute', 'hour', 'day', 'week', 'month']);
  });

  it('tells group names from other strings', () => {
    expect(['minute', 'month', 'year', '', null, undefined].map(isPeriodGroup)).toEqual([true, true, false, false, false, false]);
  });
});

describe('resolveDate', () => {
  it('resolves today and yesterday against the given today', () => {
    expect([resolveDate('today', today), resolveDate('yesterday', today)]).toEqual(['2025-03-12', '2025-03-11']);
  });

  it('resolves Ndays as the last N days including today', () => {
    expect([resolveDate('1days', today), resolveDate('7days', today), resolveDate('30days', today), resolveDate('9999days', today)]).toEqual([
      '2025-03-12',
      '2025-03-06',
      '2025-02-11',
      '1997-10-27',
    ]);
  });

  it('accepts a real date up to today', () => {
    expect([resolveDate('2025-03-01', today), resolveDate('2025-03-12', today)]).toEqual(['2025-03-01', '2025-03-12']);
  });

  it('refuses a date in the future', () => {
    expect(resolveDate('2025-03-13', today)).toBeNull();
  });

  it('refuses a date that does not exist', () => {
    expect(resolveDate('2025-02-30', today)).toBeNull();
  });

  it('refuses malformed relative dates', () => {
    expect(['0days', '10000days', '07days', 'days', 'tomorrow', 'Today'].map((p) => resolveDate(p, today))).toEqual([null, null, null, null, null, null]);
  });

  it('refuses a missing date', () => {
    expect([resolveDate('', today), resolveDate(null, today), resolveDate(undefined, today)]).toEqual([null, null, null]);
  });
});

describe('allowedGroups (spec §4)', () => {
  it('offers five_minute or hour for one day', () => {
    expect(allowedGroups(today, today)).toEqual(['five_minute', 'hour']);
  });

  it('offers minute or five_minute for one day seen with the 30-minute detail', () => {
    expect(allowedGroups(today, today, 30)).toEqual(['minute', 'five_minute']);
  });

  it('keeps five_minute or hour for one day with any other detail', () => {
    expect([5, 60, 120, 240, 'today'].map((d) => allowedGroups(today, today, d as 5))).toEqual(Array(5).fill(['five_minute', 'hour']));
  });

  it('ignores the detail for a period longer than a day', () => {
    expect(allowedGroups('2025-03-11', today, 30)).toEqual(['hour', 'day']);
  });

  it('offers hour or day for 2 to 7 days', () => {
    expect([allowedGroups('2025-03-11', today), allowedGroups('2025-03-06', today)]).toEqual([
      ['hour', 'day'],
      ['hour', 'day'],
    ]);
  });

  it('offers day or week for 8 to 31 days', () => {
    expect([allowedGroups('2025-03-05', today), allowedGroups('2025-02-10', today)]).toEqual([
      ['day', 'week'],
      ['day', 'week'],
    ]);
  });

  it('offers day, week or month beyond 31 days', () => {
    expect([allowedGroups('2025-02-09', today), allowedGroups('2024-01-01', today)]).toEqual([
      ['day', 'week', 'month'],
      ['day', 'week', 'month'],
    ]);
  });
});

describe('defaultGroup and fitGroup', () => {
  it('defaults to hour for a day and day for longer', () => {
    expect([defaultGroup(today, today), defaultGroup('2025-03-06', today), defaultGroup('2024-01-01', today)]).toEqual(['hour', 'day', 'day']);
  });

  it('defaults to five_minute for a day seen with a detail', () => {
    expect([defaultGroup(today, today, 30), defaultGroup(today, today, 'today')]).toEqual(['five_minute', 'five_minute']);
  });

  it('keeps an allowed group', () => {
    expect([fitGroup('five_minute', today, today), fitGroup('hour', '2025-03-06', today), fitGroup('month', '2024-01-01', today)]).toEqual([
      'five_minute',
      'hour',
      'month',
    ]);
  });

  it('replaces a group the period does not allow', () => {
    expect([
      fitGroup('day', today, today),
      fitGroup('five_minute', '2025-03-06', today),
      fitGroup('week', '2025-03-06', today),
      fitGroup('month', '2025-02-11', today),
    ]).toEqual(['hour', 'day', 'day', 'day']);
  });

  it('replaces a missing group', () => {
    expect([fitGroup(null, today, today), fitGroup(undefined, '2024-01-01', today)]).toEqual(['hour', 'day']);
  });

  it('turns minute into five_minute when the detail leaves 30 minutes (spec §4)', () => {
    expect([fitGroup('minute', today, today, 30), fitGroup('minute', today, today, 60), fitGroup('minute', today, today)]).toEqual([
      'minute',
      'five_minute',
      'hour',
    ]);
  });
});

describe('bucketCount', () => {
  it('counts the fixed-size buckets of a day', () => {
    expect(['minute', 'five_minute', 'hour', 'day'].map((g) => bucketCount(today, today, g as 'day'))).toEqual([1440, 288, 24, 1]);
  });

  it('counts hours and days of a week', () => {
    expect([bucketCount('2025-03-06', today, 'hour'), bucketCount('2025-03-06', today, 'day'), periodDays('2025-03-06', today)]).toEqual([168, 7, 7]);
  });

  it('counts a week cut by the period as one bucket (1–10 November 2026: Sun, then two Mondays)', () => {
    expect(bucketCount('2026-11-01', '2026-11-10', 'week')).toBe(3);
  });

  it('counts one week for a whole Monday-to-Sunday period', () => {
    expect(bucketCount('2025-03-10', '2025-03-16', 'week')).toBe(1);
  });

  it('counts months cut by the period, across a year end', () => {
    expect(bucketCount('2024-11-30', '2025-03-01', 'month')).toBe(5);
  });
});

describe('the rating report period', () => {
  const today = '2026-11-24';
  it('keeps a period that ends yesterday or earlier', () => {
    expect(ratingPeriod('2026-11-01', '2026-11-23', today)).toEqual({ dateStart: '2026-11-01', dateEnd: '2026-11-23' });
  });
  it('moves a period reaching today back to end yesterday, keeping its length', () => {
    expect(ratingPeriod('2026-11-18', today, today)).toEqual({ dateStart: '2026-11-17', dateEnd: '2026-11-23' });
    expect(ratingPeriod(today, today, today)).toEqual({ dateStart: '2026-11-23', dateEnd: '2026-11-23' });
  });
  it('reads 8 to 2 days back by default', () => {
    expect(ratingDefaultPeriod(today)).toEqual({ dateStart: '2026-11-16', dateEnd: '2026-11-22' });
  });
});

describe('downloadName', () => {
  it('names a download by its title and period, one date for a day', () => {
    expect(downloadName('Источники трафика', '2026-11-01', '2026-11-10', 'csv')).toBe('Источники трафика 2026-11-01 — 2026-11-10.csv');
    expect(downloadName('Воронка Поиск и подписка', '2026-11-28', '2026-11-28', 'png')).toBe('Воронка Поиск и подписка 2026-11-28.png');
  });
});
