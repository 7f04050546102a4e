// @vitest-environment happy-dom
/**
 * The report route: the demo's reports show before the project is read, and the project's answer
 * coming after the view drew fills in what needs it without drawing the whole report again.
 */
import { act, useMemo, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Outlet, Route, Routes } from 'react-router-dom';
import type { GraphResult, ReportRequest, TableResult } from '@stat/schemas/reports';
import type { Project } from '@stat/schemas/projects';
import { ProjectContext, type ProjectContextValue } from '../app/project';
import { cleanup, render, settle, until } from '../testing/render';
import { MediaReportRoute, ReportRoute } from './ReportRoute';

/** How often a graph was drawn (the uPlot wrapper rendered): once per drawing of the report. */
let graphDrawings = 0;

// happy-dom has no canvas: the one uPlot wrapper is replaced by a box that counts its drawings.
vi.mock('../components/UPlotChart', () => ({
  UPlotChart: (props: { series?: { label?: string }[]; testId?: string }) => {
    graphDrawings += 1;
    return <div data-testid={props.testId}>{(props.series ?? []).map((s) => s.label).join('|')}</div>;
  },
}));

const PROJECT_ID = '7596044';

function tableAnswer(body: ReportRequest): TableResult {
  const metrics = body.metrics ?? [];
  const row = { id: '["search"]', parent_id: null, level: 0, can_be_expanded: false, title: 'search', extra: { title: 'search' }, metrics: metrics.map(() => 3) };
  return { data: [row], metrics, all_metrics: metrics, totals: metrics.map(() => 3), sort: { name: 'visits', order: 'desc' }, meta: { total: 1, offset: 0, sample: body.sample ?? 1 } };
}

function graphAnswer(body: ReportRequest): GraphResult {
  const metrics = body.metrics ?? [];
  const points = [{ ts: 1_700_000_000, date: '2023-11-14 00:00:00', metrics: metrics.map(() => 1) }];
  return { metrics, data: [{ id: 'total', title: 'Итого', points }, { id: '["search"]', title: 'search', points }], totals: metrics.map(() => 1), sample: 1 };
}

function fakeApi(): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    const ok = (result: unknown) => new Response(JSON.stringify({ responseStatus: 200, result }), { status: 200, headers: { 'content-type': 'application/json' } });
    if (path.endsWith('/service/time')) return ok({ timestamp: Math.floor(Date.now() / 1000) });
    const body = JSON.parse(String(init?.body ?? '{}')) as ReportRequest;
    if (path.endsWith('/table')) return ok(tableAnswer(body));
    if (path.endsWith('/graph')) return ok(graphAnswer(body));
    return new Response(JSON.stringify({ responseStatus: 404, errors: { message: 'not found' } }), { status: 404 });
  }) as typeof fetch;
}

/** The demo project as its answer gives it (what the route and the view read of it). */
const demo = {
  id: Number(PROJECT_ID),
  counter_is_set: true,
  permissions: { can_edit_project: false },
  categories: [],
} as unknown as Project;

/** Gives the project to the page when told, as the project layout (app/ProjectLayout.tsx) does when its answer comes. */
let giveProject: () => void = () => undefined;

function ProjectArriving() {
  const [context, setContext] = useState<ProjectContextValue | null>(null);
  giveProject = () => setContext({ project: demo, setProject: () => undefined, reload: () => undefined });
  // The page is one element for the layout's life, as the project frame keeps it.
  const page = useMemo(() => <Outlet />, []);
  return <ProjectContext.Provider value={context}>{page}</ProjectContext.Provider>;
}

beforeEach(() => {
  graphDrawings = 0;
  vi.stubGlobal('fetch', fakeApi());
});
afterEach(cleanup);

describe('ReportRoute', () => {
  it('draws a demo report before its project comes, and not again when it comes', async () => {
    await render(
      <MemoryRouter initialEntries={[`/stat/projects/${PROJECT_ID}/new/report/traffic_sources?dateStart=7days&dateEnd=today&groupBy=day`]}>
        <Routes>
          <Route element={<ProjectArriving />}>
            <Route path="/stat/projects/:projectId/new/report/:reportName" element={<ReportRoute />} />
          </Route>
        </Routes>
      </MemoryRouter>,
    );
    await until(() => expect(document.querySelectorAll('[data-testid="report-row"]')).toHaveLength(1));
    await until(() => expect(document.querySelector('[data-testid="report-graph"]')?.textContent).toBe('search|Итого'));
    await settle(50);
    const drawn = graphDrawings;
    expect(drawn).toBeGreaterThan(0);
    await act(async () => giveProject());
    expect(document.querySelectorAll('[data-testid="report-row"]')).toHaveLength(1);
    expect(graphDrawings).toBe(drawn);
  });
});

describe('MediaReportRoute', () => {
  /** Opens a media page of a project whose answer lists `reports`. */
  async function openMedia(path: string, reports: readonly string[]): Promise<void> {
    const project = { ...demo, available_reports: reports } as Project;
    await render(
      <MemoryRouter initialEntries={[`/stat/projects/${PROJECT_ID}/${path}`]}>
        <Routes>
          <Route element={<ProjectContext.Provider value={{ project, setProject: () => undefined, reload: () => undefined }}><Outlet /></ProjectContext.Provider>}>
            <Route path="/stat/projects/:projectId/new/media/:reportName" element={<MediaReportRoute />} />
            <Route path="/stat/projects/:projectId/new/media/:reportName/:mediaId" element={<MediaReportRoute />} />
          </Route>
        </Routes>
      </MemoryRouter>,
    );
  }

  it.each([
    ['new/media/materials_summary?dateStart=7days&dateEnd=today&groupBy=day', 'Материалы', 'Название материала, URL'],
    ['new/media/authors_summary?dateStart=7days&dateEnd=today&groupBy=day', 'Авторы', 'Автор'],
  ])('%s: the report with its rows, its first column headed as the spec names it', async (path, title, header) => {
    await openMedia(path, ['summary', 'materials_summary', 'authors_summary', 'media_totals']);
    await until(() => expect(document.querySelectorAll('[data-testid="report-row"]')).toHaveLength(1));
    expect(document.querySelector('h1')?.textContent).toContain(title);
    expect(document.querySelector('thead')?.textContent).toContain(header);
    expect(document.querySelector('[data-testid="placeholder"]')).toBeNull();
  });

  it('a project without material hits (no media_totals) is told how to connect them, and asks for no report', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', (async (input: string | URL | Request, init?: RequestInit) => {
      asked.push(new URL(String(input), 'http://localhost').pathname);
      return fakeApi()(input, init);
    }) as typeof fetch);
    await openMedia('new/media/materials_summary', ['summary', 'materials_summary', 'authors_summary']);
    await until(() => expect(document.querySelector('[data-testid="placeholder"]')?.textContent).toContain('Как подключить'));
    await settle(50);
    expect(asked.filter((p) => p.endsWith('/table') || p.endsWith('/graph'))).toEqual([]);
  });

  it('the top, a material and an author are still placeholders', async () => {
    await openMedia('new/media/material/55', ['summary', 'media_totals']);
    await until(() => expect(document.querySelector('[data-testid="placeholder"]')?.textContent).toContain('Этот медиа-отчёт скоро появится.'));
  });
});
