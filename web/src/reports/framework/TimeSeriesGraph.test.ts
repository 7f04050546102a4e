import { describe, expect, it } from 'vitest';
import type uPlot from 'uplot';
import { paletteColor } from '../../lib/palette';
import { metricColumns } from '../view';
import { bucketTicks, NO_LEGEND, timeSeriesOptions, type LegendSource } from './TimeSeriesGraph';

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
      timeSeriesOptions([], group, () => NO_LEGEND).axes?.[0]?.splits;
    const u = { data: [weeks] } as unknown as uPlot;
    for (const group of ['week', 'month'] as const) {
      const splits = splitsOf(group);
      expect(typeof splits === 'function' ? splits(u, 0, min, max, 7 * DAY, 7 * 30) : splits).toEqual(weeks);
    }
    expect(splitsOf('day')).toBeUndefined();
    expect(splitsOf('hour')).toBeUndefined();
  });
});

describe('the summary graph with a bucket not yet over', () => {
  const metrics = metricColumns(['visits', 'page_views']);
  // Three days, the last (24.11) today: the graph's data holds it only in the tails.
  const values = [
    [10, 12, 3],
    [40, 44, 9],
  ];
  const legend: LegendSource = {
    labelOf: (ts) => ({ 1: '22.11.2026', 2: '23.11.2026', 3: '24.11.2026' })[ts],
    idleLabel: '22.11.2026 – 24.11.2026',
    idleValues: [25, 93],
    valueAt: (metric, idx) => values[metric]?.[idx] ?? null,
    incompleteFrom: 2,
  };
  const options = timeSeriesOptions(metrics, 'day', () => legend, true);
  const u = {} as uPlot;
  // uPlot calls a legend's formatter with a null value while nothing is hovered, which its types leave out.
  const valueOf = (series: number, raw: number | null, idx: number | null) => {
    const format = options.series[series]?.value;
    return typeof format === 'function' ? format(u, raw as number, series, idx) : format;
  };

  it('draws each metric on dashed into it, in its own colour, after the whole lines', () => {
    expect(options.series.map((s) => [s.label, s.stroke, s.dash ?? null])).toEqual([
      ['Дата', undefined, null],
      ['Визиты', paletteColor(0), null],
      ['Просмотры', paletteColor(1), null],
      ['Визиты (неполные данные)', paletteColor(0), [3, 4]],
      ['Просмотры (неполные данные)', paletteColor(1), [3, 4]],
    ]);
    // The tails are out of the legend (their class hides their rows).
    expect(options.series.map((s) => s.class !== undefined)).toEqual([false, false, false, true, true]);
  });

  it('shows the hovered bucket\'s real values though the whole line leaves it out, and says it is not over', () => {
    // The whole lines hold null at today's index; the legend reads the points.
    expect([valueOf(0, 3, 2), valueOf(1, null, 2), valueOf(2, null, 2)]).toEqual(['24.11.2026 · неполные данные', '3', '9']);
    expect([valueOf(0, 2, 1), valueOf(1, 12, 1), valueOf(2, 44, 1)]).toEqual(['23.11.2026', '12', '44']);
  });

  it('shows the period and its totals while nothing is hovered', () => {
    expect([valueOf(0, null, null), valueOf(1, null, null), valueOf(2, null, null)]).toEqual(['22.11.2026 – 24.11.2026', '25', '93']);
  });

  it('hides and shows a metric\'s tail with its line', () => {
    const shown: [number, boolean | undefined][] = [];
    const chart = { series: options.series, setSeries: (i: number, opts: { show?: boolean }) => shown.push([i, opts.show]) } as unknown as uPlot;
    const [hook] = options.hooks?.setSeries ?? [];
    hook?.(chart, 2, { show: false });
    // A focus, or the tail itself (set without the hook), moves nothing.
    hook?.(chart, 1, { focus: true } as uPlot.Series);
    hook?.(chart, 4, { show: true });
    expect(shown).toEqual([[4, false]]);
  });

  it('has no tails, and no hook, when every bucket is over', () => {
    const whole = timeSeriesOptions(metrics, 'day', () => legend);
    expect(whole.series).toHaveLength(3);
    expect(whole.hooks).toBeUndefined();
  });
});
