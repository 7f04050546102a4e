/**
 * The live dashboard (spec 001 §2 "dashboard", §3 "Dashboard widgets", §4 "Real-time
 * dashboard"): unique visitors now, page views, traffic sources, popular pages, audience,
 * platforms, events and popular UTM tags of today's last minutes (or of any period, static),
 * updated every 30 s while the tab is visible.
 */
import { useMemo, useState } from 'react';
import { allowedGroups, type PeriodDetail, type PeriodGroup } from '@stat/schemas/period';
import {
  AUDIENCE_DIMENSIONS,
  MAX_DASHBOARD_EVENTS,
  PERIOD_DETAIL_OPTIONS,
  TRAFFIC_SOURCE_GROUPS,
  type AudienceDimension,
  type RealtimeRequest,
  type RealtimeResult,
  type RealtimeSection,
} from '@stat/schemas/reports';
import type { TrafficType } from '@stat/schemas/traffic';
import { Switch } from '../../components/ui';
import { statusOf } from '../../lib/api';
import { ErrorPage } from '../ErrorPage';
import { useProject } from '../../app/project';
import { GROUP_LABELS } from '../../lib/period';
import { useRequest, useServerClock, useUrlCorrection } from '../../reports/framework/hooks';
import { ReportPage } from '../../reports/framework/ReportPage';
import { ReportSkeleton } from '../../reports/framework/ReportSkeleton';
import { PeriodPicker, Toolbar } from '../../reports/framework/Toolbar';
import { SamplePicker } from '../../reports/framework/SamplePicker';
import { useRegroupedNotice } from '../../reports/framework/regrouped';
import { FilterBar } from '../../reports/filters/FilterBar';
import { correctFilters } from '../../reports/filters/url';
import { useReportFilters } from '../../reports/filters/useReportFilters';
import type { Metric } from '@stat/schemas/catalogue';
import toolbarStyles from '../../reports/framework/Toolbar.module.css';
import { useAnimatedCount, useAutoUpdate, usePageVisible } from './hooks';
import { fetchRealtime } from './realtimeApi';
import { autoUpdateAvailable, autoUpdateRuns, chooseDetail, choosePeriod, includesNow, initialPeriod, isLive, mainSections, type DashboardPeriod } from './state';
import { CurrentUsersWidget, EventsWidget, PeriodVisitorsWidget, PieWidget, SeriesWidget, TableWidget, TrafficSourcesWidget } from './Widgets';
import { Segmented } from '../../reports/framework/Segmented';
import styles from './Dashboard.module.css';

const TITLE = 'Дашборд';

/** The metrics the widgets show: the ones a metric filter may name. */
const FILTER_METRICS: readonly Metric[] = ['page_views', 'visits', 'visitors', 'events_count'];

/** The dashboard's URL correction: invalid filters are left out, as a report's are (spec 001 §5). */
const correctDashboardUrl = (search: URLSearchParams) => correctFilters(search, FILTER_METRICS);

export default function DashboardPage() {
  const clock = useServerClock();
  if (!clock) return <ReportSkeleton title={TITLE} />;
  return <Dashboard today={clock.today} />;
}

/** What a widget shows when its request failed: nothing to show («Нет данных для отображения»). */
function failed<S extends RealtimeSection>(s: S): RealtimeResult[S] {
  // «Unique visitors now» unknown is a dash, not a zero.
  if (s === 'current_user_count') return undefined;
  const table = { metrics: [], data: [], totals: [], total: 0 };
  const graph = { metrics: [], data: [], totals: [], sample: 1 };
  const empty: Required<Omit<RealtimeResult, 'meta'>> = {
    current_user_count: { value: 0, previous: 0, diff: null, minutes: 0 },
    page_views: graph,
    traffic_sources: { ...table, graph, traffic_type: null, report: 'traffic_sources' },
    active_pages: table,
    audience: { ...table, dimension: 'gender' },
    platforms: table,
    events: { ...table, graph: null, events_list: [] },
    utms: table,
  };
  return empty[s] as RealtimeResult[S];
}

/** One realtime call's state: the answer of the latest request (older ones are dropped). */
function useSections(projectId: string, body: RealtimeRequest, nonce: number) {
  const key = `${JSON.stringify(body)}#${nonce}`;
  return useRequest<RealtimeResult>(key, (signal) => fetchRealtime(projectId, body, { signal }));
}

function Dashboard({ today }: { readonly today: string }) {
  const { project } = useProject();
  const projectId = String(project.id);
  const [period, setPeriod] = useState<DashboardPeriod>(() => initialPeriod(today));
  const [autoOn, setAutoOn] = useState(true);
  // §9 "Dashboard … sample default 1"; the api reads today whole whatever is asked.
  const [sample, setSample] = useState(1);
  const [nonce, setNonce] = useState(0);
  const [trafficType, setTrafficType] = useState<TrafficType | null>(null);
  const [audience, setAudience] = useState<AudienceDimension>('gender');
  const [events, setEvents] = useState<string[]>([]);
  const live = isLive(period, today);
  const visible = usePageVisible();

  useUrlCorrection(correctDashboardUrl);
  const filters = useReportFilters(FILTER_METRICS);
  const base = useMemo<RealtimeRequest>(
    () => ({ date_start: period.start, date_end: period.end, group: period.group, sample, ...(live ? { period: period.detail } : {}), ...filters.request }),
    [period, live, sample, filters.request],
  );
  const now = includesNow(period, today);
  const main = useSections(projectId, { ...base, ...mainSections(now) }, nonce);
  const traffic = useSections(
    projectId,
    { ...base, sections: ['traffic_sources'], ...(trafficType ? { widget_params: { traffic_sources: { traffic_type: trafficType } } } : {}) },
    nonce,
  );
  const audienceAnswer = useSections(projectId, { ...base, sections: ['audience'], widget_params: { audience: { dimension: audience } } }, nonce);
  const eventsAnswer = useSections(projectId, { ...base, sections: ['events'], ...(events.length > 0 ? { widget_params: { events: { metrics: events } } } : {}) }, nonce);
  const loading = main.loading || traffic.loading || audienceAnswer.loading || eventsAnswer.loading;

  // §8: a period over the configured limits (507) shows a date picker to shorten it instead of the widgets.
  const overLimit = [main, traffic, audienceAnswer, eventsAnswer].some((a) => a.error !== undefined && statusOf(a.error) === 507);
  const periodPicker = <PeriodPicker period={period} today={today} projectId={projectId} onChange={(start, end) => setPeriod((p) => choosePeriod(start, end, today, p))} />;
  const regrouped = useRegroupedNotice(
    period.group,
    loading,
    [main, traffic, audienceAnswer, eventsAnswer].some((a) => a.error !== undefined),
  );
  const runs = autoUpdateRuns({ live, on: autoOn, visible, loading });
  const progress = useAutoUpdate(runs, () => setNonce((n) => n + 1));
  const currentUsers = useAnimatedCount(main.data?.current_user_count?.value);

  /** A section of an answer; a failed request reads as a section of no rows (§4: "A section is flagged as error when it has errors or no data"). */
  const section = <S extends RealtimeSection>(answer: { data: RealtimeResult | undefined; error: unknown }, s: S): RealtimeResult[S] | undefined =>
    answer.error !== undefined ? failed(s) : answer.data?.[s];
  const shownPeriod = period;

  return (
    <ReportPage title={TITLE} subtitle={projectId}>
      <div className={styles.tools}>
        <Toolbar>
          {periodPicker}
          {live ? (
            <div className={toolbarStyles.group} data-testid="detail-picker">
              <span className={toolbarStyles.label}>Показать:</span>
              <Segmented
                label="Показать"
                options={PERIOD_DETAIL_OPTIONS.map((o) => ({ value: o.value, title: o.title }))}
                value={period.detail}
                onChange={(detail: PeriodDetail) => setPeriod((p) => chooseDetail(detail, today, p))}
                attr="data-detail"
              />
            </div>
          ) : null}
          <div className={toolbarStyles.group} data-testid="group-picker">
            <span className={toolbarStyles.label}>Детализация:</span>
            <Segmented
              label="Детализация"
              options={allowedGroups(period.start, period.end, live ? period.detail : undefined).map((g) => ({ value: g, title: GROUP_LABELS[g] }))}
              value={period.group}
              onChange={(group: PeriodGroup) => {
                regrouped(group);
                setPeriod((p) => ({ ...p, group }));
              }}
              attr="data-group"
            />
          </div>
          <SamplePicker value={sample} used={main.data?.meta.sample} today={live} onChange={setSample} />
          <div className={styles.auto}>
            <Switch checked={autoOn && live} disabled={!autoUpdateAvailable({ live })} onChange={setAutoOn} data-testid="auto-update">
              Автообновление
            </Switch>
          </div>
        </Toolbar>
        <div
          className={styles.progress}
          role="progressbar"
          aria-label="До обновления"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(progress * 100)}
          data-testid="auto-update-progress"
          data-state={runs ? 'running' : 'stopped'}
        >
          <span className={styles.progressFill} style={{ transform: `scaleX(${runs ? progress : 0})` }} />
        </div>
      </div>
      <FilterBar projectId={projectId} metrics={FILTER_METRICS} period={period} state={filters} />

      {overLimit ? (
        <ErrorPage compact status={507}>
          {periodPicker}
        </ErrorPage>
      ) : (
        <div className={styles.widgets}>
          <div className={styles.grid}>
            {now ? (
              <CurrentUsersWidget projectId={projectId} period={shownPeriod} value={currentUsers} answer={section(main, 'current_user_count')} />
            ) : (
              <PeriodVisitorsWidget projectId={projectId} period={shownPeriod} answer={section(main, 'page_views')} loading={main.loading} />
            )}
            <SeriesWidget projectId={projectId} period={shownPeriod} answer={section(main, 'page_views')} serverTime={main.data?.meta.server_time} loading={main.loading} />
            <TrafficSourcesWidget
              projectId={projectId}
              period={shownPeriod}
              answer={section(traffic, 'traffic_sources')}
              serverTime={traffic.data?.meta.server_time}
              loading={traffic.loading}
              trafficType={trafficType}
              groups={TRAFFIC_SOURCE_GROUPS}
              onTrafficType={setTrafficType}
            />
            <TableWidget
              section="active_pages"
              title="Популярные страницы"
              firstColumn="Адрес страницы"
              projectId={projectId}
              period={shownPeriod}
              answer={section(main, 'active_pages')}
              loading={main.loading}
              links
            />
            <PieWidget
              section="audience"
              title="Аудитория"
              projectId={projectId}
              period={shownPeriod}
              answer={section(audienceAnswer, 'audience')}
              loading={audienceAnswer.loading}
              report={AUDIENCE_DIMENSIONS.find((a) => a.dimension === audience)!.report}
              tabs={AUDIENCE_DIMENSIONS.map((a) => ({ value: a.dimension, title: a.title }))}
              tab={audience}
              onTab={(d) => setAudience(d as AudienceDimension)}
            />
            <PieWidget section="platforms" title="Платформы" projectId={projectId} period={shownPeriod} answer={section(main, 'platforms')} loading={main.loading} report="page_formats" />
            <EventsWidget
              projectId={projectId}
              period={shownPeriod}
              answer={section(eventsAnswer, 'events')}
              serverTime={eventsAnswer.data?.meta.server_time}
              loading={eventsAnswer.loading}
              picked={events}
              max={MAX_DASHBOARD_EVENTS}
              onPicked={setEvents}
            />
            <TableWidget section="utms" title="Популярные UTM-метки" firstColumn="utm_source" projectId={projectId} period={shownPeriod} answer={section(main, 'utms')} loading={main.loading} />
          </div>
        </div>
      )}
    </ReportPage>
  );
}
