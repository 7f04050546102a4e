// @vitest-environment happy-dom
/**
 * The calls a report page makes first, worked out from its URL as the app starts
 * (`app/preload.ts`), against the calls its view then makes: byte for byte the same bodies, for
 * plain URLs and URLs with a period, a sort, a page, filters and corrected values. A page opened at
 * an invalid URL ends at the corrected parameters in one navigation, and at the URL the preload
 * corrects to it navigates nowhere. The view takes an early answer only for exactly its own call,
 * once, and never after the user changed.
 */
import { Profiler } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { GraphResult, ReportRequest, TableResult } from '@stat/schemas/reports';
import { reportDefinition, type ReportDefinition } from '@stat/schemas/reports';
import { serverToday } from '../lib/clock';
import { render, settle, until, type Rendered } from '../testing/render';
import DimensionReport from './dimension/DimensionReport';
import { correctedReportUrl, firstReportCalls } from './firstCalls';
import { dropPreloaded, preloadReportCall } from './framework/preloaded';
import TimeSeriesReport from './timeseries/TimeSeriesReport';

// happy-dom has no canvas: the one uPlot wrapper is replaced by a box that shows its series.
vi.mock('../components/UPlotChart', () => ({
  UPlotChart: (props: { series?: { label?: string }[]; testId?: string }) => (
    <div data-testid={props.testId}>{(props.series ?? []).map((s) => s.label).join('|')}</div>
  ),
}));

const PROJECT = '7596044';

function definition(name: string): ReportDefinition {
  const d = reportDefinition(name);
  if (!d) throw new Error(`${name} is not defined`);
  return d;
}

/** The bodies the fake api got, as sent (strings), by kind. */
let sent: { table: string[]; graph: string[] };

/** A table answer of one row titled `title` with `visits` visits (the metrics the body asks for). */
function tableAnswer(body: ReportRequest, title: string, visits: number): TableResult {
  const metrics = body.metrics ?? [];
  return {
    data: [{ id: JSON.stringify([title]), parent_id: null, level: 0, can_be_expanded: false, title, extra: { title }, metrics: metrics.map(() => visits) }],
    metrics,
    all_metrics: metrics,
    totals: metrics.map(() => visits),
    sort: body.sort ? { name: body.sort.name, order: body.sort.order ?? 'desc' } : { name: 'visits', order: 'desc' },
    meta: { total: 1, offset: body.offset ?? 0, sample: body.sample ?? 1 },
  };
}

function graphAnswer(body: ReportRequest, title: string): GraphResult {
  const metrics = body.metrics ?? [];
  const points = [{ ts: 1_700_000_000, date: '2023-11-14 00:00:00', metrics: metrics.map(() => 1) }];
  return { metrics, data: [{ id: 'total', title: 'Итого', points }, { id: JSON.stringify([title]), title, points }], totals: metrics.map(() => 1), sample: 1 };
}

function fakeApi(): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    const ok = (result: unknown) => new Response(JSON.stringify({ responseStatus: 200, result }), { status: 200, headers: { 'content-type': 'application/json' } });
    if (path.endsWith('/service/time')) return ok({ timestamp: Math.floor(Date.now() / 1000) });
    const text = String(init?.body ?? '{}');
    const body = JSON.parse(text) as ReportRequest;
    if (path.endsWith('/table')) {
      sent.table.push(text);
      // A time-series row is titled by its bucket's date.
      return ok(tableAnswer(body, path.includes('/summary/') ? (body.date_start ?? '') : 'asked', 7));
    }
    if (path.endsWith('/graph')) {
      sent.graph.push(text);
      return ok(graphAnswer(body, 'asked'));
    }
    return new Response(JSON.stringify({ responseStatus: 404, errors: { message: 'not found' } }), { status: 404 });
  }) as typeof fetch;
}

let view: Rendered | null = null;
beforeEach(() => {
  sent = { table: [], graph: [] };
  dropPreloaded();
  vi.stubGlobal('fetch', fakeApi());
});
afterEach(() => {
  view?.unmount();
  view = null;
  dropPreloaded();
  vi.unstubAllGlobals();
});

/** Every query the router's location had, in order (a correction of the URL adds one). */
let queries: string[] = [];

function LocationProbe() {
  const { search } = useLocation();
  if (queries[queries.length - 1] !== search) queries.push(search);
  return null;
}

async function open(report: ReportDefinition, query: string, onCommit: () => void = () => undefined) {
  const View = report.drilldown.length === 0 ? TimeSeriesReport : DimensionReport;
  queries = [];
  view = await render(
    <MemoryRouter initialEntries={[`/stat/projects/${PROJECT}/new/report/${report.name}${query}`]}>
      <LocationProbe />
      <Profiler id="report" onRender={onCommit}>
        <Routes>
          <Route path="/stat/projects/:projectId/new/report/:reportName" element={<View projectId={PROJECT} report={report} />} />
        </Routes>
      </Profiler>
    </MemoryRouter>,
  );
}

/** What the preload works out for a URL's query, on the server's day (the fake api's clock is this one). */
function firstCalls(report: ReportDefinition, query: string) {
  const calls = firstReportCalls(report, new URLSearchParams(query), serverToday(0));
  if (!calls) throw new Error(`no first calls for ${report.name}`);
  return calls;
}

const GLOBAL = encodeURIComponent(JSON.stringify([{ key: 'traffic_type', op: 'include', value: ['search', 'social'] }]));

describe('a report page\'s first calls, worked out from its URL', () => {
  const WEEK = 'dateStart=7days&dateEnd=today&groupBy=day';
  /** A report, the query it is opened at, and the query its page ends at when that one is invalid. */
  const cases: [name: string, query: string, corrected?: string][] = [
    ['summary', '', WEEK],
    ['summary', '?dateStart=30days&dateEnd=today&groupBy=week'],
    ['summary', `?dateStart=2026-10-01&dateEnd=2026-10-31&groupBy=day&orderBy=visits:asc&offset=90&globalFilters=${GLOBAL}&tableFilters=visits:>:5`],
    ['summary', '?dateStart=someday&dateEnd=today&groupBy=year&orderBy=nope:asc&offset=13', WEEK],
    ['traffic_sources', '', WEEK],
    [
      'traffic_sources',
      `?dateStart=yesterday&dateEnd=yesterday&groupBy=hour&metrics=visits,bounces&orderBy=title&sample=0.01&limit=25&offset=25&graphs=bounces:bar&globalFilters=${GLOBAL}&tableFilters=visits:>:10`,
      `dateStart=yesterday&dateEnd=yesterday&groupBy=hour&metrics=visits,bounces&orderBy=title:asc&sample=0.01&limit=25&offset=25&graphs=bounces:bar&globalFilters=${GLOBAL}&tableFilters=visits:>:10`,
    ],
    ['traffic_sources', '?metrics=visits,nope&sample=7&limit=13&offset=3&graphs=nope:pie&percent=1', `metrics=visits&graphs=visits:pie&percent=1&${WEEK}`],
    [
      'traffic_sources',
      `?dateStart=someday&groupBy=year&metrics=visits,nope&globalFilters=${GLOBAL}&tableFilters=visits:>:5,nope:>:1`,
      `metrics=visits&globalFilters=${GLOBAL}&tableFilters=visits:>:5&${WEEK}`,
    ],
    // The rating's category is cleared on any other report (§4), a dimension or a time series.
    ['traffic_sources', `?${WEEK}&categoryId=1302`, WEEK],
    ['summary', `?${WEEK}&categoryId=1302`, WEEK],
    ['browser', '?dateStart=7days&dateEnd=today&groupBy=day&metrics=visitors'],
    ['sex', '?dateStart=7days&dateEnd=today', WEEK],
  ];
  for (const [name, query] of cases) {
    it(`are the view's first calls byte for byte: ${name}${query || ' (no parameters)'}`, async () => {
      const report = definition(name);
      const expected = firstCalls(report, query);
      // The filters of the address reach the bodies (the reading is not trivially empty).
      if (query.includes('globalFilters')) expect(expected.table.dimension_filters).toHaveLength(1);
      if (query.includes('tableFilters')) expect(expected.table.metric_filters).toHaveLength(1);
      await open(report, query);
      await until(() => expect(sent.table.length).toBeGreaterThan(0));
      if (expected.graph) await until(() => expect(sent.graph.length).toBeGreaterThan(0));
      expect(sent.table[0]).toBe(JSON.stringify(expected.table));
      expect(sent.graph[0]).toBe(expected.graph ? JSON.stringify(expected.graph) : undefined);
    });
  }

  for (const [name, query, expected] of cases) {
    it(`and the URL it corrects to, so the view writes nothing: ${name}${query || ' (no parameters)'}`, async () => {
      const report = definition(name);
      const corrected = correctedReportUrl(report, new URLSearchParams(query), serverToday(0));
      const sorted = (q: string) => [...new URLSearchParams(q)].sort(([a], [b]) => a.localeCompare(b));
      expect(corrected === null ? null : sorted(corrected.toString())).toEqual(expected === undefined ? null : sorted(expected));
      // Opened as it is, the view ends at the corrected parameters, in one navigation.
      await open(report, query);
      await until(() => expect(sent.table.length).toBeGreaterThan(0));
      await until(() => expect(sorted(queries[queries.length - 1] ?? '')).toEqual(sorted(expected ?? query)));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(queries.map(sorted)).toEqual(expected === undefined ? [sorted(query)] : [sorted(query), sorted(expected)]);
      view?.unmount();
      // Opened at the corrected URL, it keeps it: no navigation (so no second render of the page).
      const at = corrected ? `?${corrected.toString()}` : query;
      await open(report, at);
      await until(() => expect(sent.table.length).toBeGreaterThan(1));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(queries).toEqual([at]);
    });
  }

  it('correct nothing in a URL already corrected, and plain URLs get their period', () => {
    const report = definition('traffic_sources');
    const corrected = correctedReportUrl(report, new URLSearchParams(), serverToday(0));
    expect(corrected?.toString()).toBe('dateStart=7days&dateEnd=today&groupBy=day');
    expect(correctedReportUrl(report, corrected ?? new URLSearchParams(), serverToday(0))).toBeNull();
    expect(correctedReportUrl(definition('rating'), new URLSearchParams(), serverToday(0))).toBeNull();
  });

  it('leave the rating out: its body needs the project\'s category', () => {
    expect(firstReportCalls(definition('rating'), new URLSearchParams(), serverToday(0))).toBeNull();
  });
});

describe('the view and the early answers', () => {
  const report = definition('traffic_sources');
  const query = '?dateStart=7days&dateEnd=today&groupBy=day&orderBy=visitors:desc';
  const rowTitles = () => [...document.querySelectorAll<HTMLElement>('[data-testid="report-row"] th')].map((th) => th.textContent);
  const graphLines = () => document.querySelector('[data-testid="report-graph"]')?.textContent;

  /** Early answers for `calls`, titled «early», as preload.ts would start them. */
  function preload(calls: { graph: ReportRequest | null; table: ReportRequest }, projectId = PROJECT, reportName = report.name) {
    const { graph, table } = calls;
    if (graph) preloadReportCall('graph', projectId, reportName, graph, async () => graphAnswer(graph, 'early'));
    preloadReportCall('table', projectId, reportName, table, async () => tableAnswer(table, 'early', 3));
  }

  it('shows the early answers of its own calls and asks for nothing', async () => {
    preload(firstCalls(report, query));
    await open(report, query);
    await until(() => expect(rowTitles()).toEqual(['early']));
    await until(() => expect(graphLines()).toBe('early|Итого'));
    expect(sent).toEqual({ table: [], graph: [] });
  });

  it('draws early answers that came before its code in its first drawing of the table and graph, never empty first', async () => {
    preload(firstCalls(report, query));
    await settle();
    // What each commit of the view showed, from the first one with the table.
    const drawn: { rows: (string | null)[]; lines: string | undefined }[] = [];
    await open(report, query, () => {
      if (document.querySelector('[data-testid="report-table"]')) drawn.push({ rows: rowTitles(), lines: graphLines() });
    });
    await until(() => expect(rowTitles()).toEqual(['early']));
    expect(drawn[0]).toEqual({ rows: ['early'], lines: 'early|Итого' });
    expect(sent).toEqual({ table: [], graph: [] });
  });

  it('asks itself when the early calls were for another URL, project or report, and shows its own answers', async () => {
    preload(firstCalls(report, '?dateStart=30days&dateEnd=today&groupBy=day&orderBy=visitors:desc'));
    await open(report, query);
    await until(() => expect(rowTitles()).toEqual(['asked']));
    await until(() => expect(graphLines()).toBe('asked|Итого'));
    expect(sent.table).toEqual([JSON.stringify(firstCalls(report, query).table)]);
    view?.unmount();

    for (const [projectId, name] of [['7596045', report.name], [PROJECT, 'sites']] as const) {
      sent = { table: [], graph: [] };
      preload(firstCalls(report, query), projectId, name);
      await open(report, query);
      await until(() => expect(rowTitles()).toEqual(['asked']));
      expect(sent.table).toHaveLength(1);
      view?.unmount();
    }
    view = null;
  });

  it('takes an early answer once: the same report opened again asks anew', async () => {
    preload(firstCalls(report, query));
    await open(report, query);
    await until(() => expect(rowTitles()).toEqual(['early']));
    view?.unmount();
    await open(report, query);
    await until(() => expect(rowTitles()).toEqual(['asked']));
    expect(sent.table).toHaveLength(1);
  });

  it('never shows an early answer after the user changed (login, logout, a lost session)', async () => {
    preload(firstCalls(report, query));
    dropPreloaded();
    await open(report, query);
    await until(() => expect(rowTitles()).toEqual(['asked']));
    await until(() => expect(graphLines()).toBe('asked|Итого'));
  });

  it('asks again when an early call failed (a visitor whose session was still being read)', async () => {
    const { graph, table } = firstCalls(report, query);
    preloadReportCall('table', PROJECT, report.name, table, () => Promise.reject(new Error('401')));
    if (graph) preloadReportCall('graph', PROJECT, report.name, graph, () => Promise.reject(new Error('401')));
    await open(report, query);
    await until(() => expect(rowTitles()).toEqual(['asked']));
    await until(() => expect(graphLines()).toBe('asked|Итого'));
    expect(sent.table).toHaveLength(1);
    expect(sent.graph).toHaveLength(1);
  });
});
