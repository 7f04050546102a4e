// @vitest-environment happy-dom
/**
 * The constructor page against a fake api: a saved template that names a dimension the
 * constructor no longer has (the api answers it cleaned, with a notice) opens as a working report
 * with the notice; «Сохранить как новый» offers the title with « (изменён)» and posts it.
 */
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { ConstructorRequest, ConstructorTemplate, TableResult } from '@stat/schemas/reports';
import { SessionProvider } from '../../app/session';
import { SnackbarProvider } from '../../app/Snackbar';
import { cleanup, fire, render, testUser, until } from '../../testing/render';
import ConstructorReport from './ConstructorReport';

vi.mock('../../components/UPlotChart', () => ({ UPlotChart: () => <div /> }));

/** As the api answers a stored template that named `gender` (no longer offered). */
const STALE: ConstructorTemplate = {
  id: 5,
  title: 'Старый отчёт',
  email: 'owner@example.com',
  update_date: '2026-11-20T09:00:00.000Z',
  days_in_range: 6,
  body: { metrics: ['visits'], dimensions: ['traffic_type'], viewType: 'table' },
  dropped: ['gender'],
  notice: 'Шаблон ссылается на параметры, которых больше нет: gender. Они убраны из отчёта.',
};

let tables: ConstructorRequest[];
let created: unknown[];

function fakeApi(): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    const ok = (result: unknown) => new Response(JSON.stringify({ responseStatus: 200, result }), { status: 200, headers: { 'content-type': 'application/json' } });
    if (path.endsWith('/service/time')) return ok({ timestamp: Math.floor(Date.now() / 1000) });
    if (path.endsWith('/constructor_template/5')) return ok(STALE);
    if (path.endsWith('/constructor_template') && init?.method === 'POST') {
      created.push(JSON.parse(String(init.body)));
      return ok({ ...STALE, id: 6, title: (JSON.parse(String(init.body)) as { title: string }).title, notice: undefined, dropped: undefined });
    }
    if (path.endsWith('/constructor_template/6')) return ok({ ...STALE, id: 6, title: 'Старый отчёт (изменён)', notice: undefined, dropped: undefined });
    if (path.endsWith('/eventbase/7/constructor')) {
      const body = JSON.parse(String(init?.body ?? '{}')) as ConstructorRequest;
      tables.push(body);
      const answer: TableResult = {
        data: [{ id: '["search"]', parent_id: null, level: 0, can_be_expanded: false, title: 'Поисковые системы', extra: { title: 'Поисковые системы' }, metrics: [12] }],
        metrics: ['visits'],
        all_metrics: ['visits'],
        totals: [12],
        sort: { name: 'visits', order: 'desc' },
        meta: { total: 1, offset: 0, sample: 1 },
      };
      return ok(answer);
    }
    return new Response(JSON.stringify({ responseStatus: 404, errors: { message: 'not found' } }), { status: 404 });
  }) as typeof fetch;
}

function Where() {
  return <output data-testid="where">{useLocation().search}</output>;
}

beforeEach(() => {
  tables = [];
  created = [];
  vi.stubGlobal('fetch', fakeApi());
});
afterEach(cleanup);

const q = (selector: string) => document.body.querySelector<HTMLElement>(selector);
const click = (el: Element | null | undefined) => fire(el, new MouseEvent('click', { bubbles: true }));

async function open(query: string) {
  await render(
    <SessionProvider initial={{ status: 'user', user: testUser() }}>
      <SnackbarProvider>
        <MemoryRouter initialEntries={[`/stat/projects/7/new/report/constructor?${query}`]}>
          <Routes>
            <Route
              path="/stat/projects/:projectId/new/report/constructor"
              element={
                <>
                  <Where />
                  <ConstructorReport projectId="7" />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </SnackbarProvider>
    </SessionProvider>,
  );
}

describe('the constructor page', () => {
  it('opens a template that lost a dimension with the rest of its query and a notice, never a broken page', async () => {
    await open('template=5');
    await until(() => expect(q('[data-testid="report-row"]')?.textContent).toContain('Поисковые системы'));
    expect(q('[data-testid="constructor-notice"]')?.textContent).toBe('Шаблон ссылается на параметры, которых больше нет: gender. Они убраны из отчёта.');
    expect(q('h1')?.textContent).toBe('Старый отчёт');
    expect(tables.at(-1)).toMatchObject({ metrics: ['visits'], dimensions: ['traffic_type'], view_type: 'table' });
    expect(Object.fromEntries(new URLSearchParams(q('[data-testid="where"]')?.textContent ?? ''))).toMatchObject({
      template: '5',
      dateStart: '7days',
      dateEnd: 'today',
      metrics: 'visits',
      dimensions: 'traffic_type',
    });
  });

  it('saves an opened template as a new one titled with « (изменён)»', async () => {
    await open('template=5');
    await until(() => expect(q('[data-testid="report-row"]')).not.toBeNull());
    await click(q('[data-testid="constructor-save"]'));
    await click(q('[data-testid="constructor-save-new"]'));
    await until(() => expect(q('[data-testid="template-title-input"]')).not.toBeNull());
    expect((q('[data-testid="template-title-input"]') as HTMLInputElement).value).toBe('Старый отчёт (изменён)');
    await act(async () => {
      q('[data-testid="template-title-submit"]')?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    });
    await until(() => expect(created).toHaveLength(1));
    expect(created[0]).toEqual({
      title: 'Старый отчёт (изменён)',
      // The period of 7 days got its grouping, by day, when the report opened.
      body: { metrics: ['visits'], dimensions: ['traffic_type'], viewType: 'table', group: 'day' },
      days_in_range: 6,
    });
    await until(() => expect(document.body.textContent).toContain('Отчёт сохранён'));
    await until(() => expect(new URLSearchParams(q('[data-testid="where"]')?.textContent ?? '').get('template')).toBe('6'));
  });
});
