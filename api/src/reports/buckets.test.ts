import { describe, expect, it } from 'vitest';
import { bucketCount, bucketStarts, moscowDateTime } from './buckets.js';

const label = (starts: number[]): string[] => starts.map(moscowDateTime);

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

  it('gives one bucket per day, ends included', () => {
    expect(label(bucketStarts('2026-10-30', '2026-11-02', 'day'))).toEqual([
      '2026-10-30 00:00:00',
      '2026-10-31 00:00:00',
      '2026-11-01 00:00:00',
      '2026-11-02 00:00:00',
    ]);
  });

  it('starts weeks on Monday, a week cut by the period at its first day', () => {
    // 2026-11-21 is a Saturday: its week is the 21st and 22nd only, the next begins on Monday the 23rd.
    expect(label(bucketStarts('2026-11-21', '2026-11-24', 'week'))).toEqual(['2026-11-21 00:00:00', '2026-11-23 00:00:00']);
  });

  it('starts months on the first, a month cut by the period at its first day, across a year end', () => {
    expect(label(bucketStarts('2026-11-15', '2027-01-03', 'month'))).toEqual([
      '2026-11-15 00:00:00',
      '2026-12-01 00:00:00',
      '2027-01-01 00:00:00',
    ]);
  });
});

describe('bucketCount', () => {
  it('counts without building', () => {
    expect(bucketCount('2026-11-01', '2026-11-30', 'five_minute')).toBe(30 * 288);
    expect(bucketCount('2026-11-01', '2026-11-30', 'hour')).toBe(720);
    expect(bucketCount('2026-11-01', '2026-11-30', 'day')).toBe(30);
  });
});
