import { useMemo, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { UPlotChart } from '../../components/UPlotChart';
import { formatMetric } from '../../lib/format';
import { paletteColor, withAlpha } from '../../lib/palette';
import { formatBucket, type Period } from '../../lib/period';
import { timeSeriesOptions } from '../framework/TimeSeriesGraph';
import type { ReportMetric } from '../view';
import styles from './LinesGraph.module.css';

/** The colour of the «Итого» line: apart from the palette, so it never looks like a row's. */
export const TOTAL_COLOR = '#23263A';

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
  readonly loading: boolean;
  /** Height of the plotting area (spec 001 §9: 217 below a body width of 1275, else 320). */
  readonly height: number;
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

/**
 * A line graph of one metric over time, one line per selected row plus «Итого». The chart is
 * created once per metric unit and group; new answers and a new set of lines reach it through
 * setData (and addSeries/delSeries), never a new chart.
 */
export function LinesGraph({ buckets, lines, metric, period, loading, height, testId }: LinesGraphProps) {
  const [hover, setHover] = useState<number | null>(null);
  const hoverRef = useRef(setHover);
  hoverRef.current = setHover;

  // Read by the axis when it draws, so that another metric needs new data, not a new chart.
  const unitRef = useRef(metric.unit);
  unitRef.current = metric.unit;

  const options = useMemo(() => {
    const base = timeSeriesOptions([], period.group, () => ({ labelOf: () => undefined, idleLabel: '', idleValues: [] }));
    const [xAxis, yAxis] = base.axes ?? [];
    return {
      ...base,
      legend: { show: false },
      cursor: { ...base.cursor, focus: { prox: 16 } },
      axes: [
        xAxis ?? {},
        {
          ...yAxis,
          incrs: () => (unitRef.current === 'count' ? COUNT_STEPS : unitRef.current === 'seconds' ? SECOND_STEPS : FINE_STEPS),
          values: (_u: uPlot, splits: number[]) => splits.map((v) => formatMetric(v, unitRef.current)),
        },
      ],
      hooks: {
        setLegend: [(u: uPlot) => hoverRef.current(u.legend.idx ?? null)],
      },
    } satisfies Omit<uPlot.Options, 'width' | 'height'>;
  }, [period.group]);

  const seriesKey = lines.map((l) => `${l.id}@${l.colorIndex ?? 't'}`).join('|');
  const series = useMemo<uPlot.Series[]>(
    () =>
      lines.map((line) => {
        const color = colorOf(line);
        return {
          label: line.title,
          stroke: color,
          width: line.colorIndex === null ? 2.5 : 2,
          ...(line.colorIndex === null ? { dash: [6, 4] } : {}),
          fill: lines.length === 1 ? withAlpha(color, 0.07) : undefined,
          points: { size: 5, fill: '#fff', width: 1.5 },
        };
      }),
    // seriesKey names the lines and their colours.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [seriesKey],
  );

  const data = useMemo<uPlot.AlignedData | null>(() => {
    if (!buckets) return null;
    return [buckets.map((b) => b.ts), ...lines.map((l) => [...l.values])];
  }, [buckets, lines]);

  // At least the canvas and two legend rows, so that loading never moves the page; more rows of
  // lines than fit in two make it taller (a user's choice, not a jump).
  const boxStyle = { minHeight: height + LEGEND_HEIGHT };
  if (!data || !buckets) {
    return (
      <div className={styles.box} style={boxStyle} aria-busy="true">
        <span className={`skeleton ${styles.skeletonPlot}`} />
      </div>
    );
  }
  if (buckets.length === 0) {
    return (
      <div className={`${styles.box} ${styles.empty}`} style={boxStyle}>
        Нет данных для отображения
      </div>
    );
  }
  const hovered = hover === null ? undefined : buckets[hover];
  return (
    <div className={loading ? `${styles.box} ${styles.loading}` : styles.box} style={boxStyle} aria-busy={loading}>
      <UPlotChart options={options} data={data} series={series} seriesKey={seriesKey} height={height} className={styles.chart} testId={testId} />
      <ul className={styles.legend} aria-label="Линии графика">
        <li className={styles.legendDate}>{hovered ? formatBucket(hovered.date, period.group, period) : metric.title}</li>
        {lines.map((line) => (
          <li key={line.id} className={styles.legendItem} title={line.title} data-line={line.id}>
            <span
              className={line.colorIndex === null ? `${styles.swatch} ${styles.swatchTotal}` : styles.swatch}
              style={{ background: colorOf(line) }}
            />
            <span className={styles.legendTitle}>{line.title}</span>
            {hover !== null ? <span className={styles.legendValue}>{formatMetric(line.values[hover], metric.unit)}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
