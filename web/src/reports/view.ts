/**
 * What every report view takes, and the metric columns it shows: apart from the registry, which
 * names the views, so that no view imports the file that loads it.
 */
import { METRIC_INFO, type Metric, type MetricUnit } from '@stat/schemas/catalogue';
import type { ReportDefinition } from '@stat/schemas/reports';

/** Props every report view gets. */
export interface ReportViewProps {
  readonly projectId: string;
  readonly report: ReportDefinition;
  /** A short help text under the title. */
  readonly hint?: string;
}

/** A metric column or line, with what the user sees. */
export interface ReportMetric {
  /** Wire name (spec 001 §3 "Metrics"). */
  readonly name: Metric;
  /** Column and legend title (from the catalogue). */
  readonly title: string;
  readonly unit: MetricUnit;
}

/** The catalogue's title and unit of each metric, in the given order. */
export function metricColumns(names: readonly Metric[]): ReportMetric[] {
  return names.map((name) => ({ name, title: METRIC_INFO[name].title, unit: METRIC_INFO[name].unit }));
}
