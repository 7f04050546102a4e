import { useMemo } from 'react';
import type uPlot from 'uplot';
import { conversionValue, formatConversion, type ConversionFigures } from '@stat/schemas/conversions';
import { UPlotChart } from '../../components/UPlotChart';
import { formatNumber } from '../../lib/format';
import { paletteColor, withAlpha } from '../../lib/palette';
import { CONVERSION_PAGE_TEXTS as T } from './conversionState';
import type { DateSpan } from './conversionState';
import styles from './Conversions.module.css';

const DAY_MS = 86_400_000;

/**
 * The card's graph (spec 002 §2): the conversion by day in percent on the left axis, the goal's
 * count on the right one. A day without visits has no conversion: no point (a gap), not 0.
 */
export function CardGraph({ figures, span }: { readonly figures: ConversionFigures; readonly span: DateSpan }) {
  const data = useMemo<uPlot.AlignedData>(() => {
    const n = new Map(figures.numerator.data.map((p) => [p.date.slice(0, 10), p.value]));
    const d = new Map(figures.denominator.data.map((p) => [p.date.slice(0, 10), p.value]));
    const xs: number[] = [];
    const percent: (number | null)[] = [];
    const goal: number[] = [];
    for (let ms = Date.parse(`${span.start}T00:00:00Z`); ms <= Date.parse(`${span.end}T00:00:00Z`); ms += DAY_MS) {
      const day = new Date(ms).toISOString().slice(0, 10);
      xs.push(Date.parse(`${day}T00:00:00+03:00`) / 1000);
      percent.push(conversionValue(n.get(day) ?? 0, d.get(day) ?? 0));
      goal.push(n.get(day) ?? 0);
    }
    // The goal first, so that the conversion's line is drawn over it.
    return [xs, goal, percent];
  }, [figures, span.start, span.end]);
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(
    () => ({
      tzDate: (ts) => new Date(ts * 1000),
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: true }, percent: { range: (_u, _min, max) => [0, Math.max(1, max)] }, count: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      axes: [
        { show: false },
        { scale: 'percent', size: 44, values: (_u, ticks) => ticks.map((t) => `${formatConversion(t).replace(/,?0+$/, '')} %`), font: '11px sans-serif' },
        { scale: 'count', side: 1, size: 36, grid: { show: false }, values: (_u, ticks) => ticks.map((t) => formatNumber(t)), font: '11px sans-serif' },
      ],
      series: [
        {},
        { label: T.numerator, scale: 'count', stroke: paletteColor(1), width: 1.5, dash: [4, 3] },
        { label: T.conversion, scale: 'percent', stroke: paletteColor(0), width: 2, fill: withAlpha(paletteColor(0), 0.08), points: { show: true, size: 6, fill: paletteColor(0) } },
      ],
    }),
    [],
  );
  return <UPlotChart options={options} data={data} height={90} className={styles.cardGraph} testId="conversion-card-graph" />;
}
