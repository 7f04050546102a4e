/**
 * The calls a report page makes first, from its URL alone: what `app/preload.ts` asks for while the
 * page still loads. Loaded on its own, so that the entry script carries none of the report rules.
 */
import type { IsoDate } from '@stat/schemas/period';
import type { ReportDefinition } from '@stat/schemas/reports';
import { correctDimensionUrl, dimensionCallsOfUrl } from './dimension/requests';
import type { ReportCalls } from './framework/preloaded';
import { isTimeSeries } from './registry';
import { correctTimeSeriesUrl, timeSeriesCallsOfUrl } from './timeseries/requests';

/**
 * The graph and table bodies the view of `report` sends first when opened with this query on
 * `today` (the server's day), or null when they depend on more than the URL (the rating).
 */
export function firstReportCalls(report: ReportDefinition, search: URLSearchParams, today: IsoDate): ReportCalls | null {
  return isTimeSeries(report) ? timeSeriesCallsOfUrl(search, report, today) : dimensionCallsOfUrl(search, report, today);
}

/**
 * The query the view of `report` writes in place of `search` as it opens (invalid values corrected,
 * missing ones filled: spec 001 §5), or null when it writes nothing. Written before the app starts,
 * the view finds nothing to correct: no navigation, so no second render of the whole page. The
 * rating's URL is left to its view, as its first calls are: the view corrects its category from
 * the project's, which the preload does not have.
 */
export function correctedReportUrl(report: ReportDefinition, search: URLSearchParams, today: IsoDate): URLSearchParams | null {
  if (isTimeSeries(report)) return correctTimeSeriesUrl(search, report, today);
  return report.name === 'rating' ? null : correctDimensionUrl(search, report, today);
}
