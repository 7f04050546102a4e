/**
 * The chart types of a report's graphs (spec 001 §2 "Toolbar": a chart type switcher of line,
 * bar, pie, area), the first the default, and what the switcher's buttons say.
 */
export const CHART_TYPES = ['line', 'bar', 'pie', 'area'] as const;

/** One of {@link CHART_TYPES}. */
export type ChartType = (typeof CHART_TYPES)[number];

/** The switcher's tooltip and screen-reader name of each type. */
export const CHART_TYPE_LABELS: Readonly<Record<ChartType, string>> = {
  line: 'Линейный график',
  bar: 'Столбчатая диаграмма',
  pie: 'Круговая диаграмма',
  area: 'График с областями',
};
