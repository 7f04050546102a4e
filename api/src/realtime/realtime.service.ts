import { Inject, Injectable } from '@nestjs/common';
import {
  AUDIENCE_DIMENSIONS,
  CURRENT_USERS_MINUTES,
  GENDER_TITLES,
  moscowDate,
  moscowDayStart,
  OTHER_TITLE,
  REALTIME_DEFAULT_METRICS,
  REALTIME_LIMITS,
  REALTIME_SECTIONS,
  TRAFFIC_SOURCE_GROUPS,
  type AudienceDimension,
  type CurrentUsers,
  type GraphResult,
  type Metric,
  type RealtimeResult,
  type RealtimeSection,
  type RealtimeTable,
  type RealtimeWidgetParams,
  type TableResult,
  type TableRow,
} from '@stat/schemas';
import type { IsoDate, PeriodGroup } from '@stat/schemas/period';
import { bucketStartOf } from '@stat/schemas/buckets';
import { datesOf, periodSample, ReportRequestError, type ReportWindow, Sampling, ReportAnswers } from '../engine/index.js';
import type { ReportRequestDto } from '../reports/report-request.dto.js';
import type { MetricFilterRuleDto } from '../reports/filter.dto.js';
import { CLOCK, type Clock } from '../tokens.js';
import type { RealtimeRequestDto } from './realtime.dto.js';

const MINUTE_S = 60;

/**
 * The first second of today's last `minutes` (epoch seconds), widened back to the start of the
 * graph's bucket it falls in: the window's first bucket is then whole, as the graph draws it,
 * not a few seconds of a minute reading as a drop (the last 30 minutes at 12:30:27 by minute
 * start at 12:00:00, not 12:00:27). Never before today's start.
 */
export function windowStart(nowS: number, minutes: number, group: PeriodGroup, today: IsoDate): number {
  return bucketStartOf(Math.max(nowS - minutes * MINUTE_S, moscowDayStart(today) / 1000), group, today);
}

/**
 * The live dashboard's sections (spec 001, §3, §4, §7), each asked of the one report engine
 * with the base report behind its widget: no SQL of its own. The newest minutes are read from
 * the raw events as stored (a hit is in them a few hundred milliseconds after the collector
 * accepted it: benchmarks/RESULTS.md), so every api process reads the same live window.
 */
@Injectable()
export class RealtimeService {
  constructor(
    @Inject(ReportAnswers) private readonly reports: ReportAnswers,
    @Inject(Sampling) private readonly sampling: Sampling,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async realtime(projectId: number, body: RealtimeRequestDto): Promise<RealtimeResult> {
    const now = this.clock();
    const today = moscowDate(now);
    const { dateStart, dateEnd } = datesOf(body, today);
    const nowS = Math.floor(now / 1000);
    // A period detail is a window of today's last minutes; another period is read whole (static).
    const detail = body.period ?? 'today';
    const isToday = dateStart === today && dateEnd === today;
    const window: ReportWindow = isToday && detail !== 'today' ? { since: windowStart(nowS, detail, body.group, today) } : {};
    const askedSample = periodSample(body.sample, { dateStart, dateEnd }, today);
    const asked: ReportRequestDto = {
      date_start: dateStart,
      date_end: dateEnd,
      group: body.group,
      sample: askedSample,
      ...(body.filters === undefined ? {} : { filters: body.filters }),
      ...(body.dimension_filters === undefined ? {} : { dimension_filters: body.dimension_filters }),
    };
    const wanted = new Set<RealtimeSection>(body.sections ?? REALTIME_SECTIONS);
    const params = (s: RealtimeSection): RealtimeWidgetParams => body.widget_params?.[s] ?? {};
    // One refused widget refuses the request before anything is read: not after the others' queries started.
    for (const s of wanted) this.check(projectId, asked, s, params(s));
    // The sample every widget reads, decided once: today and a small period whole whatever was asked.
    const sample = await this.sampling.sampleOf(projectId, { dateStart, dateEnd }, askedSample);
    const request: ReportRequestDto = { ...asked, sample };
    const ask: Ask = { projectId, request, window, metricFilters: body.metric_filters ?? [] };
    const section = <T>(s: RealtimeSection, build: () => Promise<T>): Promise<T | undefined> => (wanted.has(s) ? build() : Promise.resolve(undefined));

    const [currentUsers, pageViews, trafficSources, activePages, audience, platforms, events, utms] = await Promise.all([
      section('current_user_count', () => this.currentUsers(projectId, request, nowS)),
      section('page_views', () => this.pageViews(ask, params('page_views'))),
      section('traffic_sources', () => this.trafficSources(ask, params('traffic_sources'))),
      section('active_pages', () => this.widgetTable(viewsOnly(ask), 'active_pages', params('active_pages'))),
      section('audience', () => this.audience(ask, params('audience'))),
      section('platforms', () => this.slices(ask, sectionOf('platforms', params('platforms')))),
      section('events', () => this.events(ask, params('events'))),
      section('utms', () => this.widgetTable(ask, 'utms', params('utms'))),
    ]);
    const result: RealtimeResult = {
      meta: { date_start: dateStart, date_end: dateEnd, group: body.group, since: window.since ?? null, server_time: now, sample },
    };
    if (currentUsers !== undefined) result.current_user_count = currentUsers;
    if (pageViews !== undefined) result.page_views = pageViews;
    if (trafficSources !== undefined) result.traffic_sources = trafficSources;
    if (activePages !== undefined) result.active_pages = activePages;
    if (audience !== undefined) result.audience = audience;
    if (platforms !== undefined) result.platforms = platforms;
    if (events !== undefined) result.events = events;
    if (utms !== undefined) result.utms = utms;
    return result;
  }

  /** Refuses a section's parameters as its reports would (metrics, limit), and the period and grouping they share. */
  private check(projectId: number, request: ReportRequestDto, s: RealtimeSection, params: RealtimeWidgetParams): void {
    // «Unique visitors now» is its own fixed call (visitors of the last minutes): nothing of the request's to refuse.
    if (s === 'current_user_count') return;
    const { report, metrics } = sectionOf(s, params);
    this.reports.check(projectId, report, { ...request, metrics });
  }

  /**
   * «Unique visitors now»: distinct visitors of the last 5 minutes, and of the 5 minutes before
   * for the direction of the change; read over the Moscow days those minutes touch, exactly.
   */
  private async currentUsers(projectId: number, request: ReportRequestDto, nowS: number): Promise<CurrentUsers> {
    const span = CURRENT_USERS_MINUTES * MINUTE_S;
    const count = async (since: number, until: number): Promise<number> => {
      const body: ReportRequestDto = { ...request, date_start: moscowDate(since * 1000), date_end: moscowDate(now * 1000), group: 'hour', metrics: ['visitors'], sample: 1, limit: 0 };
      const table = await this.reports.table(projectId, 'summary', body, { since, until });
      return Number(table.totals[0] ?? 0);
    };
    const now = nowS + 1;
    const [value, previous] = await Promise.all([count(now - span, now), count(now - 2 * span, now - span)]);
    return { value, previous, diff: value > previous ? 'up' : value < previous ? 'down' : null, minutes: CURRENT_USERS_MINUTES };
  }

  private async pageViews(ask: Ask, params: RealtimeWidgetParams): Promise<GraphResult> {
    const { report, metrics } = sectionOf('page_views', params);
    return this.reports.graph(ask.projectId, report, { ...ask.request, metrics }, ask.window);
  }

  /** The traffic types, or one source group's systems (§3 "Traffic-source groups"): the first 5, and their lines. */
  private async trafficSources(ask: Ask, params: RealtimeWidgetParams): Promise<NonNullable<RealtimeResult['traffic_sources']>> {
    const { report, metrics, limit } = sectionOf('traffic_sources', params);
    const table = await this.table(ask, report, metrics, limit);
    const graph = await this.reports.graph(ask.projectId, report, { ...ask.request, metrics: metrics.slice(0, 1), selected_lines: table.data.map((r) => r.id) }, ask.window);
    return { ...table, graph, traffic_type: trafficGroupOf(params)?.type ?? null, report };
  }

  /**
   * Gender, age or countries (§4). Gender and age are not collected (no source of them): every
   * visit is «Не определено», so the widget shows its legend with the whole count there.
   */
  private async audience(ask: Ask, params: RealtimeWidgetParams): Promise<NonNullable<RealtimeResult['audience']>> {
    const { dimension } = audienceTabOf(params);
    const read = sectionOf('audience', params);
    const { report, metrics } = read;
    if (dimension === 'geo_country') return { ...(await this.slices(ask, read)), dimension };
    const [base, whole] = await Promise.all([
      this.reports.table(ask.projectId, report, { ...ask.request, metrics }, ask.window),
      this.reports.table(ask.projectId, 'summary', { ...ask.request, metrics, limit: 0 }, ask.window),
    ]);
    const all = Number(whole.totals[0] ?? 0);
    const titled = dimension === 'gender' ? [GENDER_TITLES.male, GENDER_TITLES.female, GENDER_TITLES.unknown] : [GENDER_TITLES.unknown];
    const data = titled.map((title, i) => row(JSON.stringify([title]), title, [i === titled.length - 1 ? all : 0]));
    return { metrics, data, totals: [all], total: data.length, dimension, ...(base.meta.not_collected === undefined ? {} : { not_collected: base.meta.not_collected }) };
  }

  /** The events of the period (first 30), the lines of the events picked (at most 5), and the picker's list (first 20 of the whole days). */
  private async events(ask: Ask, params: RealtimeWidgetParams): Promise<NonNullable<RealtimeResult['events']>> {
    const { report, metrics, limit } = sectionOf('events', params);
    // The widget's metrics name the events whose lines are drawn; its table counts them all.
    const picked = params.metrics ?? [];
    const [table, graph, list] = await Promise.all([
      this.table(ask, report, metrics, limit),
      picked.length === 0
        ? Promise.resolve(null)
        : this.reports.graph(ask.projectId, report, { ...ask.request, metrics, selected_lines: picked.map((name) => JSON.stringify([name])) }, ask.window),
      this.reports.table(ask.projectId, report, { ...ask.request, metrics, limit: REALTIME_LIMITS.events_list }),
    ]);
    return { ...table, graph, events_list: list.data.map((r) => ({ value: String(r.extra.value ?? r.title), title: r.title })) };
  }

  /** A table section's rows: its report's, metrics and limit. */
  private widgetTable(ask: Ask, s: 'active_pages' | 'utms', params: RealtimeWidgetParams): Promise<RealtimeTable> {
    const { report, metrics, limit } = sectionOf(s, params);
    return this.table(ask, report, metrics, limit);
  }

  /** A widget's table: the report's top rows by its first metric, with the metric filters on its metrics. */
  private async table(ask: Ask, report: string, metrics: Metric[], limit: number): Promise<RealtimeTable> {
    const metricFilters = ask.metricFilters.filter((rule) => metrics.includes(rule.key as Metric));
    const body: ReportRequestDto = { ...ask.request, metrics, limit, sort: { name: metrics[0]!, order: 'desc' }, ...(metricFilters.length > 0 ? { metric_filters: metricFilters } : {}) };
    return shaped(await this.reports.table(ask.projectId, report, body, ask.window));
  }

  /**
   * A pie's slices: the first rows by one additive metric, and «Прочее» holding the rest (the
   * whole less the rows shown), so the slices add up to the whole.
   */
  private async slices(ask: Ask, { report, metrics, limit: shown }: SectionRead): Promise<RealtimeTable> {
    const table = await this.table(ask, report, metrics, shown);
    const whole = Number(table.totals[0] ?? 0);
    const rest = whole - table.data.reduce((sum, r) => sum + Number(r.metrics[0] ?? 0), 0);
    if (table.total <= shown || rest <= 0) return table;
    return { ...table, data: [...table.data, row('other', OTHER_TITLE, [rest])] };
  }
}

/**
 * The pages viewed in the window, each with the visitors who viewed it there. The page_urls rows
 * hold every hit on a page, and a page view's later hits (its engaged time, reading depth, clicks)
 * fall into a window of minutes without it: a page then showed more visitors than views (35 views
 * by 37 visitors in the last 30 minutes).
 */
function viewsOnly(ask: Ask): Ask {
  const request = ask.request;
  return { ...ask, request: { ...request, dimension_filters: [...(request.dimension_filters ?? []), { key: 'event_type', op: '=', value: 'pageview' }] } };
}

/** What every section's report call shares: the project, the period, the window, the metric filters. */
interface Ask {
  projectId: number;
  request: ReportRequestDto;
  window: ReportWindow;
  metricFilters: readonly MetricFilterRuleDto[];
}

/** What a section reads: its base report, the metrics asked of it, and its rows at most (a pie's slices; 0 for a graph alone). */
interface SectionRead {
  report: string;
  metrics: Metric[];
  limit: number;
}

/**
 * The one mapping of a section and its parameters to what it asks of the engine: both the check
 * before anything is read and the section's builder take it from here. Throws a
 * ReportRequestError for a limit over the section's.
 */
function sectionOf(s: Exclude<RealtimeSection, 'current_user_count'>, params: RealtimeWidgetParams): SectionRead {
  switch (s) {
    case 'page_views':
      return { report: 'summary', metrics: metricsOf(params, 'page_views'), limit: 0 };
    case 'traffic_sources':
      return { report: trafficGroupOf(params)?.report ?? 'traffic_sources', metrics: metricsOf(params, 'traffic_sources'), limit: limitOf(params, REALTIME_LIMITS.traffic_sources) };
    case 'active_pages':
      return { report: 'page_urls', metrics: metricsOf(params, 'active_pages'), limit: limitOf(params, REALTIME_LIMITS.table) };
    case 'audience':
      return { report: audienceTabOf(params).report, metrics: metricsOf(params, 'audience').slice(0, 1), limit: REALTIME_LIMITS.slices };
    case 'platforms':
      return { report: 'page_formats', metrics: metricsOf(params, 'platforms').slice(0, 1), limit: REALTIME_LIMITS.slices };
    case 'events':
      return { report: 'custom_vars', metrics: ['events_count'], limit: limitOf(params, REALTIME_LIMITS.events) };
    case 'utms':
      return { report: 'utms', metrics: metricsOf(params, 'utms'), limit: limitOf(params, REALTIME_LIMITS.table) };
  }
}

/** The source group a traffic-sources widget shows the systems of, if its parameters name one. */
const trafficGroupOf = (params: RealtimeWidgetParams): (typeof TRAFFIC_SOURCE_GROUPS)[number] | undefined =>
  params.traffic_type === undefined ? undefined : TRAFFIC_SOURCE_GROUPS.find((g) => g.type === params.traffic_type);

/** The audience widget's tab: gender unless its parameters name another dimension. */
function audienceTabOf(params: RealtimeWidgetParams): (typeof AUDIENCE_DIMENSIONS)[number] {
  const dimension: AudienceDimension = params.dimension ?? 'gender';
  return AUDIENCE_DIMENSIONS.find((a) => a.dimension === dimension)!;
}

function metricsOf(params: RealtimeWidgetParams, section: keyof typeof REALTIME_DEFAULT_METRICS): Metric[] {
  // The report behind the widget checks that they are its own (a 400 naming the report otherwise).
  return params.metrics === undefined || params.metrics.length === 0 ? [...REALTIME_DEFAULT_METRICS[section]] : (params.metrics as Metric[]);
}

function limitOf(params: RealtimeWidgetParams, fallback: number): number {
  if (params.limit !== undefined && params.limit > fallback) throw new ReportRequestError(`widget_params: limit must not exceed ${fallback}`);
  return params.limit ?? fallback;
}

const row = (id: string, title: string, metrics: number[]): TableRow => ({ id, parent_id: null, level: 0, can_be_expanded: false, title, extra: { title }, metrics });

function shaped(table: TableResult): RealtimeTable {
  return {
    metrics: table.metrics,
    data: table.data.map((r) => ({ ...r, can_be_expanded: false })),
    totals: table.totals.map((v) => Number(v ?? 0)),
    total: table.meta.total,
    ...(table.meta.not_collected === undefined ? {} : { not_collected: table.meta.not_collected }),
  };
}
