// @vitest-environment happy-dom
/**
 * The summary report's «Детализация»: another group asks the report again and, once its data has
 * come, says «Данные пересчитаны» (spec 001 §8); a first load or a failed request says nothing.
 * Its graph marks today's bucket as not yet over when the period runs up to today.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router-dom';
import type { GraphResult, ReportRequest, TableResult } from '@stat/schemas/reports';
import { reportDefinition } from '@stat/schemas/reports';
import type { Project } from '@stat/schemas/projects';
import { REGROUPED } from '../../data/messages';
import { cleanup, fire, render, settle, until, type Rendered } from '../../testing/render';
import { Address, address, inProject } from '../../testing/project-page';
import TimeSeriesReport from './TimeSeriesReport';

// happy-dom has no canvas: the one uPlot wrapper is replaced by an empty box.
vi.mock('../../components/UPlotChart', () => ({ UPlotChart: (props: { testId?: string }) => <div data-testid={props.testId} /> }));

const report = reportDefinition('summary')!;
const project = { id: 7596044, title: 'Демо-сайт', permissions: { can_edit_project: false } } as unknown as Project;

/** Requests the fake api got; `failGroup` makes the calls of that group answer 500. */
let sent: ReportRequest[];
let failGroup: string | null;

function answers(): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    const ok = (result: unknown) => new Response(JSON.stringify({ responseStatus: 200, result }), { status: 200, headers: { 'content-type': 'application/json' } });
    if (path.endsWith('/service/time')) return ok({ timestamp: Math.floor(Date.now() / 1000) });
    const body = JSON.parse(String(init?.body ?? '{}')) as ReportRequest;
    sent.push(body);
    if (body.group === failGroup) {
      return new Response(JSON.stringify({ responseStatus: 500, errors: { message: 'Oops... Something went terribly wrong.' } }), { status: 500, headers: { 'content-type': 'application/json' } });
    }
    const metrics = body.metrics ?? [];
    const point = { ts: 1_735_678_800, date: '2025-01-01 00:00:00', metrics: metrics.map(() => 1) };
    if (path.endsWith('/graph')) {
      const graph: GraphResult = { metrics, data: [{ id: 'total', title: '', points: [point] }], totals: metrics.map(() => 1), sample: 1 };
      return ok(graph);
    }
    const table: TableResult = {
      metrics,
      all_metrics: metrics,
      data: [{ id: '["2025-01-01"]', parent_id: null, level: 0, can_be_expanded: false, title: '2025-01-01', extra: { title: '2025-01-01' }, metrics: point.metrics, ts: point.ts }],
      totals: metrics.map(() => 1),
      sort: { name: 'date', order: 'desc' },
      meta: { total: 1, offset: 0, sample: 1 },
    } as TableResult;
    return ok(table);
  }) as typeof fetch;
}

let view: Rendered | null = null;
beforeEach(() => {
  sent = [];
  failGroup = null;
  vi.stubGlobal('fetch', answers());
});
afterEach(cleanup);

const snackbar = () => document.querySelector('[role="status"]')?.textContent ?? '';
const rows = () => document.querySelectorAll('[data-testid="summary-table"] tbody tr').length;

async function open() {
  view = await render(
    inProject(
      project,
      '/stat/projects/7596044/new/report/summary?dateStart=30days&dateEnd=today&groupBy=day',
      <Routes>
        <Route
          path="/stat/projects/:projectId/new/report/:reportName"
          element={
            <>
              <Address />
              <TimeSeriesReport projectId="7596044" report={report} />
            </>
          }
        />
      </Routes>,
    ),
  );
  await until(() => expect(rows()).toBeGreaterThan(0));
  await until(() => expect(sent.filter((b) => b.group === 'day').length).toBe(2));
}

const pick = (group: string) => fire(document.querySelector(`[data-testid="group-picker"] [data-group="${group}"]`), new MouseEvent('click', { bubbles: true }));

describe('«Детализация» of the summary report', () => {
  it('says «Данные пересчитаны» once the data by week has come', async () => {
    await open();
    await settle(50);
    // The first load is no recount.
    expect(snackbar()).toBe('');
    await pick('week');
    await until(() => expect(snackbar()).toBe(REGROUPED));
    expect(address(view!)).toContain('groupBy=week');
    expect(sent.filter((b) => b.group === 'week')).toHaveLength(2);
  });

  it('says nothing when the group picked is the one shown', async () => {
    await open();
    await pick('day');
    await settle(50);
    expect(snackbar()).toBe('');
  });

  it('says nothing when the recount failed', async () => {
    failGroup = 'week';
    await open();
    await pick('week');
    await until(() => expect(sent.filter((b) => b.group === 'week').length).toBe(2));
    await until(() => expect(document.querySelector('[data-testid="summary-table"]')).toBeNull());
    await settle(50);
    expect(snackbar()).toBe('');
  });
});

describe('the bucket not yet over (a period up to now)', () => {
  /** A bucket a day of the period asked, as the api sends them; the table is the same days. */
  function byDay(): typeof fetch {
    return (async (input: string | URL | Request, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      const ok = (result: unknown) => new Response(JSON.stringify({ responseStatus: 200, result }), { status: 200, headers: { 'content-type': 'application/json' } });
      if (path.endsWith('/service/time')) return ok({ timestamp: Math.floor(Date.now() / 1000) });
      const body = JSON.parse(String(init?.body ?? '{}')) as ReportRequest;
      const metrics = body.metrics ?? [];
      const days: string[] = [];
      for (let d = body.date_start ?? ''; d <= (body.date_end ?? ''); d = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)) days.push(d);
      const points = days.map((d) => ({ ts: Date.parse(`${d}T00:00:00+03:00`) / 1000, date: `${d} 00:00:00`, metrics: metrics.map(() => 10) }));
      if (path.endsWith('/graph')) return ok({ metrics, data: [{ id: 'total', title: '', points }], totals: metrics.map(() => 70), sample: 1 } satisfies GraphResult);
      return ok({
        metrics,
        all_metrics: metrics,
        data: points.map((p) => ({ id: `["${p.date.slice(0, 10)}"]`, parent_id: null, level: 0, can_be_expanded: false, title: p.date.slice(0, 10), extra: { title: p.date.slice(0, 10) }, metrics: p.metrics, ts: p.ts })),
        totals: metrics.map(() => 70),
        sort: { name: 'date', order: 'desc' },
        meta: { total: points.length, offset: 0, sample: 1 },
      } as TableResult);
    }) as typeof fetch;
  }

  // Tuesday 24 November 2026, 14:30 in Moscow, whatever the clock of the machine running this.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T14:30:00+03:00'));
    vi.stubGlobal('fetch', byDay());
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function openAt(query: string) {
    view = await render(
      inProject(
        project,
        `/stat/projects/7596044/new/report/summary?${query}`,
        <Routes>
          <Route path="/stat/projects/:projectId/new/report/:reportName" element={<TimeSeriesReport projectId="7596044" report={report} />} />
        </Routes>,
      ),
    );
    await until(() => expect(rows()).toBe(7));
  }
  const graphBox = () => document.querySelector('[data-testid="summary-graph"]')?.parentElement;

  it('draws today, the last day of 7 days up to today, as not yet over', async () => {
    await openAt('dateStart=7days&dateEnd=today&groupBy=day');
    await until(() => expect(graphBox()?.getAttribute('data-incomplete-from')).toBe('6'));
  });

  it('draws every day of a week that ended yesterday as whole', async () => {
    await openAt('dateStart=2026-11-17&dateEnd=2026-11-23&groupBy=day');
    await until(() => expect(graphBox()).toBeTruthy());
    expect(graphBox()?.hasAttribute('data-incomplete-from')).toBe(false);
  });
});
