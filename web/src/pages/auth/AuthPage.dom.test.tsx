// @vitest-environment happy-dom
/**
 * The login and registration forms as a new user meets them (issue 15): after a failed login,
 * «Зарегистрироваться» opens a clean form; a field shows its hint or its error, never both.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { act } from 'react';
import { SessionProvider } from '../../app/session';
import { routes } from '../../app/routes';
import { cleanup, fire, render, until, type Rendered } from '../../testing/render';

afterEach(cleanup);

/** The api's answer to a wrong password (api/src/auth/auth.service.ts BAD_CREDENTIALS). */
const wrongPassword = (async () =>
  new Response(JSON.stringify({ responseStatus: 401, errors: { message: 'Неверный email или пароль' } }), {
    status: 401,
    headers: { 'content-type': 'application/json' },
  })) as typeof fetch;

async function type(input: HTMLInputElement, value: string) {
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    setter?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function openLogin(): Promise<Rendered> {
  const router = createMemoryRouter(routes, { initialEntries: ['/stat/projects?login'] });
  return render(
    <SessionProvider initial={{ status: 'anonymous', user: null }}>
      <RouterProvider router={router} />
    </SessionProvider>,
  );
}

const form = (v: Rendered, id: string) => v.container.querySelector<HTMLFormElement>(`[data-testid=${id}]`);
const field = (f: HTMLFormElement | null, name: string) => f?.querySelector<HTMLInputElement>(`input[name=${name}]`) ?? null;

describe('the register form after a failed login', () => {
  it('starts clean: no error of the login, no typed e-mail or password', async () => {
    vi.stubGlobal('fetch', wrongPassword);
    const v = await openLogin();
    await until(() => expect(form(v, 'login-form')).not.toBeNull());
    const login = form(v, 'login-form');
    await type(field(login, 'email')!, 'new@example.com');
    await type(field(login, 'password')!, 'wrong-password');
    await fire(login, new Event('submit', { bubbles: true, cancelable: true }));
    await until(() => expect(form(v, 'login-form')?.textContent).toContain('Неверный email или пароль'));

    const toRegister = [...v.container.querySelectorAll('a')].find((a) => a.textContent === 'Зарегистрироваться');
    await fire(toRegister, new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    await until(() => expect(form(v, 'register-form')).not.toBeNull());
    const register = form(v, 'register-form');
    expect(register?.textContent).not.toContain('Неверный email или пароль');
    expect(field(register, 'email')?.value).toBe('');
    expect(field(register, 'password')?.value).toBe('');
    expect(register?.textContent).toContain('От 8 до 128 символов');
  });

  it('shows the password error in place of the hint', async () => {
    const v = await openLogin();
    const toRegister = await (async () => {
      await until(() => expect(form(v, 'login-form')).not.toBeNull());
      return [...v.container.querySelectorAll('a')].find((a) => a.textContent === 'Зарегистрироваться');
    })();
    await fire(toRegister, new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    await until(() => expect(form(v, 'register-form')).not.toBeNull());
    const register = form(v, 'register-form');
    await type(field(register, 'email')!, 'new@example.com');
    await type(field(register, 'password')!, 'short');
    await fire(register, new Event('submit', { bubbles: true, cancelable: true }));
    await until(() => expect(register?.textContent).toContain('Минимум 8 символов'));
    expect(register?.textContent).not.toContain('От 8 до 128 символов');
  });
});
