import { useEffect, useLayoutEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** Props of {@link UPlotChart}. */
export interface UPlotChartProps {
  /**
   * Everything but the size. A new object recreates the chart, so keep it stable (memoize it on
   * what changes the series or axes); data changes alone go through `setData`.
   */
  readonly options: Omit<uPlot.Options, 'width' | 'height'>;
  /** Aligned data: x values first, then one array per series. */
  readonly data: uPlot.AlignedData;
  /**
   * The y series, when they change with the data (lines chosen by the user): `options.series`
   * then holds only the x series, and a change of `seriesKey` swaps the chart's series in place
   * (delSeries/addSeries, then setData) instead of recreating the chart.
   */
  readonly series?: readonly uPlot.Series[];
  /** Names the series: a new key swaps them. */
  readonly seriesKey?: string;
  /** Height of the plotting canvas in CSS pixels (the legend comes on top of it). */
  readonly height: number;
  readonly className?: string;
  readonly testId?: string;
}

/**
 * The one wrapper of uPlot (STYLE: "wrap uPlot once"): creates the chart on mount, calls
 * `setData` when the data changes, follows the container's width, destroys it on unmount.
 */
export function UPlotChart({ options, data, height, className, testId, series, seriesKey }: UPlotChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  // The latest data and series, for a chart (re)created by an options change.
  const dataRef = useRef(data);
  const seriesRef = useRef({ series, key: seriesKey });
  const chartSeriesKey = useRef(seriesKey);

  useLayoutEffect(() => {
    const container = containerRef.current;
    if (!container) return undefined;
    const ySeries = seriesRef.current.series;
    const chart = new uPlot(
      {
        ...options,
        ...(ySeries ? { series: [options.series[0] ?? {}, ...ySeries] } : {}),
        width: Math.max(100, container.clientWidth),
        height,
      },
      dataRef.current,
      container,
    );
    chartSeriesKey.current = seriesRef.current.key;
    chartRef.current = chart;
    const observer = new ResizeObserver(() => {
      const width = Math.max(100, container.clientWidth);
      if (width !== chart.width) chart.setSize({ width, height: chart.height });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      chart.destroy();
      chartRef.current = null;
    };
    // `height` is handled by its own effect; recreating on it would flash the canvas.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [options]);

  useEffect(() => {
    dataRef.current = data;
    seriesRef.current = { series, key: seriesKey };
    const chart = chartRef.current;
    if (!chart) return;
    if (series && chartSeriesKey.current !== seriesKey) {
      // Series and data change together; uPlot redraws once, after setData.
      for (let i = chart.series.length - 1; i >= 1; i--) chart.delSeries(i);
      for (const s of series) chart.addSeries(s);
      chartSeriesKey.current = seriesKey;
      chart.setData(data);
    } else if (chart.data !== data) {
      chart.setData(data);
    }
    // `series` is named by `seriesKey`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, seriesKey]);

  useEffect(() => {
    const chart = chartRef.current;
    if (chart && chart.height !== height) chart.setSize({ width: chart.width, height });
  }, [height]);

  return <div ref={containerRef} className={className} data-testid={testId} />;
}
