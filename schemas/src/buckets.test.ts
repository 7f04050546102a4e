import fc from 'fast-check';
import { PERIOD_GROUPS, type PeriodGroup } from './period.js';
import { describe, expect, it } from 'vitest';
import { bucketCount, bucketStartOf, bucketStarts, moscowDateTime, nextBucketStart } from './buckets.js';

const label = (starts: number[]): string[] => starts.map(moscowDateTime);
/** Epoch seconds of a Moscow wall time `YYYY-MM-DD HH:mm:ss`. */
const moscow = (wall: string): number => Date.parse(`${wall.replace(' ', 'T')}+03:00`) / 1000;

describe('bucketStarts in Moscow time', () => {
  it('cuts a day into 24 hours starting at Moscow midnight (21:00 UTC the day before)', () => {
    const hours = bucketStarts('2026-11-21', '2026-11-21', 'hour');
    expect(hours).toHaveLength(24);
    expect(new Date(hours[0]! * 1000).toISOString()).toBe('2026-11-20T21:00:00.000Z');
    expect(label(hours).at(-1)).toBe('2026-11-21 23:00:00');
  });

  it('cuts a day into 288 five-minute buckets', () => {
    const buckets = label(bucketStarts('2026-11-21', '2026-11-21', 'five_minute'));
    expect(buckets).toHaveLength(288);
    expect(buckets.slice(0, 2)).toEqual(['2026-11-21 00:00:00', '2026-11-21 00:05:00']);
  });

  it('cuts a day into 1 440 minutes', () => {
    const buckets = label(bucketStarts('2026-11-21', '2026-11-21', 'minute'));
    expect(buckets).toHaveLength(1440);
    expect([...buckets.slice(0, 2), buckets.at(-1)]).toEqual(['2026-11-21 00:00:00', '2026-11-21 00:01:00', '2026-11-21 23:59:00']);
  });

  it('gives one bucket per day, ends included', () => {
    expect(label(bucketStarts('2026-10-30', '2026-11-02', 'day'))).toEqual([
      '2026-10-30 00:00:00',
      '2026-10-31 00:00:00',
      '2026-11-01 00:00:00',
      '2026-11-02 00:00:00',
    ]);
  });

  it('starts the first week on the period\'s first day when the period begins after a Monday', () => {
    // 2026-11-01 is a Sunday: its week began on Monday 26 October, outside the period.
    expect(label(bucketStarts('2026-11-01', '2026-11-10', 'week'))).toEqual([
      '2026-11-01 00:00:00',
      '2026-11-02 00:00:00',
      '2026-11-09 00:00:00',
    ]);
  });

  it('starts weeks on Monday when the period begins on one', () => {
    expect(label(bucketStarts('2026-11-02', '2026-11-16', 'week'))).toEqual(['2026-11-02 00:00:00', '2026-11-09 00:00:00', '2026-11-16 00:00:00']);
  });

  it('gives one week for a period inside one week', () => {
    expect(label(bucketStarts('2026-11-04', '2026-11-06', 'week'))).toEqual(['2026-11-04 00:00:00']);
  });

  it('starts the first month on the period\'s first day, later months on the 1st, across a year end', () => {
    expect(label(bucketStarts('2026-11-15', '2027-01-03', 'month'))).toEqual([
      '2026-11-15 00:00:00',
      '2026-12-01 00:00:00',
      '2027-01-01 00:00:00',
    ]);
  });

  it('starts months on the 1st when the period begins on one', () => {
    expect(label(bucketStarts('2026-12-01', '2027-02-28', 'month'))).toEqual(['2026-12-01 00:00:00', '2027-01-01 00:00:00', '2027-02-01 00:00:00']);
  });
});

describe('bucketCount', () => {
  it('counts without building', () => {
    expect(['minute', 'five_minute', 'hour', 'day', 'week', 'month'].map((g) => bucketCount('2026-11-01', '2026-11-30', g as PeriodGroup))).toEqual([
      30 * 1440,
      30 * 288,
      720,
      30,
      6,
      1,
    ]);
  });
});

describe('bucketStartOf', () => {
  const of = (wall: string, group: PeriodGroup, dateStart: string): string => moscowDateTime(bucketStartOf(moscow(wall), group, dateStart));

  it('maps an instant to its minute, five minutes and hour', () => {
    expect(['minute', 'five_minute', 'hour'].map((g) => of('2026-11-05 12:34:56', g as PeriodGroup, '2026-11-01'))).toEqual([
      '2026-11-05 12:34:00',
      '2026-11-05 12:30:00',
      '2026-11-05 12:00:00',
    ]);
  });

  it('maps the last second of a Moscow day to that day, not to UTC\'s', () => {
    expect(of('2026-11-05 23:59:59', 'day', '2026-11-01')).toBe('2026-11-05 00:00:00');
  });

  it('maps Moscow midnight (21:00 UTC) to the new day', () => {
    expect(moscowDateTime(bucketStartOf(Date.parse('2026-11-05T21:00:00Z') / 1000, 'day', '2026-11-01'))).toBe('2026-11-06 00:00:00');
  });

  it('clamps the first week to the period\'s first day', () => {
    expect(of('2026-11-01 18:00:00', 'week', '2026-11-01')).toBe('2026-11-01 00:00:00');
  });

  it('maps a later instant to its Monday', () => {
    expect(of('2026-11-08 23:59:59', 'week', '2026-11-01')).toBe('2026-11-02 00:00:00');
  });

  it('clamps the first month to the period\'s first day and maps later ones to the 1st', () => {
    expect([of('2026-11-20 10:00:00', 'month', '2026-11-15'), of('2026-12-05 10:00:00', 'month', '2026-11-15')]).toEqual([
      '2026-11-15 00:00:00',
      '2026-12-01 00:00:00',
    ]);
  });

  it('keeps fractions of a second in their bucket', () => {
    expect(moscowDateTime(bucketStartOf(moscow('2026-11-05 12:34:59') + 0.999, 'minute', '2026-11-01'))).toBe('2026-11-05 12:34:00');
  });

  it('refuses an instant before the period', () => {
    expect(() => bucketStartOf(moscow('2026-10-31 23:59:59'), 'week', '2026-11-01')).toThrow(RangeError);
  });

  it('agrees with bucketStarts and bucketCount for any period, group and instant in it', () => {
    const DAY_S = 86_400;
    const base = moscow('2024-01-01 00:00:00');
    const iso = (dayIndex: number): string => moscowDateTime(base + dayIndex * DAY_S).slice(0, 10);
    const periods = fc
      .record({ from: fc.integer({ min: 0, max: 1500 }), days: fc.integer({ min: 1, max: 120 }), group: fc.constantFrom(...PERIOD_GROUPS), second: fc.nat({ max: 120 * DAY_S - 1 }) })
      // Minutes over months build too many buckets for a quick test; six days cover their edges.
      .filter(({ days, group }) => group !== 'minute' || days <= 6);
    fc.assert(
      fc.property(periods, ({ from, days, group, second }) => {
        const dateStart = iso(from);
        const dateEnd = iso(from + days - 1);
        const starts = bucketStarts(dateStart, dateEnd, group);
        expect(starts).toHaveLength(bucketCount(dateStart, dateEnd, group));
        expect(starts.map((s) => bucketStartOf(s, group, dateStart))).toEqual(starts);
        const instant = base + from * DAY_S + (second % (days * DAY_S));
        const expected = starts.filter((s) => s <= instant).at(-1);
        expect(bucketStartOf(instant, group, dateStart)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('where a bucket ends by its group alone', () => {
  const end = (wall: string, group: PeriodGroup) => new Date(nextBucketStart(moscow(`${wall}:00`) * 1000, group)).toISOString();

  it('adds the fixed length of minutes, five minutes, hours and days', () => {
    expect(end('2026-11-24 14:05', 'minute')).toBe('2026-11-24T11:06:00.000Z');
    expect(end('2026-11-24 14:05', 'five_minute')).toBe('2026-11-24T11:10:00.000Z');
    expect(end('2026-11-24 14:00', 'hour')).toBe('2026-11-24T12:00:00.000Z');
    expect(end('2026-11-24 00:00', 'day')).toBe('2026-11-24T21:00:00.000Z');
  });

  it('ends a week on the Monday after, a week cut by the period\u2019s first day too', () => {
    expect(end('2026-11-23 00:00', 'week')).toBe('2026-11-29T21:00:00.000Z');
    expect(end('2026-10-25 00:00', 'week')).toBe('2026-10-25T21:00:00.000Z');
  });

  it('ends a month on the 1st after, whatever its length', () => {
    expect(end('2026-02-01 00:00', 'month')).toBe('2026-02-28T21:00:00.000Z');
    expect(end('2026-10-15 00:00', 'month')).toBe('2026-10-31T21:00:00.000Z');
  });
});
