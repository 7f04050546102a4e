/** The dashboard's widgets (spec 001 §4 "Widgets"): each a card whose title leads to its full report. */
import { useContext, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Metric } from '@stat/schemas/catalogue';
import { EMPTY_TITLE, type CurrentUsers, type GraphResult, type RealtimeResult, type RealtimeSection, type RealtimeTable } from '@stat/schemas/reports';
import type { TrafficType } from '@stat/schemas/traffic';
import { counterPending, ProjectContext } from '../../app/project';
import { AddressLink } from '../../components/AddressLink';
import { usePopover } from '../../components/usePopover';
import { formatIsoDate } from '../../lib/dates';
import { formatMetric, formatNumber } from '../../lib/format';
import type { ChartType } from '../../reports/framework/charts';
import { ChartTypePicker } from '../../reports/framework/Toolbar';
import { LinesGraph, type GraphSeries, type LinesGraphProps } from '../../reports/dimension/LinesGraph';
import { PieGraph } from '../../reports/dimension/PieGraph';
import { originOf, sharedOrigin } from '../../reports/dimension/addresses';
import { graphTotal, type PieSlice } from '../../reports/dimension/graphs';
import { firstIncomplete } from '../../reports/framework/incomplete';
import { metricColumns, type ReportMetric } from '../../reports/view';
import { constructorHref, reportHref, toggleEvent, type DashboardPeriod } from './state';
import { Segmented } from '../../reports/framework/Segmented';
import { WidgetCard } from '../../reports/framework/WidgetCard';
import { useAnimatedCount } from './hooks';
import styles from './Dashboard.module.css';

/** §2 "Empty tables show 'Нет данных для отображения'". */
const EMPTY_TEXT = 'Нет данных для отображения';

/** Height of a widget's graph (spec 001 §9: 200 among the chart heights). */
const GRAPH_HEIGHT = 200;

const LINE_TYPES: readonly ChartType[] = ['line', 'bar', 'area'];
const ALL_TYPES: readonly ChartType[] = ['line', 'bar', 'pie', 'area'];

interface WidgetProps {
  readonly projectId: string;
  readonly period: DashboardPeriod;
}

/**
 * A widget's card: the title (a link to the full report) with its tools and «В конструкторе» on
 * one line, a row of controls under it when the widget has more than fit beside a title, its body.
 */
function Widget({
  section,
  title,
  projectId,
  period,
  report,
  tools,
  controls,
  loading = false,
  children,
}: WidgetProps & {
  readonly section: RealtimeSection;
  readonly title: string;
  readonly report: string;
  readonly tools?: ReactNode;
  readonly controls?: ReactNode;
  readonly loading?: boolean;
  readonly children: ReactNode;
}) {
  const preset = constructorHref(projectId, section);
  return (
    <WidgetCard
      title={<Link to={reportHref(projectId, report, period)}>{title}</Link>}
      tools={
        tools || preset ? (
          <>
            {tools}
            {preset ? (
              <Link className={styles.preset} to={preset} title="Открыть в конструкторе отчётов">
                В конструкторе
              </Link>
            ) : null}
          </>
        ) : null
      }
      loading={loading}
      testId={`widget-${section}`}
    >
      {controls ? (
        <div className={styles.controls} data-testid={`widget-${section}-controls`}>
          {controls}
        </div>
      ) : null}
      {children}
    </WidgetCard>
  );
}

/**
 * An empty widget (spec 001 §4 "Empty messages"): on a site whose counter has sent nothing yet,
 * the analytics message, whose «тут» leads an editor to the counter's code; else the default.
 */
function Empty() {
  const project = useContext(ProjectContext)?.project;
  if (project && counterPending(project) && project.permissions.can_edit_project) {
    return (
      <p className={styles.empty} data-testid="widget-no-counter">
        Нет данных. Настроить счётчик можно <Link to={`/stat/projects/${project.id}/settings/counter`}>тут</Link>
      </p>
    );
  }
  return <p className={styles.empty}>{EMPTY_TEXT}</p>;
}

/** «Уникальные посетители сейчас»: the last 5 minutes' visitors, counting to each new value. */
export function CurrentUsersWidget({ value, answer, ...rest }: WidgetProps & { readonly value: number | undefined; readonly answer: CurrentUsers | undefined }) {
  return (
    <Widget section="current_user_count" title="Уникальные посетители сейчас" report="summary" {...rest}>
      <div className={styles.now}>
        <span className={styles.nowValue} data-testid="current-users" data-value={answer?.value ?? ''}>
          {value === undefined ? '—' : formatNumber(value)}
        </span>
        {answer?.diff ? (
          <span className={answer.diff === 'up' ? styles.up : styles.down} data-testid="current-users-diff" title={`${formatNumber(answer.previous)} за ${answer.minutes} минут до этого`}>
            {answer.diff === 'up' ? '▲' : '▼'}
          </span>
        ) : null}
      </div>
      <p className={styles.caption}>за последние {answer?.minutes ?? 5} минут</p>
    </Widget>
  );
}

/** A period in words for a caption: «за 24.11.2026», «за 18.11.2026 – 24.11.2026». */
export function periodCaption(period: Pick<DashboardPeriod, 'start' | 'end'>): string {
  return period.start === period.end ? `за ${formatIsoDate(period.start)}` : `за ${formatIsoDate(period.start)} – ${formatIsoDate(period.end)}`;
}

/**
 * «Уникальные посетители» of a past period, in the place of the «now» count (which belongs only
 * to a period that includes now): the period's distinct visitors, from the page views' graph
 * answer asked with them (see mainSections).
 */
export function PeriodVisitorsWidget({ answer, loading, ...rest }: WidgetProps & { readonly answer: GraphResult | undefined; readonly loading: boolean }) {
  const value = graphTotal(answer, 'visitors') ?? undefined;
  return (
    <Widget section="current_user_count" title="Уникальные посетители" report="summary" loading={loading} {...rest}>
      <div className={styles.now}>
        <span className={styles.nowValue} data-testid="period-visitors" data-value={value ?? ''}>
          {value === undefined ? '—' : formatNumber(value)}
        </span>
      </div>
      <p className={styles.caption}>{periodCaption(rest.period)}</p>
    </Widget>
  );
}

/** The lines of a graph answer, coloured by their order (one line alone takes the first colour). */
function seriesOf(graph: GraphResult | null | undefined, metric: Metric, title?: string): { buckets: { ts: number; date: string }[] | undefined; lines: GraphSeries[] } {
  if (!graph) return { buckets: undefined, lines: [] };
  const index = graph.metrics.indexOf(metric);
  const first = graph.data[0]?.points ?? [];
  return {
    buckets: first.map((p) => ({ ts: p.ts, date: p.date })),
    lines: graph.data.map((line, i) => ({
      id: line.id,
      title: title ?? (line.title || EMPTY_TITLE),
      colorIndex: i,
      values: line.points.map((p) => (index < 0 ? null : (p.metrics[index] ?? null))),
    })),
  };
}

/**
 * A widget's lines: the bucket not yet over at the answer's `serverTime` drawn as still growing.
 * The live window moves with now, so nothing but its group ends its last bucket.
 */
function LiveLines({ serverTime, ...graph }: Omit<LinesGraphProps, 'height' | 'incompleteFrom'> & { readonly serverTime: number | undefined }) {
  return <LinesGraph {...graph} height={GRAPH_HEIGHT} incompleteFrom={graph.buckets ? firstIncomplete(graph.buckets, serverTime, graph.period.group) : undefined} />;
}

/**
 * «Просмотры страниц»: the period's page views by the group, as a line, bars or areas. The bucket
 * not yet over at the answer's `serverTime` (today's current minute) is drawn dashed: its count
 * still grows, and drawn like the others it read as traffic stopping. The total above counts it,
 * as the other widgets count its views.
 */
export function SeriesWidget({
  answer,
  loading,
  serverTime,
  ...rest
}: WidgetProps & { readonly answer: GraphResult | undefined; readonly loading: boolean; readonly serverTime?: number | undefined }) {
  const [type, setType] = useState<ChartType>('line');
  const metric = metricColumns(['page_views'])[0]!;
  const { buckets, lines } = useMemo(() => seriesOf(answer, 'page_views', 'Просмотры страниц'), [answer]);
  const total = useAnimatedCount(answer ? Number(answer.totals[0] ?? 0) : undefined);
  return (
    <Widget section="page_views" title="Просмотры страниц" report="summary" loading={loading} tools={<ChartTypePicker value={type} allowed={LINE_TYPES} onChange={setType} />} {...rest}>
      <p className={styles.total} data-testid="page-views-total" data-value={answer ? Number(answer.totals[0] ?? 0) : ''}>
        {total === undefined ? '—' : formatNumber(total)}
      </p>
      <LiveLines
        buckets={buckets}
        lines={lines}
        metric={metric}
        period={rest.period}
        loading={loading}
        chartType={type === 'pie' ? 'line' : type}
        serverTime={serverTime}
        testId="page-views-graph"
      />
    </Widget>
  );
}

/** The rows of a widget as a table: the title and each metric. */
function RowsTable({ table, firstColumn, links = false, testId }: { readonly table: RealtimeTable; readonly firstColumn: string; readonly links?: boolean; readonly testId: string }) {
  const columns = metricColumns(table.metrics);
  // The popular pages share their site's address: each row shows what differs (see addresses.ts).
  const origin = links ? sharedOrigin(table.data.map((r) => r.title)) : null;
  if (table.data.length === 0) return <Empty />;
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} data-testid={testId}>
        <thead>
          <tr>
            <th>{firstColumn}</th>
            {columns.map((c) => (
              <th key={c.name} className={styles.num}>
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.data.map((row) => (
            <tr key={row.id}>
              <td className={styles.titleCell} title={row.title}>
                {links && originOf(row.title) !== null ? <AddressLink address={row.title} origin={origin} className={styles.addressLink} /> : row.title || EMPTY_TITLE}
              </td>
              {columns.map((c, i) => (
                <td key={c.name} className={styles.num}>
                  {formatMetric(row.metrics[i] ?? null, c.unit)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A widget of rows (popular pages, popular UTM tags). */
export function TableWidget({
  section,
  title,
  firstColumn,
  answer,
  loading,
  links = false,
  ...rest
}: WidgetProps & { readonly section: 'active_pages' | 'utms'; readonly title: string; readonly firstColumn: string; readonly answer: RealtimeTable | undefined; readonly loading: boolean; readonly links?: boolean }) {
  const report = section === 'active_pages' ? 'page_urls' : 'utms';
  return (
    <Widget section={section} title={title} report={report} loading={loading} {...rest}>
      {answer ? <RowsTable table={answer} firstColumn={firstColumn} links={links} testId={`${section}-table`} /> : <div className={`skeleton ${styles.skeleton}`} />}
    </Widget>
  );
}

/** A pie's slices from a widget's rows by its first metric; the legend keeps rows of 0 («Мужчины 0»). */
function slicesOf(table: RealtimeTable | undefined): PieSlice[] | undefined {
  if (!table) return undefined;
  const sum = table.data.reduce((s, r) => s + Number(r.metrics[0] ?? 0), 0);
  if (sum === 0) return [];
  return table.data.map((r, i) => ({ id: r.id, title: r.title || EMPTY_TITLE, colorIndex: i, value: Number(r.metrics[0] ?? 0), percent: (Number(r.metrics[0] ?? 0) / sum) * 100 }));
}

/** A widget of shares (audience with its tabs, platforms with «Прочее»). */
export function PieWidget({
  section,
  title,
  answer,
  loading,
  report,
  tabs,
  tab,
  onTab,
  ...rest
}: WidgetProps & {
  readonly section: 'audience' | 'platforms';
  readonly title: string;
  readonly answer: RealtimeTable | undefined;
  readonly loading: boolean;
  readonly report: string;
  readonly tabs?: readonly { value: string; title: string }[];
  readonly tab?: string;
  readonly onTab?: (value: string) => void;
}) {
  const metric: ReportMetric = metricColumns([(answer?.metrics[0] ?? 'visits') as Metric])[0]!;
  const slices = slicesOf(answer);
  return (
    <Widget
      section={section}
      title={title}
      report={report}
      loading={loading}
      tools={tabs && tab !== undefined && onTab ? <Segmented label={title} options={tabs} value={tab} onChange={onTab} attr="data-tab" /> : null}
      {...rest}
    >
      <PieGraph slices={slices} metric={metric} percent={false} loading={loading} height={GRAPH_HEIGHT} testId={`${section}-pie`} />
    </Widget>
  );
}

/** «Источники трафика»: the traffic types, or one group's systems (§3), as a graph or a table. */
export function TrafficSourcesWidget({
  answer,
  loading,
  trafficType,
  groups,
  onTrafficType,
  serverTime,
  ...rest
}: WidgetProps & {
  readonly answer: RealtimeResult['traffic_sources'];
  readonly loading: boolean;
  /** The server's time of the answer: the bucket not yet over is drawn dashed (see SeriesWidget). */
  readonly serverTime?: number | undefined;
  readonly trafficType: TrafficType | null;
  readonly groups: readonly { type: TrafficType; title: string }[];
  readonly onTrafficType: (type: TrafficType | null) => void;
}) {
  const [view, setView] = useState<'graph' | 'table'>('graph');
  const [type, setType] = useState<ChartType>('line');
  const metricName = (answer?.metrics[0] ?? 'visits') as Metric;
  const metric = metricColumns([metricName])[0]!;
  const { buckets, lines } = useMemo(() => seriesOf(answer?.graph, metricName), [answer, metricName]);
  const slices = useMemo(() => (answer ? slicesOf({ ...answer, data: answer.data }) : undefined), [answer]);
  // The group, the view and the chart type take a row of their own: beside the title and
  // «В конструкторе» they fit no half-width card, and the link would wrap under the select.
  const controls = (
    <>
      <select
        className={styles.select}
        aria-label="Группа источников"
        value={trafficType ?? ''}
        onChange={(e) => onTrafficType(e.target.value === '' ? null : (e.target.value as TrafficType))}
        data-testid="traffic-group"
      >
        <option value="">Все источники</option>
        {groups.map((g) => (
          <option key={g.type} value={g.type}>
            {g.title}
          </option>
        ))}
      </select>
      <Segmented
        label="Вид"
        options={[
          { value: 'graph', title: 'График' },
          { value: 'table', title: 'Таблица' },
        ]}
        value={view}
        onChange={(v: 'graph' | 'table') => setView(v)}
        attr="data-view"
      />
      {view === 'graph' ? <ChartTypePicker value={type} allowed={ALL_TYPES} onChange={setType} /> : null}
    </>
  );
  return (
    <Widget section="traffic_sources" title="Источники трафика" report={answer?.report ?? 'traffic_sources'} loading={loading} controls={controls} {...rest}>
      {answer && answer.data.length === 0 ? (
        <Empty />
      ) : view === 'table' ? (
        answer ? <RowsTable table={answer} firstColumn="Источник" testId="traffic-sources-table" /> : null
      ) : type === 'pie' ? (
        <PieGraph slices={slices} metric={metric} percent={false} loading={loading} height={GRAPH_HEIGHT} testId="traffic-sources-graph" />
      ) : (
        <LiveLines
          buckets={buckets}
          lines={lines}
          metric={metric}
          period={rest.period}
          loading={loading}
          chartType={type}
          serverTime={serverTime}
          testId="traffic-sources-graph"
        />
      )}
    </Widget>
  );
}

/** «События»: the period's events (first 30), and the lines of up to 5 picked in the metric picker. */
export function EventsWidget({
  answer,
  loading,
  picked,
  max,
  onPicked,
  serverTime,
  ...rest
}: WidgetProps & {
  readonly answer: RealtimeResult['events'];
  readonly loading: boolean;
  readonly picked: readonly string[];
  readonly max: number;
  readonly onPicked: (names: string[]) => void;
  /** The server's time of the answer: the bucket not yet over is drawn dashed (see SeriesWidget). */
  readonly serverTime?: number | undefined;
}) {
  const { open, setOpen, root } = usePopover<HTMLDivElement>();
  const metric = metricColumns(['events_count'])[0]!;
  const { buckets, lines } = useMemo(() => seriesOf(answer?.graph ?? null, 'events_count'), [answer]);
  const list = answer?.events_list ?? [];
  const picker = (
    <div className={styles.pickerWrap} ref={root}>
      <button type="button" className={styles.pickerButton} aria-expanded={open} onClick={() => setOpen((v) => !v)} data-testid="events-picker">
        События на графике: {picked.length}
      </button>
      {open ? (
        <ul className={styles.picker} role="listbox" aria-multiselectable="true" aria-label="События на графике">
          {list.length === 0 ? <li className={styles.pickerEmpty}>{EMPTY_TEXT}</li> : null}
          {list.map((e) => {
            const checked = picked.includes(e.value);
            const full = !checked && picked.length >= max;
            return (
              <li key={e.value} title={full ? `Можно выбрать не больше ${max}` : undefined}>
                <label className={full ? `${styles.pickerItem} ${styles.pickerDisabled}` : styles.pickerItem}>
                  <input type="checkbox" checked={checked} disabled={full} onChange={() => onPicked(toggleEvent(picked, e.value, max))} />
                  {e.title}
                </label>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
  return (
    <Widget section="events" title="События" report="custom_vars" loading={loading} tools={picker} {...rest}>
      {picked.length > 0 ? (
        <LiveLines
          buckets={buckets}
          lines={lines}
          metric={metric}
          period={rest.period}
          loading={loading}
          serverTime={serverTime}
          testId="events-graph"
        />
      ) : null}
      {answer ? <RowsTable table={answer} firstColumn="Событие" testId="events-table" /> : <div className={`skeleton ${styles.skeleton}`} />}
    </Widget>
  );
}
