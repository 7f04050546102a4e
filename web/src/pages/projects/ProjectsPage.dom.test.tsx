// @vitest-environment happy-dom
/**
 * My sites in happy-dom with a fake api: the staff switch, «load more», the search delay, stale
 * answers, delete with its counters (spec 000 §2.3, §4, §5, §9).
 */
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import type { CurrentUser } from '@stat/schemas/accounts';
import type { ProjectListRow } from '@stat/schemas/projects';
import { SessionProvider } from '../../app/session';
import { SnackbarProvider } from '../../app/Snackbar';
import { testListRow } from '../../testing/fixtures';
import { cleanup, fire, render, testUser, until, type Rendered } from '../../testing/render';
import ProjectsPage from './ProjectsPage';

const user = (roleId: number): CurrentUser =>
  testUser({
    is_top100_staff: roleId <= 4,
    role_permissions: roleId <= 4 ? ['read_all_projects', 'create_projects'] : roleId === 6 ? [] : ['create_projects'],
    role_id: roleId,
  });

const row = (id: number): ProjectListRow => testListRow(id, { counter_is_set: true });

interface Call {
  readonly method: string;
  readonly url: URL;
}

/** A fake list api of `total` sites; `delay(url)` holds an answer back for that long. */
function listApi(total: number, calls: Call[], delay: (url: URL) => number = () => 0): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push({ method: init?.method ?? 'GET', url });
    await new Promise((resolve) => setTimeout(resolve, delay(url)));
    if (url.pathname.endsWith('/project/list')) {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const search = url.searchParams.get('search') ?? '';
      const ids = Array.from({ length: total }, (_, i) => 100 + i).filter((id) => !search || String(id).includes(search));
      const data = ids.slice(offset, offset + 10).map(row);
      return Response.json({ responseStatus: 200, result: { data, meta: { total_rows: ids.length, deleted_rows: 2, limit: 10, offset } } });
    }
    if (init?.method === 'DELETE') return Response.json({ responseStatus: 200, result: {} });
    return Response.json({ responseStatus: 404, errors: { message: 'no' } }, { status: 404 });
  }) as typeof fetch;
}

afterEach(cleanup);

async function renderPage(roleId: number) {
  return render(
    <SessionProvider initial={{ status: 'user', user: user(roleId) }}>
      <SnackbarProvider>
        <MemoryRouter initialEntries={['/stat/projects']}>
          <ProjectsPage />
        </MemoryRouter>
      </SnackbarProvider>
    </SessionProvider>,
  );
}

/** Moves fake timers on and lets the answers and renders that follow settle. */
async function advance(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

const rows = (v: Rendered) => [...v.container.querySelectorAll('[data-testid="project-row"]')].map((r) => Number(r.getAttribute('data-project-id')));
const listCalls = (calls: Call[]) => calls.filter((c) => c.url.pathname.endsWith('/project/list'));

describe('my sites', () => {
  it('shows the staff switch to ADMIN, SUPPORT, ANALYST and MANAGER only, and asks for all projects with it', async () => {
    for (const roleId of [5, 6, 7]) {
      vi.stubGlobal('fetch', listApi(1, []));
      const v = await renderPage(roleId);
      await until(() => expect(rows(v)).toHaveLength(1));
      expect(v.container.querySelector('[data-testid="show-all"]')).toBeNull();
      // COUNTER_READONLY has no create_projects: no «Добавить сайт».
      expect(v.container.querySelector('[data-testid="add-site"]') === null).toBe(roleId === 6);
      v.unmount();
    }
    const calls: Call[] = [];
    vi.stubGlobal('fetch', listApi(1, calls));
    const v = await renderPage(2);
    await until(() => expect(rows(v)).toHaveLength(1));
    const toggle = v.container.querySelector<HTMLInputElement>('[data-testid="show-all"]');
    expect(toggle?.closest('label')?.textContent).toBe('Показать все доступные проекты');
    expect(listCalls(calls).at(-1)?.url.searchParams.get('expanded')).toBeNull();
    await fire(toggle, new MouseEvent('click', { bubbles: true }));
    await until(() => expect(listCalls(calls).at(-1)?.url.searchParams.get('expanded')).toBe('true'));
  });

  it('offers the demo to a new user with no sites: «посмотреть демо» opens its summary', async () => {
    vi.stubGlobal('fetch', listApi(0, []));
    const v = await renderPage(7);
    await until(() => expect(v.container.querySelector('[data-testid="projects-empty"]')).not.toBeNull());
    expect(v.container.querySelector('[data-testid="projects-empty"]')?.textContent).toContain('У вас пока нет сайтов');
    const link = v.container.querySelector('[data-testid="demo-link"]');
    expect(link?.textContent).toBe('посмотреть демо');
    expect(link?.getAttribute('href')).toBe('/stat/projects/7596044/new/report/summary');
    expect(v.container.querySelector('[data-testid="demo-offer"]')?.textContent).toContain('только для просмотра');
  });

  it('explains the status dots and the metric columns under the list', async () => {
    vi.stubGlobal('fetch', listApi(2, []));
    const v = await renderPage(7);
    await until(() => expect(rows(v)).toHaveLength(2));
    const legend = v.container.querySelector('[data-testid="list-legend"]')?.textContent;
    expect(legend).toContain('Счётчик корректно установлен');
    expect(legend).toContain('Счётчик не установлен');
    expect(legend).toContain('Показатели — за сегодня; изменение — по сравнению с предыдущими 24 часами.');
    expect(v.container.querySelector('[data-testid="counter-status"]')?.getAttribute('aria-label')).toBe('Счётчик корректно установлен');
  });

  it('loads 10 rows and more on «Показать ещё» while fewer are shown than the total', async () => {
    const calls: Call[] = [];
    vi.stubGlobal('fetch', listApi(12, calls));
    const v = await renderPage(7);
    await until(() => expect(rows(v)).toHaveLength(10));
    expect(listCalls(calls)[0]?.url.searchParams.get('limit')).toBe('10');
    const more = v.container.querySelector('[data-testid="load-more"]');
    expect(more?.textContent).toContain('10 из 12');
    await fire(more, new MouseEvent('click', { bubbles: true }));
    await until(() => expect(rows(v)).toHaveLength(12));
    expect(listCalls(calls).at(-1)?.url.searchParams.get('offset')).toBe('10');
    expect(v.container.querySelector('[data-testid="load-more"]')).toBeNull();
  });

  it('searches 500 ms after the last keystroke and ignores a stale answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const calls: Call[] = [];
      // The answer for «10» comes 2 s late, after the answer for «101»: it must not win.
      vi.stubGlobal('fetch', listApi(12, calls, (url) => (url.searchParams.get('search') === '10' ? 2000 : 0)));
      const v = await renderPage(7);
      await advance(10);
      const input = v.container.querySelector<HTMLInputElement>('[data-testid="projects-search"]');
      expect(input?.placeholder).toBe('Искать по моим сайтам');
      const type = async (text: string) => {
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, text);
        await fire(input, new Event('input', { bubbles: true }));
      };
      const searches = () => listCalls(calls).map((c) => c.url.searchParams.get('search'));
      await type('1');
      await advance(200);
      await type('10');
      await advance(499);
      expect(searches()).toEqual([null]);
      await advance(1);
      expect(searches()).toEqual([null, '10']);
      await type('101');
      await advance(500);
      expect(searches()).toEqual([null, '10', '101']);
      await advance(10);
      expect(rows(v)).toEqual([101]);
      await advance(2000);
      expect(rows(v)).toEqual([101]);
      await type('nothing');
      await advance(500);
      await advance(10);
      expect(v.container.querySelector('[data-testid="projects-empty"]')?.textContent).toBe(
        'По вашему запросу ничего не найденоПроверьте правильность написания или попробуйте другой запрос',
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('deletes after a confirmation: «Счётчик удален», the row leaves, the counters move', async () => {
    const calls: Call[] = [];
    vi.stubGlobal('fetch', listApi(3, calls));
    const v = await renderPage(7);
    await until(() => expect(rows(v)).toHaveLength(3));
    const counts = () => [...v.container.querySelectorAll('nav[aria-label="Списки сайтов"] a')].map((a) => a.textContent);
    expect(counts()).toEqual(['Мои сайты3', 'Удаленные сайты2']);
    await fire(v.container.querySelector('[data-project-id="101"] [data-testid="row-menu"]'), new MouseEvent('click', { bubbles: true }));
    const items = [...v.container.querySelectorAll('[role="menuitem"]')].map((i) => i.textContent);
    expect(items).toEqual(['Код счётчика', 'Счётчик', 'Рейтинг', 'Доступ', 'Удалить счётчик']);
    await fire(v.container.querySelector('[data-testid="delete-project"]'), new MouseEvent('click', { bubbles: true }));
    const confirm = document.querySelector('[data-testid="confirm-button"]');
    expect(document.querySelector('[data-testid="confirm-dialog"]')?.textContent).toContain('Удалить счётчик?');
    await fire(confirm, new MouseEvent('click', { bubbles: true }));
    await until(() => expect(rows(v)).toEqual([100, 102]));
    expect(calls.some((c) => c.method === 'DELETE' && c.url.pathname.endsWith('/project/101'))).toBe(true);
    expect(rows(v)).toEqual([100, 102]);
    expect(counts()).toEqual(['Мои сайты2', 'Удаленные сайты3']);
    expect(document.body.textContent).toContain('Счётчик удален');
  });
});
