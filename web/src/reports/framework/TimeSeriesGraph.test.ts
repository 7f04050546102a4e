import { describe, expect, it } from 'vitest';
import type uPlot from 'uplot';
import { bucketTicks, timeSeriesOptions } from './TimeSeriesGraph';

/** Unix seconds of a Moscow midnight. */
const msk = (iso: string) => Date.parse(`${iso}T00:00:00+03:00`) / 1000;
const DAY = 86_400;

/** 30 days by week, 30.10–28.11: a cut first week from Friday, then the Mondays. */
const weeks = ['2026-10-30', '2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23'].map(msk);
const min = weeks[0]!;
const max = weeks[4]!;

describe('bucket ticks (graphs by week or month)', () => {
  it('ticks at every bucket start when they fit, the cut first bucket at its own first day', () => {
    expect(bucketTicks(weeks, min, max, 30 / DAY, 50)).toEqual(weeks);
  });
  it('skips the cut first bucket when it stands too close to the first whole one, and keeps the Mondays', () => {
    // 15 px a day: 30.10 is 45 px before 02.11, the weeks 105 px apart.
    expect(bucketTicks(weeks, min, max, 15 / DAY, 50)).toEqual(weeks.slice(1));
  });
  it('thins too many ticks from the last bucket back, each kept tick a bucket start', () => {
    // 5 px a day: a week is 35 px, two are 70 px.
    expect(bucketTicks(weeks, min, max, 5 / DAY, 50)).toEqual([weeks[0], weeks[2], weeks[4]]);
  });
  it('leaves out starts outside the scale', () => {
    expect(bucketTicks(weeks, weeks[1]!, weeks[3]!, 30 / DAY, 50)).toEqual(weeks.slice(1, 4));
  });
  it('ticks months at their starts, a month cut by the period at the period\u2019s first day', () => {
    const months = ['2026-10-15', '2026-11-01', '2026-12-01'].map(msk);
    expect(bucketTicks(months, months[0]!, months[2]!, 3 / DAY, 50)).toEqual(months);
  });
  it('is the x axis\u2019 splits by week and month, not by day or hour', () => {
    const splitsOf = (group: 'week' | 'month' | 'day' | 'hour') =>
      timeSeriesOptions([], group, () => ({ labelOf: () => undefined, idleLabel: '', idleValues: [] })).axes?.[0]?.splits;
    const u = { data: [weeks] } as unknown as uPlot;
    for (const group of ['week', 'month'] as const) {
      const splits = splitsOf(group);
      expect(typeof splits === 'function' ? splits(u, 0, min, max, 7 * DAY, 7 * 30) : splits).toEqual(weeks);
    }
    expect(splitsOf('day')).toBeUndefined();
    expect(splitsOf('hour')).toBeUndefined();
  });
});
