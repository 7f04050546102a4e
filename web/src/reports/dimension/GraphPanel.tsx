import { useMemo, type ReactNode } from 'react';
import type { GraphResult } from '@stat/schemas/reports';
import type { Metric } from '@stat/schemas/catalogue';
import type { Period } from '../../lib/period';
import { useIncompleteFrom } from '../framework/hooks';
import type { ReportMetric } from '../view';
import { graphLines, graphTotal, pieSlices } from './graphs';
import { LinesGraph } from './LinesGraph';
import { PieGraph } from './PieGraph';
import type { ChartType } from './state';
import styles from './DimensionReport.module.css';

/** Props of {@link GraphPanel}. */
export interface GraphPanelProps {
  /** The graph answer (every shown metric); undefined until the first. */
  readonly answer: GraphResult | undefined;
  /** The metrics shown: the tabs. */
  readonly metrics: readonly ReportMetric[];
  /** The metric this graph draws. */
  readonly metric: ReportMetric;
  readonly onMetric: (metric: Metric) => void;
  readonly lineColors: ReadonlyMap<string, number>;
  readonly chartType: ChartType;
  readonly percent: boolean;
  /** A row's value of `metric` over the period as the table shows it, when the table holds the row. */
  readonly tableValue: (id: string, metric: Metric) => number | null | undefined;
  readonly period: Pick<Period, 'start' | 'end' | 'group'>;
  /** The scheme and host the table's addresses share: the legend leaves it out as the table does. */
  readonly origin: string | null;
  readonly loading: boolean;
  readonly height: number;
  /** Tools at the end of the head (the first graph's: reset lines, metrics). */
  readonly tools?: ReactNode;
  readonly testId: string;
}

/** One graph of a dimension report: its metric tabs, then the lines (or bars, areas, a pie). */
export function GraphPanel({ answer, metrics, metric, onMetric, lineColors, chartType, percent, tableValue, period, origin, loading, height, tools, testId }: GraphPanelProps) {
  // A percent of an average means nothing: only counts are drawn as shares.
  const shares = percent && metric.unit === 'count';
  const { buckets, lines } = useMemo(() => graphLines(answer, metric.name, lineColors, shares), [answer, metric.name, lineColors, shares]);
  // A period up to now ends in a bucket still growing (today, this hour): drawn dashed, not as a fall.
  const incompleteFrom = useIncompleteFrom(answer, buckets, period.group, period.end);
  const slices = useMemo(
    () => (chartType === 'pie' && answer ? pieSlices(graphLines(answer, metric.name, lineColors, false).lines, (id) => tableValue(id, metric.name), graphTotal(answer, metric.name)) : undefined),
    [chartType, answer, metric.name, lineColors, tableValue],
  );
  return (
    <div data-graph={testId}>
      <div className={styles.graphHead}>
        <div className={styles.metricTabs} role="tablist" aria-label="Показатель на графике">
          {metrics.map((m) => (
            <button
              key={m.name}
              type="button"
              role="tab"
              aria-selected={m.name === metric.name}
              className={m.name === metric.name ? `${styles.metricTab} ${styles.metricTabActive}` : styles.metricTab}
              onClick={() => onMetric(m.name)}
              data-metric={m.name}
            >
              {m.title}
            </button>
          ))}
        </div>
        {tools ? <div className={styles.graphTools}>{tools}</div> : null}
      </div>
      {chartType === 'pie' ? (
        <PieGraph slices={slices} metric={metric} percent={percent} origin={origin} loading={loading} height={height} testId={testId} />
      ) : (
        <LinesGraph
          buckets={buckets}
          lines={lines}
          metric={metric}
          period={period}
          origin={origin}
          loading={loading}
          height={height}
          chartType={chartType}
          percent={shares}
          incompleteFrom={incompleteFrom}
          testId={testId}
        />
      )}
    </div>
  );
}
