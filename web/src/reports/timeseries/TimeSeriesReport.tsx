import { useCallback, useMemo } from 'react';
import { ApiError } from '../../lib/api';
import { bucketCount, type PeriodGroup } from '@stat/schemas/period';
import { formatBucket } from '../../lib/period';
import { ErrorPage } from '../../pages/ErrorPage';
import { NARROW_BODY, useAnswerTime, useNarrowerThan, useReportQuery, useRequest, useServerClock, useUrlCorrection, type ServerClock } from '../framework/hooks';
import { firstIncomplete } from '../framework/incomplete';
import { CsvDownload } from '../framework/CsvDownload';
import { ReportCard, ReportPage } from '../framework/ReportPage';
import { ReportSkeleton } from '../framework/ReportSkeleton';
import { ReportTable, type ReportTableRow } from '../framework/ReportTable';
import { preloadedOr, settledPreloaded } from '../framework/preloaded';
import { downloadReportCsv, fetchReportGraph, fetchReportTable, tableHasData, type GraphResult, type MetricName, type ReportSort, type TableResult } from '../framework/reportApi';
import { TimeSeriesGraph, type TimePoint } from '../framework/TimeSeriesGraph';
import { GroupPicker, PeriodPicker, Toolbar } from '../framework/Toolbar';
import { useRegroupedNotice } from '../framework/regrouped';
import { FilterBar } from '../filters/FilterBar';
import { useReportFilters } from '../filters/useReportFilters';
import { metricColumns, type ReportViewProps } from '../view';
import { correctTimeSeriesUrl, PAGE_SIZE, timeSeriesCalls, timeSeriesSortColumns } from './requests';


const TITLE_HEADERS: Readonly<Record<PeriodGroup, string>> = {
  minute: 'Время',
  five_minute: 'Время',
  hour: 'Время',
  day: 'Дата',
  week: 'Неделя',
  month: 'Месяц',
};

/** The sort the api applies when none is sent. */
const DEFAULT_SORT: ReportSort = { name: 'date', order: 'desc' };

/**
 * A report over time buckets with no dimension (the summary report «Посещаемость»): the period
 * toolbar, a line graph of the report's metrics and a table of the same buckets with totals.
 */
export default function TimeSeriesReport({ projectId, report, hint }: ReportViewProps) {
  const clock = useServerClock();
  if (!clock) return <ReportSkeleton title={report.title} {...(hint ? { hint } : {})} />;
  return <TimeSeriesReportBody projectId={projectId} report={report} clock={clock} {...(hint ? { hint } : {})} />;
}

/** Indices into an answer's metrics for each wanted metric (-1 when the answer lacks it). */
function metricIndices(answer: readonly MetricName[], wanted: readonly MetricName[]): number[] {
  return wanted.map((name) => answer.indexOf(name));
}

function reorder(values: readonly (number | null)[], indices: readonly number[]): (number | null)[] {
  return indices.map((i) => (i < 0 ? null : (values[i] ?? null)));
}

function TimeSeriesReportBody({ projectId, report, hint, clock }: ReportViewProps & { readonly clock: ServerClock }) {
  const { today } = clock;
  const metrics = useMemo(() => metricColumns(report.defaultMetrics), [report]);
  const metricNames = useMemo(() => metrics.map((m) => m.name), [metrics]);
  const sortColumns = useMemo(() => timeSeriesSortColumns(metricNames), [metricNames]);
  const query = useReportQuery(today, sortColumns, PAGE_SIZE);
  const { period, sort, offset } = query;
  const narrow = useNarrowerThan(NARROW_BODY);
  // Invalid or missing values are replaced in the URL by the report's rule (the one the preload
  // applied before the router read it).
  useUrlCorrection(useCallback((current: URLSearchParams) => correctTimeSeriesUrl(current, report, today), [report, today]));

  const filters = useReportFilters(report.metrics);
  const { graph: graphBody, table: tableBody } = timeSeriesCalls({ period, metrics: metricNames, sort, offset, filters: filters.request });
  // The first of each may have been asked for as the app started (app/preload.ts), and may have
  // come before this view's code.
  const graph = useRequest(
    JSON.stringify(graphBody),
    (signal) => preloadedOr('graph', projectId, report.name, graphBody, signal, () => fetchReportGraph(projectId, report.name, graphBody, { signal })),
    () => settledPreloaded<GraphResult>('graph', projectId, report.name, graphBody),
  );
  const table = useRequest(
    JSON.stringify(tableBody),
    (signal) => preloadedOr('table', projectId, report.name, tableBody, signal, () => fetchReportTable(projectId, report.name, tableBody, { signal })),
    () => settledPreloaded<TableResult>('table', projectId, report.name, tableBody),
  );

  const answeredAt = useAnswerTime(graph.data);
  const { points, graphTotals, incompleteFrom } = useMemo(() => {
    const answer = graph.data;
    if (!answer || answeredAt === undefined) return { points: undefined, graphTotals: undefined, incompleteFrom: undefined };
    const indices = metricIndices(answer.metrics, metricNames);
    const buckets = answer.data[0]?.points ?? [];
    return {
      // Buckets that had not begun yet came as zeros; drawn, they would look like a fall to zero.
      points: buckets.map<TimePoint>((p) => ({
        ...p,
        metrics: p.ts * 1000 > answeredAt ? indices.map(() => null) : reorder(p.metrics, indices),
      })),
      graphTotals: reorder(answer.totals, indices),
      // And the bucket still growing then (today, this hour) is drawn dashed, not as a fall.
      incompleteFrom: firstIncomplete(buckets, answeredAt, period.group, period.end),
    };
    // The group and the end are the period's the answer was for, which its key already fixes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [graph.data, answeredAt, metricNames]);

  const { rows, totals } = useMemo(() => {
    const answer = table.data;
    if (!answer) return { rows: undefined, totals: undefined };
    const indices = metricIndices(answer.metrics, metricNames);
    return {
      rows: answer.data.map<ReportTableRow>((row) => ({
        id: row.id,
        label: formatBucket(row.title, period.group, period),
        metrics: reorder(row.metrics, indices),
        future: row.ts !== undefined && row.ts * 1000 > Date.now() + clock.offsetMs,
      })),
      totals: reorder(answer.totals, indices),
    };
    // The labels depend on the period the answer was for, which its key already fixes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [table.data, metricNames, clock.offsetMs]);

  const error = graph.error ?? table.error;
  const failed = error !== undefined;
  // A network failure (status 0) shows the server error page with what the browser said.
  const status = error instanceof ApiError && error.status !== 0 ? error.status : 500;
  const currentSort = table.data?.sort ?? sort ?? DEFAULT_SORT;
  const regrouped = useRegroupedNotice(period.group, graph.loading || table.loading, failed);

  const periodPicker = <PeriodPicker period={period} today={today} onChange={query.setDates} projectId={projectId} />;
  return (
    <ReportPage
      title={report.title}
      subtitle={projectId}
      {...(hint ? { hint } : {})}
      hints={{ name: report.name, metrics: report.metrics, tips: ['reportFilter', 'reportCsv'] }}
      actions={
        <CsvDownload
          hasData={!failed && tableHasData(table.data)}
          reportTitle={report.title}
          period={period}
          fallbackName={`${report.name}_${period.start}_${period.end}.csv`}
          download={() => downloadReportCsv(projectId, report.name, tableBody)}
        />
      }
    >
      <Toolbar>
        {periodPicker}
        <GroupPicker
          period={period}
          onChange={(group) => {
            regrouped(group);
            query.setGroup(group);
          }}
        />
      </Toolbar>
      <FilterBar projectId={projectId} metrics={report.metrics} period={period} state={filters} />
      {failed ? (
        <ErrorPage
          compact
          status={status}
          {...(status === 404 ? { text: 'Счётчик не найден.' } : {})}
          {...(error instanceof ApiError && error.status === 0 ? { text: `Сервер недоступен: ${error.message}` } : {})}
        >
          {status === 507 ? periodPicker : null}
        </ErrorPage>
      ) : (
        <>
          <ReportCard>
            <TimeSeriesGraph
              points={points}
              totals={graphTotals}
              metrics={metrics}
              period={period}
              loading={graph.loading}
              height={narrow ? 217 : 320}
              incompleteFrom={incompleteFrom}
              testId={`${report.name}-graph`}
            />
          </ReportCard>
          <ReportCard flush>
            <ReportTable
              titleHeader={TITLE_HEADERS[period.group]}
              titleColumn="date"
              metrics={metrics}
              rows={rows}
              totals={totals}
              sort={currentSort}
              onSort={(column) => query.toggleSort(column, currentSort)}
              loading={table.loading}
              expectedRows={bucketCount(period.start, period.end, period.group) - offset}
              paging={{ offset, pageSize: PAGE_SIZE, total: table.data?.meta.total, onOffset: query.setOffset }}
              testId={`${report.name}-table`}
              totalsTestId={`${report.name}-totals`}
            />
          </ReportCard>
        </>
      )}
    </ReportPage>
  );
}
