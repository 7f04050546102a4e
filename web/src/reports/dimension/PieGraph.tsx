import { AddressText } from '../../components/AddressLink';
import { formatMetric } from '../../lib/format';
import { OTHER_COLOR, paletteColor } from '../../lib/palette';
import type { ReportMetric } from '../view';
import type { PieSlice } from './graphs';
import styles from './PieGraph.module.css';

/** Props of {@link PieGraph}. */
export interface PieGraphProps {
  /** The slices; undefined until the first answer. */
  readonly slices: readonly PieSlice[] | undefined;
  readonly metric: ReportMetric;
  /** The legend leads with the shares (the percent toggle). */
  readonly percent: boolean;
  /** The scheme and host the table's addresses share, left out of the legend's addresses (absent: none). */
  readonly origin?: string | null;
  readonly loading: boolean;
  /** Height of the drawing (the same as the other chart types', so that switching never moves the page). */
  readonly height: number;
  readonly testId?: string;
}

/** A slice's colour: its row's, or grey for «Прочее». */
function sliceColor(slice: PieSlice): string {
  return slice.colorIndex === null ? OTHER_COLOR : paletteColor(slice.colorIndex);
}

/** The SVG path of a slice from `from` to `to` (fractions of the circle, clockwise from the top). */
function slicePath(from: number, to: number, r: number): string {
  if (to - from >= 0.9999) return `M 0 ${-r} A ${r} ${r} 0 1 1 0 ${r} A ${r} ${r} 0 1 1 0 ${-r} Z`;
  const point = (f: number) => `${(r * Math.sin(2 * Math.PI * f)).toFixed(2)} ${(-r * Math.cos(2 * Math.PI * f)).toFixed(2)}`;
  return `M 0 0 L ${point(from)} A ${r} ${r} 0 ${to - from > 0.5 ? 1 : 0} 1 ${point(to)} Z`;
}

/**
 * A pie of the drawn rows' shares of the period's «Итого», the rest as «Прочее» (spec 001 §2
 * "Toolbar": the chart type pie; the slices come from graphs.ts), a small SVG: the time axis
 * means nothing here, so uPlot is not needed.
 */
export function PieGraph({ slices, metric, percent, origin = null, loading, height, testId }: PieGraphProps) {
  if (!slices) {
    return (
      <div className={styles.box} style={{ height }} aria-busy="true">
        <span className={`skeleton ${styles.skeleton}`} />
      </div>
    );
  }
  if (slices.length === 0) {
    return (
      <div className={`${styles.box} ${styles.empty}`} style={{ height }} data-testid={testId}>
        Нет данных для отображения
      </div>
    );
  }
  const r = 100;
  let at = 0;
  return (
    <div className={loading ? `${styles.box} ${styles.loading}` : styles.box} style={{ minHeight: height }} aria-busy={loading} data-chart-type="pie">
      <svg className={styles.pie} viewBox="-104 -104 208 208" style={{ width: `min(${height - 20}px, 42%)` }} role="img" aria-label={metric.title} data-testid={testId}>
        {slices.map((slice) => {
          const from = at;
          at += slice.percent / 100;
          return (
            <path key={slice.id} d={slicePath(from, at, r)} fill={sliceColor(slice)} stroke="#fff" strokeWidth={1.5} data-slice={slice.id}>
              <title>{`${slice.title}: ${formatMetric(slice.value, metric.unit)} (${formatMetric(slice.percent, 'percent')})`}</title>
            </path>
          );
        })}
      </svg>
      <ul className={styles.legend} aria-label="Доли строк">
        <li className={styles.legendHead}>{metric.title}</li>
        {slices.map((slice) => (
          <li key={slice.id} className={styles.legendItem} title={slice.title} data-line={slice.id}>
            <span className={styles.swatch} style={{ background: sliceColor(slice) }} />
            <AddressText address={slice.title} origin={origin} className={styles.legendTitle} />
            <span className={styles.legendValue}>
              {percent
                ? `${formatMetric(slice.percent, 'percent')} · ${formatMetric(slice.value, metric.unit)}`
                : `${formatMetric(slice.value, metric.unit)} · ${formatMetric(slice.percent, 'percent')}`}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
