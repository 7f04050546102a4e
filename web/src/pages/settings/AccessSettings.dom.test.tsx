// @vitest-environment happy-dom
/**
 * Access settings in happy-dom with a fake api (spec 000 §2.8, §3, §4): accepting a request as
 * edit or view, declining it, and changing a user's level, each with the exact body sent and the
 * snackbar the user sees.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import type { Project } from '@stat/schemas/projects';
import type { AccessRequest, AccessUser } from '@stat/schemas/access';
import { ProjectContext } from '../../app/project';
import { SessionProvider } from '../../app/session';
import { SnackbarProvider } from '../../app/Snackbar';
import { cleanup, fire, render, testUser, until, type Rendered } from '../../testing/render';
import AccessSettings from './AccessSettings';

const me = testUser({ role_id: 5 });

const project = {
  id: 8000001,
  title: 'Мой сайт',
  url: 'https://example.ru',
  can_edit_project: true,
  permissions: { can_edit_project: true },
} as Project;

interface Call {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

const ok = (result: unknown) => Response.json({ responseStatus: 200, result });

/** The api of one project: its users and pending requests, changed by the calls as the server would. */
function api(calls: Call[], start: { users: AccessUser[]; requests: AccessRequest[] }): typeof fetch {
  let users = start.users;
  let requests = start.requests;
  const entry = (email: string, level: number): AccessUser => ({ email, access_level: level, can_edit_project: level === 0, is_owner: false, is_current_user: false, user: { email } });
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace('/top100', '');
    const method = init?.method ?? 'GET';
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path, body });
    if (path === '/api/v1.0/project/8000001/access' && method === 'GET') return ok({ users });
    if (path === '/api/v1.0/project/8000001/access' && method === 'PATCH') {
      const sent = (body as { data: { users: { email: string; access_level: number }[] } }).data.users;
      users = sent.map((u) => ({ ...entry(u.email, u.access_level), ...(u.email === me.email ? { is_owner: true, is_current_user: true } : {}) }));
      return ok({ users });
    }
    if (path === '/api/v1.0/user/current/access_requests_list/8000001') return ok({ data: requests, total: requests.length });
    const decided = /^\/api\/v1\.0\/project\/8000001\/access_request\/(\d+)$/.exec(path);
    if (decided && method === 'POST') {
      const request = requests.find((r) => r.access_request_id === Number(decided[1]));
      const answer = body as { action_request: string; access_level?: number };
      if (request && answer.action_request === 'access') users = [...users, entry(request.email, answer.access_level ?? 1)];
      requests = requests.filter((r) => r !== request);
      return ok({});
    }
    return Response.json({ responseStatus: 404, errors: { message: 'not found' } }, { status: 404 });
  }) as typeof fetch;
}

const owner: AccessUser = { email: 'me@example.com', access_level: 0, can_edit_project: true, is_owner: true, is_current_user: true, user: { email: 'me@example.com' } };
const viewer: AccessUser = { email: 'other@example.com', access_level: 1, can_edit_project: false, is_owner: false, is_current_user: false, user: { email: 'other@example.com' } };
const request: AccessRequest = { access_request_id: 7, accessRequestId: 7, project_id: 8000001, project_title: 'Мой сайт', email: 'asks@example.com', created: '2026-11-20T10:00:00.000Z' };

let view: Rendered | null = null;
afterEach(cleanup);

async function renderAccess(calls: Call[], start: { users: AccessUser[]; requests: AccessRequest[] }) {
  vi.stubGlobal('fetch', api(calls, start));
  view = await render(
    <SessionProvider initial={{ status: 'user', user: me }}>
      <SnackbarProvider>
        <ProjectContext.Provider value={{ project, setProject: () => undefined, reload: () => undefined }}>
          <MemoryRouter>
            <AccessSettings />
          </MemoryRouter>
        </ProjectContext.Provider>
      </SnackbarProvider>
    </SessionProvider>,
  );
  await until(() => expect(view?.container.querySelectorAll('[data-testid="access-user"]').length).toBe(start.users.length));
  return view;
}

const click = (element: Element | null | undefined) => fire(element, new MouseEvent('click', { bubbles: true }));
const snackbar = (v: Rendered) => v.container.querySelector('[role="status"]')?.textContent;
const requestButton = (v: Rendered, label: string) =>
  [...v.container.querySelectorAll('[data-testid="access-request"] button')].find((b) => b.textContent === label);
const userRow = (v: Rendered, email: string) => v.container.querySelector(`[data-testid="access-user"][data-email="${email}"]`);

describe('access requests (spec 000 §2.8, §4)', () => {
  it.each([
    ['Дать просмотр', { action_request: 'access', access_level: 1, can_edit_project: false }, 'Только просмотр'],
    ['Дать редактирование', { action_request: 'access', access_level: 0, can_edit_project: true }, 'Редактирование'],
  ] as const)('«%s» grants the access, says «Доступ выдан» and lists the user', async (label, sent, level) => {
    const calls: Call[] = [];
    const v = await renderAccess(calls, { users: [owner], requests: [request] });
    await until(() => expect(requestButton(v, label)).toBeDefined());
    await click(requestButton(v, label));
    await until(() => expect(snackbar(v)).toBe('Доступ выдан'));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', path: '/api/v1.0/project/8000001/access_request/7', body: sent }]);
    await until(() => expect(v.container.querySelector('[data-testid="access-request"]')).toBeNull());
    await until(() => expect(userRow(v, 'asks@example.com')).not.toBeNull());
    const select = userRow(v, 'asks@example.com')?.querySelector<HTMLSelectElement>('[data-testid="access-user-level"]');
    expect(select?.selectedOptions[0]?.textContent).toBe(level);
  });

  it('«Отклонить» sends decline and says «Запрос на доступ отклонен»', async () => {
    const calls: Call[] = [];
    const v = await renderAccess(calls, { users: [owner], requests: [request] });
    await until(() => expect(requestButton(v, 'Отклонить')).toBeDefined());
    await click(requestButton(v, 'Отклонить'));
    await until(() => expect(snackbar(v)).toBe('Запрос на доступ отклонен'));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', path: '/api/v1.0/project/8000001/access_request/7', body: { action_request: 'decline' } }]);
    await until(() => expect(v.text()).toContain('Новых запросов нет'));
    expect(userRow(v, 'asks@example.com')).toBeNull();
  });
});

describe('changing a user’s level (spec 000 §2.8, §3)', () => {
  it('sends the whole list with the new level and says «Права доступа изменены»', async () => {
    const calls: Call[] = [];
    const v = await renderAccess(calls, { users: [owner, viewer], requests: [] });
    const select = userRow(v, 'other@example.com')?.querySelector<HTMLSelectElement>('[data-testid="access-user-level"]');
    expect(select?.selectedOptions[0]?.textContent).toBe('Только просмотр');
    // One's own row has no controls, only the level.
    expect(userRow(v, 'me@example.com')?.querySelector('select')).toBeNull();
    expect(userRow(v, 'me@example.com')?.querySelector('[data-testid="access-user-level-label"]')?.textContent).toBe('Редактирование');
    if (!select) throw new Error('no level select');
    select.value = '0';
    await fire(select, new Event('change', { bubbles: true }));
    await until(() => expect(snackbar(v)).toBe('Права доступа изменены'));
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([
      {
        method: 'PATCH',
        path: '/api/v1.0/project/8000001/access',
        body: {
          data: {
            users: [
              { email: 'me@example.com', access_level: 0, can_edit_project: true },
              { email: 'other@example.com', access_level: 0, can_edit_project: true },
            ],
          },
        },
      },
    ]);
    expect(userRow(v, 'other@example.com')?.querySelector<HTMLSelectElement>('[data-testid="access-user-level"]')?.selectedOptions[0]?.textContent).toBe('Редактирование');
  });
});
