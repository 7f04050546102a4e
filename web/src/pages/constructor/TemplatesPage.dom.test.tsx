// @vitest-environment happy-dom
/**
 * «Конструктор отчётов» against a fake api: three ready cards until «Показать все шаблоны», then
 * every group; «Мои отчёты» pages its list by 50 with «Показать ещё».
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { READY_TEMPLATES, type ConstructorTemplate } from '@stat/schemas/reports';
import { SessionProvider } from '../../app/session';
import { SnackbarProvider } from '../../app/Snackbar';
import { cleanup, fire, render, testUser, until } from '../../testing/render';
import TemplatesPage from './TemplatesPage';

const template = (id: number): ConstructorTemplate => ({
  id,
  title: `Отчёт ${id}`,
  email: 'owner@example.com',
  update_date: '2026-11-20T09:00:00.000Z',
  days_in_range: 0,
  body: { metrics: ['visits'], dimensions: ['url'], viewType: 'table' },
});
const ALL = Array.from({ length: 52 }, (_, i) => template(i + 1));
let asked: string[];

function fakeApi(): typeof fetch {
  return (async (input: string | URL | Request) => {
    const url = new URL(String(input), 'http://localhost');
    const ok = (result: unknown) => new Response(JSON.stringify({ responseStatus: 200, result }), { status: 200, headers: { 'content-type': 'application/json' } });
    if (url.pathname.endsWith('/service/time')) return ok({ timestamp: Math.floor(Date.now() / 1000) });
    if (url.pathname.endsWith('/user/constructor_templates')) {
      asked.push(url.search);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      return ok({ constructor_template: ALL.slice(offset, offset + 50), totals: ALL.length });
    }
    return new Response('{}', { status: 404 });
  }) as typeof fetch;
}

beforeEach(() => {
  asked = [];
  vi.stubGlobal('fetch', fakeApi());
});
afterEach(cleanup);

const all = (selector: string) => [...document.body.querySelectorAll<HTMLElement>(selector)];
const click = (el: Element | null | undefined) => fire(el, new MouseEvent('click', { bubbles: true }));

/** Where a click led: the constructor's route shows its query. */
function Opened() {
  const location = useLocation();
  return <p data-testid="opened">{location.search}</p>;
}

async function open() {
  await render(
    <SessionProvider initial={{ status: 'user', user: testUser() }}>
      <SnackbarProvider>
        <MemoryRouter initialEntries={['/stat/projects/7/constructor']}>
          <Routes>
            <Route path="/stat/projects/:projectId/constructor" element={<TemplatesPage />} />
          </Routes>
        </MemoryRouter>
      </SnackbarProvider>
    </SessionProvider>,
  );
}

describe('the templates page', () => {
  it('shows three ready templates beside «Создать новый отчёт», and all of them by group on demand', async () => {
    await open();
    expect(all('[data-testid^="ready-template-"]').map((c) => c.dataset.testid)).toEqual(['ready-template-dau', 'ready-template-wau', 'ready-template-mau']);
    await click(document.body.querySelector('[data-testid="constructor-show-all"]'));
    expect(all('[data-testid^="ready-template-"]')).toHaveLength(READY_TEMPLATES.length);
    expect(all('h2').map((h) => h.textContent)).toEqual(expect.arrayContaining(['Аудитория', 'Технологии', 'Источники', 'Содержание и поведение']));
  });

  it('lists «Мои отчёты» 50 at a time, the rest with «Показать ещё»', async () => {
    await open();
    await until(() => expect(all('[data-testid="my-report-open"]')).toHaveLength(50));
    await click(document.body.querySelector('[data-testid="my-reports-more"]'));
    await until(() => expect(all('[data-testid="my-report-open"]')).toHaveLength(52));
    expect(all('[data-testid="my-report-open"]').at(-1)?.textContent).toBe('Отчёт 52');
    expect(asked).toEqual(['', '?offset=50']);
    expect(document.body.querySelector('[data-testid="my-reports-more"]')).toBeNull();
  });

  it('opens a ready template clicked before the server clock came, once it comes (the click is not lost)', async () => {
    let tell: (() => void) | null = null;
    const held = new Promise<void>((resolve) => {
      tell = resolve;
    });
    const answer = fakeApi();
    vi.stubGlobal('fetch', (async (input: string | URL | Request) => {
      if (String(input).includes('/service/time')) await held;
      return answer(input);
    }) as typeof fetch);
    // Fresh modules: the clock this page load knows is module state, known by the tests above.
    vi.resetModules();
    const { default: Page } = await import('./TemplatesPage');
    const { SessionProvider: Session } = await import('../../app/session');
    const { SnackbarProvider: Snackbar } = await import('../../app/Snackbar');
    await render(
      <Session initial={{ status: 'user', user: testUser() }}>
        <Snackbar>
          <MemoryRouter initialEntries={['/stat/projects/7/constructor']}>
            <Routes>
              <Route path="/stat/projects/:projectId/constructor" element={<Page />} />
              <Route path="/stat/projects/:projectId/new/report/constructor" element={<Opened />} />
            </Routes>
          </MemoryRouter>
        </Snackbar>
      </Session>,
    );
    await click(document.body.querySelector('[data-testid="ready-template-wau"]'));
    expect(document.body.querySelector('[data-testid="opened"]')).toBeNull();
    tell!();
    await until(() => expect(document.body.querySelector('[data-testid="opened"]')?.textContent).toMatch(/^\?.*dateStart=/));
    expect(document.body.querySelector('[data-testid="ready-template-wau"]')).toBeNull();
  });
});
