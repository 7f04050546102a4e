import { useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ConstructorRequest, GraphResult, ReportRequest, TableResult } from '@stat/schemas/reports';
import { addDays, fitGroup, resolveDate, type PeriodGroup } from '@stat/schemas/period';
import type { ProjectCategory } from '@stat/schemas/rating';
import { REPORT_FAILED } from '../../data/messages';
import { ApiError, type DownloadedFile } from '../../lib/api';
import { ProjectContext } from '../../app/project';
import type { DateParam } from '../../lib/period';
import { ErrorPage } from '../../pages/ErrorPage';
import { FilterBar } from '../filters/FilterBar';
import { useReportFilters } from '../filters/useReportFilters';
import { NARROW_BODY, useNarrowerThan, useRequest, useServerClock, useUrlCorrection, type ServerClock } from '../framework/hooks';
import { ReportCard, ReportPage } from '../framework/ReportPage';
import { ReportSkeleton } from '../framework/ReportSkeleton';
import type { MetaTip } from '@stat/schemas/hints';
import { CsvDownload } from '../framework/CsvDownload';
import { preloadedOr, settledPreloaded } from '../framework/preloaded';
import { CATEGORY_PARAM } from '../framework/query';
import { downloadReportCsv, fetchReportGraph, fetchReportTable, tableHasData, type ReportSort } from '../framework/reportApi';
import { SamplePicker } from '../framework/SamplePicker';
import { CategoryPicker, ChartTypePicker, GraphCountPicker, GroupPicker, PercentToggle, PeriodPicker, Toolbar, ToolbarEnd, type CategoryOption } from '../framework/Toolbar';
import { metricColumns, type ReportViewProps } from '../view';
import { reportHeader } from '@stat/schemas/reports';
import { GraphPanel } from './GraphPanel';
import { MetricsPicker } from './MetricsPicker';
import { ReportPlaceholder } from './ReportPlaceholder';
import { useRegroupedNotice } from '../framework/regrouped';
import { correctDimensionUrl, dimensionBase, dimensionGraphBody, dimensionPeriod, dimensionTableBody } from './requests';
import {
  allowedChartTypes,
  DEFAULT_LINES,
  explicitLines,
  graphCount,
  nextSort,
  otherMetric,
  percentAllowed,
  parseDimensionQuery,
  toggleLine,
  withChartType,
  withGraphCount,
  withGraphMetric,
  withMetrics,
  writeDimensionQuery,
  type DimensionQuery,
  type LineSelection,
} from './state';
import { flattenTree, useTree } from './tree';
import { itemsOrigin, TreeTable } from './TreeTable';
import styles from './DimensionReport.module.css';

/** Body width from which a report shows its most metric columns (spec 001 §9). */
const WIDE_BODY = 1695;

/**
 * Where a report page reads its rows when not from the base report calls (the constructor's own
 * call), and what such a page adds around the one view: a sidebar, a save button, a notice.
 */
export interface DimensionReportExtras {
  readonly source: {
    table(body: ReportRequest, signal: AbortSignal): Promise<TableResult>;
    graph(body: ReportRequest, signal: AbortSignal): Promise<GraphResult>;
    csv(body: ReportRequest): Promise<DownloadedFile>;
  };
  /** Fields every request of the page carries besides the report's (the constructor's dimensions and view). */
  readonly body: Partial<ConstructorRequest>;
  /** Which blocks the page shows: the table, the graph, or both (the default). */
  readonly panels: 'both' | 'table' | 'graph';
  /** Page title instead of the definition's (an opened template's). */
  readonly title?: string;
  readonly actions?: ReactNode;
  /** Shown above the toolbar (a template that lost items). */
  readonly notice?: ReactNode;
}

/**
 * Any report with a drill-down path (spec 001 §2): the toolbar (period, detail, accuracy), a line
 * graph of the selected rows and «Итого», and the tree table. Everything but the selected lines
 * lives in the URL.
 */
export default function DimensionReport({ projectId, report, hint }: ReportViewProps) {
  const clock = useServerClock();
  if (!clock) return <ReportSkeleton title={report.title} {...(hint ? { hint } : {})} />;
  const props = { projectId, report, clock, ...(hint ? { hint } : {}) };
  return report.name === 'rating' ? <RatingReportBody {...props} /> : <DimensionReportBody {...props} />;
}

/**
 * The rating's page: the only one that reads the project (its categories). Any other report's page
 * does not follow the project, so the project's answer coming after the view drew does not draw
 * the whole view again.
 */
function RatingReportBody(props: ReportViewProps & { readonly clock: ServerClock }) {
  const categories = useContext(ProjectContext)?.project.categories;
  return <DimensionReportBody {...props} {...(categories ? { ratingCategories: categories } : {})} />;
}

/**
 * The page of a report with a drill-down, given the server's clock; `extras` make it the
 * constructor's; `ratingCategories` are the project's categories on the rating's page.
 */
export function DimensionReportBody({
  projectId,
  report,
  hint,
  clock,
  extras,
  ratingCategories,
}: ReportViewProps & { readonly clock: ServerClock; readonly extras?: DimensionReportExtras; readonly ratingCategories?: readonly ProjectCategory[] }) {
  const { today } = clock;
  const [search, setSearch] = useSearchParams();
  const { period } = useMemo(() => dimensionPeriod(search, report, today), [search, today, report]);
  const { query } = useMemo(() => parseDimensionQuery(search, report), [search, report]);
  const rating = useRatingCategory(report.name === 'rating', ratingCategories, search);
  const narrow = useNarrowerThan(NARROW_BODY);
  const medium = useNarrowerThan(WIDE_BODY);
  // Metric columns by the body's width (spec 001 §9 "Metric column limit"): what fits with the
  // table's dense sizes (TreeTable's metricColumnWidth) and the rows' titles still readable, at
  // 1024 px 4 and from 1275 px 7, without the table scrolling sideways.
  const metricLimit = narrow ? 4 : medium ? 7 : 8;

  // Invalid or missing values are replaced in the URL by the report's rule (the one the preload
  // applied before the router read it), then the rating's category by the project's categories.
  const correct = useCallback(
    (current: URLSearchParams) => {
      const corrected = correctDimensionUrl(current, report, today);
      return rating.corrected ? writeCategory(corrected ?? current, rating.category) : corrected;
    },
    [report, today, rating],
  );
  useUrlCorrection(correct);

  /** A user's change: a new history entry; the table goes back to its first page unless told. */
  const change = useCallback(
    (edit: (q: DimensionQuery) => DimensionQuery, periodEdit?: (next: URLSearchParams) => void) => {
      setSearch((prev) => {
        const next = new URLSearchParams(prev);
        periodEdit?.(next);
        const current = parseDimensionQuery(next, report).query;
        return writeDimensionQuery(next, edit(current), report);
      });
    },
    [report, setSearch],
  );

  const metrics = useMemo(() => metricColumns(query.metrics), [query.metrics]);
  const filters = useReportFilters(report.metrics);
  const filtered = filters.filters.dimension.length > 0 || filters.filters.metric.length > 0;
  // A filter change, as a sort, goes back to the default lines (§4 "Sorting").
  // So does another rating category (§4 "Period and grouping").
  const sortKey = `${query.sort ? `${query.sort.name}:${query.sort.order}` : ''} ${JSON.stringify(filters.request)} ${rating.category ?? ''}`;

  // Sorting resets the selected lines to the default ones (§4 "Sorting").
  const [selection, setSelection] = useState<{ sortKey: string; lines: LineSelection }>({ sortKey, lines: DEFAULT_LINES });
  const lines = selection.sortKey === sortKey ? selection.lines : DEFAULT_LINES;

  const extraBody = extras?.body;
  const base = useMemo<ConstructorRequest>(
    () => dimensionBase(report, { period, query, filters: filters.request, category: rating.category, extra: extraBody }),
    [report, period, query, filters.request, rating.category, extraBody],
  );
  const baseKey = JSON.stringify(base);
  const tableBody = dimensionTableBody(base, query);
  const graphBody = dimensionGraphBody(base, lines);
  const source = extras?.source;
  const panels = extras?.panels ?? 'both';
  // The first of each may have been asked for as the app started (app/preload.ts), and may have
  // come before this view's code; the constructor's never.
  const table = useRequest(
    JSON.stringify(tableBody),
    (signal) =>
      source ? source.table(tableBody, signal) : preloadedOr('table', projectId, report.name, tableBody, signal, () => fetchReportTable(projectId, report.name, tableBody, { signal })),
    () => (source ? null : settledPreloaded<TableResult>('table', projectId, report.name, tableBody)),
  );
  // A report whose data is not collected has nothing to draw; a page of the table alone draws nothing.
  const graph = useRequest(
    report.notCollected === undefined && panels !== 'table' ? JSON.stringify(graphBody) : null,
    (signal) =>
      source ? source.graph(graphBody, signal) : preloadedOr('graph', projectId, report.name, graphBody, signal, () => fetchReportGraph(projectId, report.name, graphBody, { signal })),
    () => (source ? null : settledPreloaded<GraphResult>('graph', projectId, report.name, graphBody)),
  );
  const fetchChildren = useCallback(
    (body: ReportRequest, signal: AbortSignal) => (source ? source.table(body, signal) : fetchReportTable(projectId, report.name, body, { signal })),
    [projectId, report.name, source],
  );
  const tree = useTree(baseKey, base, fetchChildren);

  // The rows the server drew by default, in its order: their colours follow that order.
  const drawn = useMemo(() => (graph.data?.data ?? []).filter((l) => l.id !== 'total').map((l) => l.id), [graph.data]);
  const lineColors = useMemo(
    () => new Map<string, number>(lines.custom ? lines.lines.map((l) => [l.id, l.colorIndex]) : drawn.map((id, i) => [id, i])),
    [lines, drawn],
  );
  const onToggleLine = useCallback(
    (id: string) =>
      setSelection((s) => ({ sortKey, lines: toggleLine(explicitLines(s.sortKey === sortKey ? s.lines : DEFAULT_LINES, drawn), id) })),
    [drawn, sortKey],
  );

  // The graphs: one, or two of different metrics (§2 "Toolbar" «1 график» / «2 графика»).
  const graphed = [query.graphMetric, query.secondMetric].flatMap((name) => metrics.filter((m) => m.name === name));

  const items = useMemo(() => (table.data ? flattenTree(table.data.data, tree.children) : undefined), [table.data, tree.children]);
  // The graphs' legends shorten the rows' addresses as the table does.
  const origin = useMemo(() => itemsOrigin(items), [items]);
  // A pie's slices are the table's own figures of the rows it holds.
  const tableValue = useCallback(
    (id: string, metric: string) => {
      const answer = table.data;
      const item = items?.find((i) => i.kind === 'row' && i.id === id);
      const index = answer?.metrics.findIndex((m) => m === metric) ?? -1;
      return item?.kind === 'row' && index >= 0 ? item.row.metrics[index] : undefined;
    },
    [items, table.data],
  );
  const totals = useMemo(() => {
    const answer = table.data;
    if (!answer) return undefined;
    return query.metrics.map((m) => {
      const i = answer.metrics.indexOf(m);
      return i < 0 ? null : (answer.totals[i] ?? null);
    });
  }, [table.data, query.metrics]);

  const setDates = (dateStart: DateParam, dateEnd: DateParam) => {
    const start = resolveDate(dateStart, today);
    const end = resolveDate(dateEnd, today);
    if (!start || !end) return;
    const [from, to, fromParam, toParam] = start <= end ? [start, end, dateStart, dateEnd] : [end, start, dateEnd, dateStart];
    const group = fitGroup(period.group, from, to);
    change(
      (q) => ({ ...q, offset: 0 }),
      (next) => {
        next.set('dateStart', fromParam);
        next.set('dateEnd', toParam);
        next.set('groupBy', group);
      },
    );
  };
  const setGroup = (group: PeriodGroup) => change((q) => ({ ...q, offset: 0 }), (next) => next.set('groupBy', group));
  const currentSort: ReportSort = table.data?.sort ?? query.sort ?? report.defaultSort;

  // The rating's periods end yesterday at the latest (spec 001 §5): its calendar stops there.
  const periodPicker = <PeriodPicker period={period} today={today} lastDay={report.name === 'rating' ? addDays(today, -1) : today} onChange={setDates} projectId={projectId} />;
  const answer = table.data;
  const placeholder =
    table.error === undefined &&
    (report.notCollected !== undefined ||
      answer?.meta.not_collected !== undefined ||
      (report.empty === 'placeholder' && !filtered && answer !== undefined && answer.meta.total === 0 && query.offset === 0 && !table.loading));
  // The table's failure first; a placeholder needs no graph, so a graph failure does not hide it.
  const error = table.error ?? (placeholder ? undefined : (graph.error ?? tree.error));
  const status = error === undefined ? 0 : error instanceof ApiError && error.status !== 0 ? error.status : 500;
  const regrouped = useRegroupedNotice(period.group, table.loading || graph.loading, error !== undefined);

  const graphTools = (
    <>
      {lines.custom || drawn.length > 0 ? (
        <button
          type="button"
          className={styles.resetLines}
          disabled={!lines.custom}
          onClick={() => setSelection({ sortKey, lines: DEFAULT_LINES })}
          data-testid="reset-lines"
        >
          Сбросить линии
        </button>
      ) : null}
      {/* The constructor chooses its metrics in its own sidebar. */}
      {extras ? null : <MetricsPicker available={report.metrics} value={query.metrics} limit={metricLimit} onChange={(m) => change((q) => withMetrics(q, m))} />}
    </>
  );

  return (
    <ReportPage
      title={extras?.title ?? report.title}
      subtitle={projectId}
      {...(hint ? { hint } : {})}
      // A placeholder (a site not in the rating, a report without data) has no table or graph to give tips on.
      hints={{ name: report.name, metrics: report.metrics, tips: placeholder ? [] : dimensionTips(report) }}
      actions={
        <>
          {extras?.actions}
          <CsvDownload
            hasData={status === 0 && !placeholder && tableHasData(answer)}
            reportTitle={report.title}
            period={period}
            fallbackName={`${report.name}_${period.start}_${period.end}.csv`}
            download={() => (source ? source.csv(base) : downloadReportCsv(projectId, report.name, base))}
          />
        </>
      }
    >
      {extras?.notice}
      <Toolbar>
        {periodPicker}
        {/* The rating is always by day (spec 001 §5): no «Детализация:» to choose. */}
        {report.name === 'rating' ? null : (
          <GroupPicker
            period={period}
            onChange={(group) => {
              regrouped(group);
              setGroup(group);
            }}
          />
        )}
        {rating.category !== null ? (
          <CategoryPicker
            options={rating.options}
            value={rating.category}
            onChange={(id) => change((q) => ({ ...q, offset: 0 }), (next) => next.set(CATEGORY_PARAM, String(id)))}
          />
        ) : null}
        {query.sample !== null && !placeholder ? (
          <SamplePicker
            value={query.sample}
            used={answer?.meta.sample}
            whole={answer?.meta.whole}
            today={period.start === today && period.end === today}
            sampling={report.sampling}
            onChange={(sample) => change((q) => ({ ...q, sample, offset: 0 }))}
          />
        ) : null}
        {!placeholder && report.notCollected === undefined && panels !== 'table' ? (
          <ToolbarEnd>
            <GraphCountPicker
              value={graphCount(query)}
              twoAllowed={otherMetric(query.metrics, query.graphMetric) !== null}
              onChange={(count) => change((q) => withGraphCount(q, count))}
            />
            <ChartTypePicker
              value={query.chartType}
              allowed={allowedChartTypes([query.graphMetric, query.secondMetric])}
              onChange={(type) => change((q) => withChartType(q, type))}
            />
            <PercentToggle
              value={query.percent}
              allowed={percentAllowed([query.graphMetric, query.secondMetric])}
              onChange={(percent) => change((q) => ({ ...q, percent }))}
            />
          </ToolbarEnd>
        ) : null}
      </Toolbar>
      {report.filterable ? <FilterBar projectId={projectId} metrics={report.metrics} period={period} state={filters} /> : null}
      {status !== 0 ? (
        <ErrorPage
          compact
          status={status}
          {...(status === 404 ? { text: 'Отчёт не найден.' } : status === 500 ? { text: REPORT_FAILED } : {})}
          {...(error instanceof ApiError && error.status === 0 ? { text: `Сервер недоступен: ${error.message}` } : {})}
        >
          {status === 507 ? periodPicker : null}
        </ErrorPage>
      ) : placeholder ? (
        <ReportPlaceholder reportName={report.name} />
      ) : (
        <>
          {/* Two graphs share one row of line tools, above both, so that both plots stay the same size. */}
          {panels !== 'table' && graphed.length === 2 ? <div className={styles.sharedTools}>{graphTools}</div> : null}
          {panels === 'table' ? null : (
            <div className={graphed.length === 2 && !narrow ? `${styles.graphs} ${styles.graphsTwo}` : styles.graphs}>
              {graphed.map((metric, index) => (
                <ReportCard key={index}>
                  <GraphPanel
                    answer={graph.data}
                    metrics={metrics}
                    metric={metric}
                    onMetric={(name) => change((q) => withGraphMetric(q, index === 0 ? 0 : 1, name))}
                    lineColors={lineColors}
                    chartType={query.chartType}
                    percent={query.percent}
                    tableValue={tableValue}
                    origin={origin}
                    period={period}
                    loading={graph.loading}
                    height={narrow ? 217 : 320}
                    testId={index === 0 ? 'report-graph' : 'report-graph-2'}
                    tools={index === 0 && graphed.length === 1 ? graphTools : null}
                  />
                </ReportCard>
              ))}
            </div>
          )}
          {panels === 'graph' ? null : (
            <ReportCard flush>
              <TreeTable
                titleHeader={reportHeader(report)}
                metrics={metrics}
                items={items}
                totals={totals}
                sort={currentSort}
                onSort={(column) => change((q) => ({ ...q, sort: nextSort(currentSort, column), offset: 0 }))}
                lineColors={lineColors}
                {...(panels === 'table' ? {} : { onToggleLine })}
                onToggleExpand={tree.toggle}
                onShowMore={tree.showMore}
                loading={table.loading}
                compact={narrow}
                paging={{
                  offset: query.offset,
                  limit: query.limit,
                  total: answer?.meta.total,
                  onOffset: (offset) => change((q) => ({ ...q, offset })),
                  onLimit: (limit) => change((q) => ({ ...q, limit, offset: 0 })),
                }}
                testId="report-table"
              />
            </ReportCard>
          )}
        </>
      )}
    </ReportPage>
  );
}

/** The meta tips of a report with a drill-down path: the tools it has. */
function dimensionTips(report: ReportViewProps['report']): MetaTip[] {
  return [
    ...(report.filterable ? (['reportFilter'] as const) : []),
    'reportGraph',
    'reportSettings',
    'reportViews',
    ...(report.drilldown.length > 1 ? (['reportAdditional'] as const) : []),
    'reportCsv',
  ];
}

/**
 * The rating report's category: the URL's `categoryId` when it is one of the site's categories,
 * else the first of them (§5), and `corrected` when the URL must say so. null for a site in no
 * category (the api then answers the not-rated placeholder), and for other reports, whose URL
 * rule clears the parameter (correctDimensionUrl).
 */
function useRatingCategory(isRating: boolean, categories: readonly ProjectCategory[] | undefined, search: URLSearchParams): { category: number | null; options: CategoryOption[]; corrected: boolean } {
  const asked = search.get(CATEGORY_PARAM);
  return useMemo(() => {
    if (!isRating) return { category: null, options: [], corrected: false };
    // The api orders a site's categories by id and takes the first by default; so does the picker.
    const options = [...(categories ?? [])].sort((a, b) => a.id - b.id).map((c) => ({ id: c.id, title: c.parent_title ? `${c.parent_title} / ${c.title}` : c.title }));
    const first = options[0]?.id ?? null;
    if (first === null) return { category: null, options, corrected: asked !== null };
    const named = options.find((o) => String(o.id) === asked)?.id;
    return { category: named ?? first, options, corrected: named === undefined };
  }, [isRating, categories, asked]);
}

/** The URL with the rating's category, or without one for a site in no category. */
function writeCategory(search: URLSearchParams, category: number | null): URLSearchParams {
  const next = new URLSearchParams(search);
  if (category === null) next.delete(CATEGORY_PARAM);
  else next.set(CATEGORY_PARAM, String(category));
  return next;
}
