// @vitest-environment happy-dom
/**
 * «Настройки профиля» (issue 15): the name and the password change (the current password
 * required), and «Выйти на всех устройствах» ends the session here too.
 */
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { CurrentUser } from '@stat/schemas/accounts';
import { cleanup, fire, render, testUser, until, type Rendered } from '../testing/render';
import { ProfileModal } from './ProfileModal';
import { SessionProvider, useSession } from './session';
import { SnackbarProvider } from './Snackbar';

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

/** The api of the profile as api/API.md describes it; the current password is «old password 1». */
function profileApi(sent: Sent[]): typeof fetch {
  let user: CurrentUser = testUser({ user_name: 'Аня' });
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/top100/, '');
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : null;
    sent.push({ method: init?.method ?? 'GET', path, body });
    const answer = (status: number, json: unknown) => Response.json(json, { status });
    if (path === '/api/v1.0/user/current' && init?.method === 'PUT') {
      user = { ...user, user_name: (body as { user_name: string }).user_name };
      return answer(200, { responseStatus: 200, result: user });
    }
    if (path === '/api/v1.0/user/current/password') {
      const { current_password } = body as { current_password: string };
      if (current_password !== 'old password 1') return answer(400, { responseStatus: 400, errors: { message: 'Неверный текущий пароль' } });
      return answer(200, { responseStatus: 200, result: user });
    }
    if (path === '/api/v1.0/user/current/logout_all') return new Response(null, { status: 204 });
    return answer(404, { responseStatus: 404, errors: { message: 'no' } });
  }) as typeof fetch;
}

afterEach(cleanup);

/** The modal for the session's user, and where the app is. */
function Harness() {
  const { user } = useSession();
  const location = useLocation();
  return (
    <>
      <p data-testid="where">{`${location.pathname}${location.search}`}</p>
      <p data-testid="who">{user ? user.user_name : 'anonymous'}</p>
      {user ? <ProfileModal user={user} onClose={() => undefined} /> : null}
    </>
  );
}

async function open(): Promise<Rendered> {
  return render(
    <SessionProvider initial={{ status: 'user', user: testUser({ user_name: 'Аня' }) }}>
      <SnackbarProvider>
        <MemoryRouter initialEntries={['/stat/projects']}>
          <Routes>
            <Route path="*" element={<Harness />} />
          </Routes>
        </MemoryRouter>
      </SnackbarProvider>
    </SessionProvider>,
  );
}

async function type(input: HTMLInputElement | null, value: string) {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
    input?.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

// The modal is drawn in a portal on document.body, outside the rendered container.
const $ = <T extends Element>(_v: Rendered, selector: string) => document.body.querySelector<T>(selector);
const pageText = () => document.body.textContent ?? '';
const submit = (form: Element | null) => fire(form, new Event('submit', { bubbles: true, cancelable: true }));

describe('the profile', () => {
  it('changes the name', async () => {
    const sent: Sent[] = [];
    vi.stubGlobal('fetch', profileApi(sent));
    const v = await open();
    await type($(v, 'input[name=user_name]'), '  Анна  ');
    await submit($(v, '[data-testid=profile-name]'));
    await until(() => expect($(v, '[data-testid=who]')?.textContent).toBe('Анна'));
    expect(sent).toContainEqual({ method: 'PUT', path: '/api/v1.0/user/current', body: { user_name: 'Анна' } });
    expect(pageText()).toContain('Имя сохранено');
  });

  it('changes the password only with the current one, and says the other devices are logged out', async () => {
    const sent: Sent[] = [];
    vi.stubGlobal('fetch', profileApi(sent));
    const v = await open();
    const form = $(v, '[data-testid=profile-password]');
    await submit(form);
    expect(form?.textContent).toContain('Обязательное поле');
    expect(sent).toHaveLength(0);

    await type($(v, 'input[name=current_password]'), 'wrong one');
    await type($(v, 'input[name=new_password]'), 'new password 2');
    await submit(form);
    await until(() => expect(form?.textContent).toContain('Неверный текущий пароль'));

    await type($(v, 'input[name=current_password]'), 'old password 1');
    await submit(form);
    await until(() => expect(pageText()).toContain('Пароль изменен, вход на других устройствах завершен'));
    expect(sent.at(-1)).toEqual({ method: 'POST', path: '/api/v1.0/user/current/password', body: { current_password: 'old password 1', new_password: 'new password 2' } });
    expect($<HTMLInputElement>(v, 'input[name=current_password]')?.value).toBe('');
  });

  it('«Выйти на всех устройствах» logs out here too and opens the login page', async () => {
    const sent: Sent[] = [];
    vi.stubGlobal('fetch', profileApi(sent));
    const v = await open();
    await act(async () => {
      $<HTMLButtonElement>(v, '[data-testid=logout-all]')?.click();
    });
    await until(() => expect($(v, '[data-testid=who]')?.textContent).toBe('anonymous'));
    expect(sent).toContainEqual({ method: 'POST', path: '/api/v1.0/user/current/logout_all', body: null });
    expect($(v, '[data-testid=where]')?.textContent).toContain('/stat/projects?login');
  });
});
