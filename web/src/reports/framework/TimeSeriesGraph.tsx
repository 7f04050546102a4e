import { useMemo, useRef } from 'react';
import uPlot from 'uplot';
import { UPlotChart } from '../../components/UPlotChart';
import { formatIsoDate, MONTHS_NOMINATIVE, MONTHS_SHORT, moscowWallDate, WEEKDAYS, WEEKDAYS_SHORT } from '../../lib/dates';
import { formatNumber } from '../../lib/format';
import { paletteColor, withAlpha } from '../../lib/palette';
import type { PeriodGroup } from '@stat/schemas/period';
import { formatBucket, type Period } from '../../lib/period';
import type { ReportMetric } from '../view';
import { INCOMPLETE_DASH, INCOMPLETE_NOTE, splitIncomplete } from './incomplete';
import styles from './TimeSeriesGraph.module.css';
import graphBox from './graphBox.module.css';

/** Height reserved for uPlot's legend row under the canvas, so the card never changes height. */
const LEGEND_HEIGHT = 36;

const RU_DATE_NAMES: uPlot.DateNames = {
  MMMM: [...MONTHS_NOMINATIVE],
  MMM: [...MONTHS_SHORT],
  WWWW: [...WEEKDAYS],
  WWW: [...WEEKDAYS_SHORT],
};

const MIN = 60;
const HOUR = 3600;
const DAY = 86400;
const _ = null;

type Stamps = (string | number | null)[][];

/**
 * Time axis labels in Russian, 24-hour (uPlot's default is US style). Columns: tick increment
 * (seconds), default template, then the template used when the year, month, day, hour, minute or
 * second changes at the tick, then mode. uPlot takes the last row whose increment fits.
 */
const TIME_AXIS_VALUES: Stamps = [
  [DAY * 365, '{YYYY}', _, _, _, _, _, _, 1],
  [DAY * 28, '{MMM}', '\n{YYYY}', _, _, _, _, _, 1],
  [DAY, '{D} {MMM}', '\n{YYYY}', _, _, _, _, _, 1],
  [HOUR, '{HH}:{mm}', '\n{D} {MMM} {YYYY}', _, '\n{D} {MMM}', _, _, _, 1],
  [MIN, '{HH}:{mm}', '\n{D} {MMM} {YYYY}', _, '\n{D} {MMM}', _, _, _, 1],
];

/** A week is labelled by its first day, whatever the tick step. */
const WEEK_AXIS_VALUES: Stamps = [[DAY, '{D} {MMM}', '\n{YYYY}', _, _, _, _, _, 1]];

/** A month is labelled by its name, whatever the tick step (a tick a year apart is not «2026»). */
const MONTH_AXIS_VALUES: Stamps = [[DAY, '{MMM}', '\n{YYYY}', _, _, _, _, _, 1]];

const MONTH = DAY * 30;
const YEAR = DAY * 365;

/**
 * Tick steps of the time axis per group: never finer than a bucket (no «06:00» ticks on a graph
 * by day), and weeks in whole weeks so that ticks stay on bucket starts.
 */
const TIME_INCRS: Readonly<Record<PeriodGroup, number[]>> = {
  minute: [MIN, MIN * 5, MIN * 10, MIN * 15, MIN * 30, HOUR, HOUR * 2, HOUR * 3, HOUR * 6, HOUR * 12, DAY],
  five_minute: [MIN * 5, MIN * 10, MIN * 15, MIN * 30, HOUR, HOUR * 2, HOUR * 3, HOUR * 4, HOUR * 6, HOUR * 12, DAY],
  hour: [HOUR, HOUR * 2, HOUR * 3, HOUR * 4, HOUR * 6, HOUR * 12, DAY, DAY * 2, DAY * 7],
  day: [DAY, DAY * 2, DAY * 3, DAY * 7, DAY * 14, MONTH, MONTH * 2, MONTH * 3, MONTH * 6, YEAR],
  week: [DAY * 7, DAY * 14, DAY * 28, DAY * 56, DAY * 91, DAY * 182, DAY * 364],
  month: [MONTH, MONTH * 2, MONTH * 3, MONTH * 6, YEAR, YEAR * 2],
};

/**
 * Where the time axis ticks on a graph by week or month: at the buckets' own starts, so that each
 * label stands at its point. A bucket cut by the period's edge starts on the period's first day,
 * not on a Monday or the 1st, and uPlot's calendar steps, counted from the scale's minimum, miss
 * the others too. When they do not all fit, walks from the last bucket back and skips a start
 * closer than `space` px to the tick kept after it: the whole buckets keep their ticks before a
 * cut first one does.
 *
 * @param starts the buckets' starts, ascending (the graph's x values)
 * @param pxPerUnit CSS pixels per x unit
 * @param space the least distance between two ticks, in CSS pixels
 */
export function bucketTicks(starts: ArrayLike<number>, min: number, max: number, pxPerUnit: number, space: number): number[] {
  const ticks: number[] = [];
  let next = Infinity;
  for (let i = starts.length - 1; i >= 0; i--) {
    const x = starts[i];
    if (x === undefined || x < min || x > max) continue;
    if ((next - x) * pxPerUnit < space) continue;
    ticks.push(x);
    next = x;
  }
  return ticks.reverse();
}

/** Tick steps of the value axis: counts, so 1-2-5 steps from 1 on. */
const COUNT_INCRS: number[] = Array.from({ length: 14 * 3 }, (_v, i) => [1, 2, 5][i % 3]! * 10 ** Math.floor(i / 3));

/** One bucket of a time series: values in the order of the graph's metrics (null: not drawn). */
export interface TimePoint {
  /** Unix seconds of the bucket's start. */
  readonly ts: number;
  /** Moscow wall time of the bucket's start, `YYYY-MM-DD HH:mm:ss`. */
  readonly date: string;
  readonly metrics: readonly (number | null)[];
}

/** What the legend shows: the hovered bucket's label, or, with no bucket hovered, the totals. */
export interface LegendSource {
  labelOf(ts: number): string | undefined;
  /** The legend's date while nothing is hovered (the period). */
  readonly idleLabel: string;
  /** The legend's values while nothing is hovered (the period's totals), by metric. */
  readonly idleValues: readonly (number | null)[];
  /**
   * A bucket's value of a metric (by their indices), read from the points rather than from the
   * drawn series: a bucket not yet over is drawn by a tail series whose legend row is hidden.
   */
  valueAt(metric: number, idx: number): number | null;
  /** The first bucket not yet over (the buckets' count when none): hovered, its label says so. */
  readonly incompleteFrom: number;
}

/** A legend with nothing to show, for a graph that draws its own (LinesGraph). */
export const NO_LEGEND: LegendSource = { labelOf: () => undefined, idleLabel: '', idleValues: [], valueAt: () => null, incompleteFrom: 0 };

/** Props of {@link TimeSeriesGraph}. */
export interface TimeSeriesGraphProps {
  /** The buckets; undefined until the first answer. */
  readonly points: readonly TimePoint[] | undefined;
  /** The lines, in the order of each point's `metrics`. */
  readonly metrics: readonly ReportMetric[];
  /** Totals over the period by metric, shown in the legend while no bucket is hovered. */
  readonly totals: readonly (number | null)[] | undefined;
  readonly period: Pick<Period, 'start' | 'end' | 'group'>;
  /** A newer answer is on its way (the current lines are dimmed, not removed). */
  readonly loading: boolean;
  /** Height of the plotting area (spec 001 §9: 217 below a body width of 1275, else 320). */
  readonly height: number;
  /**
   * The first bucket not yet over (its index in `points`), when the period runs up to now: from
   * the bucket before it on, each metric's line goes on dashed, so that today's count still
   * growing does not read as a fall (as LinesGraph draws it). Absent or past the end: all whole.
   */
  readonly incompleteFrom?: number;
  readonly testId?: string;
}

/** A line graph of metrics over time buckets, x axis in Moscow time. */
export function TimeSeriesGraph({ points, metrics, totals, period, loading, height, incompleteFrom, testId }: TimeSeriesGraphProps) {
  // Read by the legend's formatters, so that new data needs no new chart.
  const legendRef = useRef<LegendSource>(NO_LEGEND);
  const metricKey = metrics.map((m) => `${m.name}:${m.title}`).join('|');
  const incomplete = points !== undefined && incompleteFrom !== undefined && incompleteFrom < points.length;

  const data = useMemo<uPlot.AlignedData | null>(() => {
    if (!points) return null;
    const labels = new Map<number, string>();
    for (const p of points) labels.set(p.ts, formatBucket(p.date, period.group, period));
    const values = metrics.map((_m, i) => points.map((p) => p.metrics[i] ?? null));
    const from = incomplete && incompleteFrom !== undefined ? incompleteFrom : points.length;
    legendRef.current = {
      labelOf: (ts) => labels.get(ts),
      idleLabel: period.start === period.end ? formatIsoDate(period.start) : `${formatIsoDate(period.start)} – ${formatIsoDate(period.end)}`,
      idleValues: totals ?? [],
      valueAt: (metric, idx) => values[metric]?.[idx] ?? null,
      incompleteFrom: from,
    };
    const xs = points.map((p) => p.ts);
    if (!incomplete) return [xs, ...values];
    const split = values.map((v) => splitIncomplete(v, from, false));
    return [xs, ...split.map((s) => s.whole), ...split.map((s) => s.tail ?? [])];
    // metricKey stands for metrics.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [points, totals, metricKey, period.group, period.start, period.end, incomplete, incompleteFrom]);

  const options = useMemo(
    () => timeSeriesOptions(metrics, period.group, () => legendRef.current, incomplete),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [metricKey, period.group, incomplete],
  );

  const boxStyle = { height: height + LEGEND_HEIGHT };
  if (!data) {
    return (
      <div className={styles.box} style={boxStyle} aria-busy="true">
        <span className={`skeleton ${styles.skeletonLegend}`} />
        <span className={`skeleton ${graphBox.skeletonPlot}`} />
      </div>
    );
  }
  if (data[0].length === 0) {
    return (
      <div className={`${styles.box} ${graphBox.empty}`} style={boxStyle}>
        Нет данных для отображения
      </div>
    );
  }
  return (
    <div
      className={loading ? `${styles.box} ${graphBox.loading}` : styles.box}
      style={boxStyle}
      aria-busy={loading}
      data-incomplete-from={incomplete ? incompleteFrom : undefined}
    >
      <UPlotChart options={options} data={data} height={height} className={styles.chart} testId={testId} />
    </div>
  );
}

/**
 * uPlot options of a time series graph: one line per metric, values formatted the app's way.
 * With `incomplete`, one more line per metric after them, the dashed tail of the buckets not yet
 * over (the data then holds the whole buckets' lines, then the tails: see splitIncomplete). The
 * tails have no legend rows of their own: a metric's row shows the hovered bucket's value from
 * the points, tail or not, and hides or shows its tail with it.
 */
export function timeSeriesOptions(
  metrics: readonly ReportMetric[],
  group: PeriodGroup,
  legend: () => LegendSource,
  incomplete = false,
): Omit<uPlot.Options, 'width' | 'height'> {
  const fine = group === 'minute' || group === 'five_minute' || group === 'hour';
  const byBucket = group === 'week' || group === 'month';
  const xSpace = fine ? 60 : 50;
  return {
    tzDate: (ts) => moscowWallDate(ts * 1000),
    fmtDate: (tpl) => uPlot.fmtDate(tpl, RU_DATE_NAMES),
    padding: [12, 28, 0, 4],
    cursor: {
      drag: { x: false, y: false },
      points: { size: 8, width: 2 },
      focus: { prox: 24 },
    },
    focus: { alpha: 0.35 },
    legend: {
      live: true,
      markers: { width: 0, fill: (_u, i) => paletteColor(i - 1) },
    },
    scales: {
      x: { time: true },
      y: { range: (_u, _min, max) => uPlot.rangeNum(0, max > 0 ? max : 1, 0.1, true) },
    },
    axes: [
      {
        values: group === 'week' ? WEEK_AXIS_VALUES : group === 'month' ? MONTH_AXIS_VALUES : TIME_AXIS_VALUES,
        incrs: TIME_INCRS[group],
        ...(byBucket
          ? {
              splits: (u: uPlot, _axis: number, min: number, max: number, incr: number, space: number) =>
                bucketTicks(u.data[0], min, max, space / incr, xSpace),
            }
          : {}),
        stroke: '#6b7085',
        grid: { show: false },
        ticks: { stroke: '#e3e5ee', size: 4 },
        font: '12px system-ui, sans-serif',
        space: xSpace,
      },
      {
        values: (_u, splits) => splits.map((v) => formatNumber(v)),
        incrs: COUNT_INCRS,
        stroke: '#6b7085',
        grid: { stroke: '#eef0f4', width: 1 },
        ticks: { show: false },
        font: '12px system-ui, sans-serif',
        size: 64,
        space: 36,
      },
    ],
    series: [
      {
        label: fine ? 'Время' : 'Дата',
        value: (_u, ts, _s, idx) => (ts == null ? legend().idleLabel : bucketLabel(legend(), ts, idx)),
      },
      ...metrics.map((m, i) => {
        const color = paletteColor(i);
        return {
          label: m.title,
          stroke: color,
          width: 2,
          fill: i === 0 ? withAlpha(color, 0.07) : undefined,
          points: { size: 5, fill: '#fff', width: 1.5 },
          value: (_u: uPlot, _v: number | null, _s: number, idx: number | null) => {
            if (idx == null) return formatNumber(legend().idleValues[i]);
            const v = legend().valueAt(i, idx);
            return v == null ? '—' : formatNumber(v);
          },
        } satisfies uPlot.Series;
      }),
      ...(incomplete ? metrics.map((m, i) => incompleteTail(m, i)) : []),
    ],
    ...(incomplete ? { hooks: { setSeries: [showTailWithLine(metrics.length)] } } : {}),
  };
}

/** The hovered bucket's label, and «неполные данные» after it for a bucket not yet over. */
function bucketLabel(legend: LegendSource, ts: number, idx: number | null): string {
  const label = legend.labelOf(ts) ?? '—';
  return idx != null && idx >= legend.incompleteFrom ? `${label} · ${INCOMPLETE_NOTE}` : label;
}

/** The dashed line of metric `i` into the buckets not yet over, in its colour, out of the legend. */
function incompleteTail(metric: ReportMetric, i: number): uPlot.Series {
  const color = paletteColor(i);
  return {
    label: `${metric.title} (${INCOMPLETE_NOTE})`,
    class: styles.tail,
    stroke: color,
    width: 2,
    dash: [...INCOMPLETE_DASH],
    fill: i === 0 ? withAlpha(color, 0.04) : undefined,
    points: { size: 5, fill: '#fff', width: 1.5 },
  };
}

/**
 * A click on a metric's legend row hides or shows its tail too (the tail, `lines` series on, has
 * no row to click). Set without firing the hook again.
 */
function showTailWithLine(lines: number): (u: uPlot, seriesIdx: number | null, opts: uPlot.Series) => void {
  return (u, seriesIdx, opts) => {
    if (seriesIdx === null || seriesIdx < 1 || seriesIdx > lines || opts.show === undefined) return;
    if (u.series[seriesIdx + lines]) u.setSeries(seriesIdx + lines, { show: opts.show }, false);
  };
}
