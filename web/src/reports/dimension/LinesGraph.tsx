import { useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import { AddressText } from '../../components/AddressLink';
import { UPlotChart } from '../../components/UPlotChart';
import { formatAxisTicks, formatMetric } from '../../lib/format';
import { paletteColor, withAlpha } from '../../lib/palette';
import { formatBucket, type Period } from '../../lib/period';
import { INCOMPLETE_DASH, INCOMPLETE_NOTE, splitIncomplete } from '../framework/incomplete';
import { NO_LEGEND, timeSeriesOptions } from '../framework/TimeSeriesGraph';
import type { ReportMetric } from '../view';
import type { ChartType } from './state';
import styles from './LinesGraph.module.css';
import graphBox from '../framework/graphBox.module.css';

/** The colour of the «Итого» line: apart from the palette, so it never looks like a row's. */
const TOTAL_COLOR = '#23263A';

/** One line of the graph: a table row, or the whole report («Итого», colorIndex null). */
export interface GraphSeries {
  readonly id: string;
  readonly title: string;
  /** Palette index; null for the «Итого» line. */
  readonly colorIndex: number | null;
  /** Values by bucket, aligned with the graph's `ts`. */
  readonly values: readonly (number | null)[];
}

/** Props of {@link LinesGraph}. */
export interface LinesGraphProps {
  /** Bucket starts (Unix seconds) and their Moscow wall times; undefined until the first answer. */
  readonly buckets: readonly { readonly ts: number; readonly date: string }[] | undefined;
  readonly lines: readonly GraphSeries[];
  /** The metric drawn. */
  readonly metric: ReportMetric;
  readonly period: Pick<Period, 'start' | 'end' | 'group'>;
  /**
   * The scheme and host the table's addresses share: the legend leaves it out of the lines' titles
   * as the table does its rows' (addresses.ts); null or absent, each address whole.
   */
  readonly origin?: string | null;
  readonly loading: boolean;
  /** Height of the plotting area (spec 001 §9: 217 below a body width of 1275, else 320). */
  readonly height: number;
  /** How the lines draw (a pie is {@link PieGraph}'s); line by default. */
  readonly chartType?: Exclude<ChartType, 'pie'>;
  /** The values are shares of «Итого», 0..100. */
  readonly percent?: boolean;
  /**
   * The first bucket not yet over (its index in `buckets`), when the period runs up to now: from
   * there on the lines are drawn dashed (bars paler), so that the current minute's few page views
   * read as a count still growing, not as a fall. Absent or past the end: every bucket is whole.
   */
  readonly incompleteFrom?: number;
  readonly testId?: string;
}

/** Tick steps of the value axis: 1-2-5 from `from` on (counts from 1, other units from 0.01). */
function steps(from: number): number[] {
  return Array.from({ length: 16 * 3 }, (_v, i) => Number(([1, 2, 5][i % 3]! * from * 10 ** Math.floor(i / 3)).toPrecision(2)));
}
const COUNT_STEPS = steps(1);
const FINE_STEPS = steps(0.01);
/** Durations tick on whole seconds, minutes and hours. */
const SECOND_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400, 28_800, 86_400];

/** Height kept for the legend under the canvas: two rows, so that hovering never moves the page. */
const LEGEND_HEIGHT = 52;

function colorOf(line: Pick<GraphSeries, 'colorIndex'>): string {
  return line.colorIndex === null ? TOTAL_COLOR : paletteColor(line.colorIndex);
}

/** Share of a bucket's width that its group of bars takes; the rest is the gap to the next. */
const BAR_GROUP = 0.8;

/** The smallest distance between bucket starts (a month or week bucket may be shorter than others). */
function bucketStep(xs: ArrayLike<number>): number {
  let step = Infinity;
  for (let i = 1; i < xs.length; i++) step = Math.min(step, (xs[i] ?? 0) - (xs[i - 1] ?? 0));
  return Number.isFinite(step) && step > 0 ? step : 3600;
}

/**
 * Bars of line `slot` of `slots`, side by side in each bucket (uPlot's bars with a display
 * layout: left edge and width in x units, so that the bars of one bucket never overlap).
 */
function groupedBars(slot: number, slots: number): uPlot.Series.PathBuilder {
  const widthOf = (u: uPlot) => (bucketStep(u.data[0]) * BAR_GROUP) / slots;
  const bars = uPlot.paths.bars;
  if (!bars) throw new Error('uPlot without bars');
  return bars({
    disp: {
      x0: { unit: 1, values: (u) => Array.from(u.data[0], (x) => x - (bucketStep(u.data[0]) * BAR_GROUP) / 2 + slot * widthOf(u)) },
      size: { unit: 1, values: (u) => Array.from(u.data[0], () => widthOf(u)) },
    },
  });
}

/**
 * The uPlot series of the lines for a chart type: one per line, then, when some buckets are not
 * over (`incomplete`), one more per line for them (see {@link splitIncomplete}): dashed, or a
 * pale bar with a dashed outline, in the line's own colour.
 */
function seriesOf(lines: readonly GraphSeries[], chartType: Exclude<ChartType, 'pie'>, incomplete: boolean): uPlot.Series[] {
  const whole = lines.map<uPlot.Series>((line, slot) => {
    const color = colorOf(line);
    const total = line.colorIndex === null;
    const common = { label: line.title, stroke: color };
    if (chartType === 'bar') {
      return { ...common, width: 0, fill: total ? withAlpha(color, 0.35) : color, paths: groupedBars(slot, lines.length), points: { show: false } };
    }
    return {
      ...common,
      width: total ? 2.5 : 2,
      ...(total ? { dash: [6, 4] } : {}),
      // Areas under the rows, never under «Итого», which would cover them all.
      fill: chartType === 'area' && !total ? withAlpha(color, 0.14) : lines.length === 1 ? withAlpha(color, 0.07) : undefined,
      points: { size: 5, fill: '#fff', width: 1.5 },
    };
  });
  if (!incomplete) return whole;
  const tails = lines.map<uPlot.Series>((line, slot) => {
    const color = colorOf(line);
    const total = line.colorIndex === null;
    const common = { label: `${line.title} (${INCOMPLETE_NOTE})`, stroke: color, dash: [...INCOMPLETE_DASH] };
    if (chartType === 'bar') {
      return { ...common, width: 1, fill: withAlpha(color, 0.18), paths: groupedBars(slot, lines.length), points: { show: false } };
    }
    // Paler than the whole line's fill, and, as there, never under «Итого» among areas.
    const fill = chartType === 'area' && !total ? withAlpha(color, 0.06) : lines.length === 1 ? withAlpha(color, 0.04) : undefined;
    return { ...common, width: 2, fill, points: { size: 5, fill: '#fff', width: 1.5 } };
  });
  return [...whole, ...tails];
}

/**
 * A graph of one metric over time, one line (or bar, or area) per selected row plus «Итого». The
 * chart is created once per group; new answers, another chart type and a new set of lines reach
 * it through setData (and addSeries/delSeries), never a new chart.
 */
export function LinesGraph({ buckets, lines, metric, period, origin = null, loading, height, testId, chartType = 'line', percent = false, incompleteFrom }: LinesGraphProps) {
  const [hover, setHover] = useState<number | null>(null);
  const hoverRef = useRef(setHover);
  hoverRef.current = setHover;

  // Read by the axis when it draws, so that another metric needs new data, not a new chart.
  const unit = percent ? 'percent' : metric.unit;
  const unitRef = useRef(unit);
  unitRef.current = unit;
  // Bars need half a bucket of room at both ends; read when the x scale ranges.
  const typeRef = useRef(chartType);
  typeRef.current = chartType;

  const options = useMemo(() => {
    const base = timeSeriesOptions([], period.group, () => NO_LEGEND);
    const [xAxis, yAxis] = base.axes ?? [];
    return {
      ...base,
      legend: { show: false },
      cursor: { ...base.cursor, focus: { prox: 16 } },
      scales: {
        ...base.scales,
        x: {
          time: true,
          range: (u: uPlot, min: number, max: number): uPlot.Range.MinMax => {
            if (typeRef.current !== 'bar') return [min, max];
            const half = bucketStep(u.data[0]) / 2;
            return [min - half, max + half];
          },
        },
      },
      axes: [
        xAxis ?? {},
        {
          ...yAxis,
          incrs: () => (unitRef.current === 'count' ? COUNT_STEPS : unitRef.current === 'seconds' ? SECOND_STEPS : FINE_STEPS),
          values: (_u: uPlot, splits: number[]) => formatAxisTicks(splits, unitRef.current),
        },
      ],
      hooks: {
        setLegend: [(u: uPlot) => hoverRef.current(u.legend.idx ?? null)],
      },
    } satisfies Omit<uPlot.Options, 'width' | 'height'>;
  }, [period.group]);

  const incomplete = buckets !== undefined && incompleteFrom !== undefined && incompleteFrom < buckets.length;
  const seriesKey = `${chartType}:${lines.map((l) => `${l.id}@${l.colorIndex ?? 't'}`).join('|')}${incomplete ? ':incomplete' : ''}`;
  const series = useMemo<uPlot.Series[]>(
    () => seriesOf(lines, chartType, incomplete),
    // seriesKey names the chart type, the lines, their colours and whether a tail is drawn.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [seriesKey],
  );

  const data = useMemo<uPlot.AlignedData | null>(() => {
    if (!buckets) return null;
    const xs = buckets.map((b) => b.ts);
    if (!incomplete || incompleteFrom === undefined) return [xs, ...lines.map((l) => [...l.values])];
    const split = lines.map((l) => splitIncomplete(l.values, incompleteFrom, chartType === 'bar'));
    return [xs, ...split.map((s) => s.whole), ...split.map((s) => s.tail ?? [])];
  }, [buckets, lines, incomplete, incompleteFrom, chartType]);

  // At least the canvas and two legend rows, so that loading never moves the page; more rows of
  // lines than fit in two make it taller (a user's choice, not a jump).
  const boxStyle = { minHeight: height + LEGEND_HEIGHT };
  if (!data || !buckets) {
    return (
      <div className={styles.box} style={boxStyle} aria-busy="true">
        <span className={`skeleton ${graphBox.skeletonPlot}`} />
      </div>
    );
  }
  if (buckets.length === 0) {
    return (
      <div className={`${styles.box} ${graphBox.empty}`} style={boxStyle}>
        Нет данных для отображения
      </div>
    );
  }
  const hovered = hover === null ? undefined : buckets[hover];
  return (
    <div
      className={loading ? `${styles.box} ${graphBox.loading}` : styles.box}
      style={boxStyle}
      aria-busy={loading}
      data-chart-type={chartType}
      data-incomplete-from={incomplete ? incompleteFrom : undefined}
    >
      <UPlotChart options={options} data={data} series={series} seriesKey={seriesKey} height={height} className={styles.chart} testId={testId} />
      <ul className={styles.legend} aria-label="Линии графика">
        <li className={styles.legendDate}>
          {hovered ? formatBucket(hovered.date, period.group, period) : metric.title}
          {hover !== null && incomplete && incompleteFrom !== undefined && hover >= incompleteFrom ? (
            <span className={styles.legendNote} data-testid="legend-incomplete">
              {' '}
              · {INCOMPLETE_NOTE}
            </span>
          ) : null}
        </li>
        {lines.map((line) => (
          <li key={line.id} className={styles.legendItem} title={line.title} data-line={line.id}>
            <span
              className={line.colorIndex === null ? `${styles.swatch} ${styles.swatchTotal}` : styles.swatch}
              style={{ background: colorOf(line) }}
            />
            <AddressText address={line.title} origin={origin} className={styles.legendTitle} />
            {hover !== null ? <span className={styles.legendValue}>{formatMetric(line.values[hover], unit)}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
