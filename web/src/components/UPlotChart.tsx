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
  /** Height of the plotting canvas in CSS pixels (the legend comes on top of it). */
  readonly height: number;
  readonly className?: string;
  readonly testId?: string;
}

/**
 * The one wrapper of uPlot (STYLE: "wrap uPlot once"): creates the chart on mount, calls
 * `setData` when the data changes, follows the container's width, destroys it on unmount.
 */
export function UPlotChart({ options, data, height, className, testId }: UPlotChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  // The latest data, for a chart (re)created by an options change.
  const dataRef = useRef(data);

  useLayoutEffect(() => {
    const container = containerRef.current;
    if (!container) return undefined;
    const chart = new uPlot(
      { ...options, width: Math.max(100, container.clientWidth), height },
      dataRef.current,
      container,
    );
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
    const chart = chartRef.current;
    if (chart && chart.data !== data) chart.setData(data);
  }, [data]);

  useEffect(() => {
    const chart = chartRef.current;
    if (chart && chart.height !== height) chart.setSize({ width: chart.width, height });
  }, [height]);

  return <div ref={containerRef} className={className} data-testid={testId} />;
}
