/**
 * The calls a report page makes first, from its URL alone: what `app/preload.ts` asks for while the
 * page still loads. Loaded on its own, so that the entry script carries none of the report rules.
 */
import type { IsoDate } from '@stat/schemas/period';
import type { ReportDefinition } from '@stat/schemas/reports';
import { dimensionCallsOfUrl } from './dimension/requests';
import type { ReportCalls } from './framework/preloaded';
import { isTimeSeries } from './registry';
import { timeSeriesCallsOfUrl } from './timeseries/requests';

/**
 * The graph and table bodies the view of `report` sends first when opened with this query on
 * `today` (the server's day), or null when they depend on more than the URL (the rating).
 */
export function firstReportCalls(report: ReportDefinition, search: URLSearchParams, today: IsoDate): ReportCalls | null {
  return isTimeSeries(report) ? timeSeriesCallsOfUrl(search, report, today) : dimensionCallsOfUrl(search, report, today);
}
