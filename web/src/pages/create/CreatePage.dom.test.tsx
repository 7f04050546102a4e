// @vitest-environment happy-dom
/**
 * The create flow in happy-dom with a fake api (spec 000 §2.5, §5, §8): the title fetched from the
 * site a second after the address, the same-url hint and step 3 with the ownership proof,
 * «Ошибка валидации» with the api's field texts and for a refused captcha.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { SessionProvider } from '../../app/session';
import { SnackbarProvider } from '../../app/Snackbar';
import { cleanup, fire, render, testUser, until, type Rendered } from '../../testing/render';
import CreatePage from './CreatePage';

const user = testUser();

const ok = (result: unknown) => Response.json({ responseStatus: 200, result });
const fail = (status: number, message: string, fields?: Record<string, string[]>) =>
  Response.json({ responseStatus: status, errors: { message, ...(fields ? { fields } : {}) } }, { status });

interface Call {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

function api(calls: Call[], options: { sameUrl?: boolean; createFails?: boolean; captcha?: boolean } = {}): typeof fetch {
  let verifications = 0;
  let challenges = 0;
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace('/top100', '');
    calls.push({ method: init?.method ?? 'GET', path: `${path}${url.search}`, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (path.endsWith('/is_captcha_needed')) {
      // A fresh challenge each time; difficulty 1 is solved in a hash or two.
      challenges += 1;
      return ok(options.captcha ? { need_captcha: true, captcha: { challenge: `c${challenges}`, difficulty: 1 } } : { need_captcha: false });
    }
    if (path.endsWith('/fetch_metadata')) return ok({ title: 'Пример — главная' });
    if (path.endsWith('/projects_with_same_url')) {
      const data = options.sameUrl
        ? [{ id: 8000009, project_id: 8000009, title: 'Чужой счётчик', url: 'https://example.ru', favicon: null, inRating: false, in_rating: false, created: '2026-01-01T00:00:00.000Z' }]
        : [];
      return ok({ data, total: data.length, limit: 15, offset: 0, originUrl: url.searchParams.get('url') });
    }
    if (path.endsWith('/verify_ownership')) {
      verifications += 1;
      return ok({ verified: verifications > 1, meta_tag: '<meta name="stat-verification" content="abc">' });
    }
    if (path === '/api/v1.0/project' && init?.method === 'POST') {
      if (options.captcha) return fail(400, 'Not valid captcha');
      if (options.createFails) return fail(400, 'Request validation errors', { url: ['Введен неправильный URL'] });
      return ok({ project_id: 8000010, can_be_in_rate: true });
    }
    return fail(404, 'Счётчик не найден');
  }) as typeof fetch;
}

afterEach(cleanup);

async function renderCreate() {
  return render(
    <SessionProvider initial={{ status: 'user', user }}>
      <SnackbarProvider>
        <MemoryRouter initialEntries={['/stat/create']}>
          <Routes>
            <Route path="/stat/create" element={<CreatePage />} />
            <Route path="/stat/projects" element={<p data-testid="projects-page">projects</p>} />
          </Routes>
        </MemoryRouter>
      </SnackbarProvider>
    </SessionProvider>,
  );
}

async function type(element: Element | null, text: string): Promise<void> {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(element, text);
  await fire(element, new Event('input', { bubbles: true }));
}

const q = (v: Rendered, id: string) => v.container.querySelector(`[data-testid="${id}"]`);

describe('create counter', () => {
  it('fetches the site’s title a second after a valid address, unless the user typed one', async () => {
    const calls: Call[] = [];
    vi.stubGlobal('fetch', api(calls));
    const v = await renderCreate();
    await type(q(v, 'create-url'), 'https://example.ru');
    await until(() => expect((q(v, 'create-title') as HTMLInputElement).value).toBe('Пример — главная'));
    expect(calls.filter((c) => c.path.includes('fetch_metadata'))).toHaveLength(1);
    await type(q(v, 'create-title'), 'Мое название');
    await type(q(v, 'create-url'), 'https://example.com');
    await until(() => expect(calls.filter((c) => c.path.includes('projects_with_same_url'))).toHaveLength(2));
    expect((q(v, 'create-title') as HTMLInputElement).value).toBe('Мое название');
    expect(calls.filter((c) => c.path.includes('fetch_metadata'))).toHaveLength(1);
  });

  it('shows «Ошибка валидации» and the api’s field texts', async () => {
    vi.stubGlobal('fetch', api([], { createFails: true }));
    const v = await renderCreate();
    await until(() => expect((q(v, 'create-submit') as HTMLButtonElement).disabled).toBe(false));
    await type(q(v, 'create-url'), 'https://example.ru');
    await type(q(v, 'create-title'), 'Мой сайт');
    await fire(q(v, 'create-agree'), new MouseEvent('click', { bubbles: true }));
    await fire(q(v, 'create-submit'), new MouseEvent('click', { bubbles: true }));
    await until(() => expect(q(v, 'create-failure')?.textContent).toBe('Ошибка валидации'));
    expect([...v.container.querySelectorAll('[data-testid="field-error"]')].map((e) => e.textContent)).toEqual(['Введен неправильный URL']);
  });

  it('a refused captcha («Not valid captcha») shows «Ошибка валидации» and brings a new check', async () => {
    const calls: Call[] = [];
    vi.stubGlobal('fetch', api(calls, { captcha: true }));
    const v = await renderCreate();
    await until(() => expect(q(v, 'captcha')?.getAttribute('data-state')).toBe('solved'));
    await type(q(v, 'create-url'), 'https://example.ru');
    await type(q(v, 'create-title'), 'Мой сайт');
    await fire(q(v, 'create-agree'), new MouseEvent('click', { bubbles: true }));
    await fire(q(v, 'create-submit'), new MouseEvent('click', { bubbles: true }));
    await until(() => expect(q(v, 'create-failure')?.textContent).toBe('Ошибка валидации'));
    const posted = calls.filter((c) => c.method === 'POST' && c.path === '/api/v1.0/project');
    expect(posted).toHaveLength(1);
    expect(posted[0]?.body).toMatchObject({ url: 'https://example.ru', title: 'Мой сайт', agree: true, captcha_response: expect.stringMatching(/^c1:\d+$/) });
    expect(v.container.querySelectorAll('[data-testid="field-error"]')).toHaveLength(0);
    await until(() => expect(calls.filter((c) => c.path.endsWith('/is_captcha_needed'))).toHaveLength(2));
    await until(() => expect(q(v, 'captcha')?.getAttribute('data-state')).toBe('solved'));
    expect(q(v, 'create-failure')?.textContent).toBe('Ошибка валидации');
  });

  it('draws step 3 only for an address that is already registered', async () => {
    const steps = (v: Rendered) => [...v.container.querySelectorAll('ol[aria-label="Шаги"] li')].map((li) => li.textContent);
    vi.stubGlobal('fetch', api([]));
    let v = await renderCreate();
    await type(q(v, 'create-url'), 'https://example.ru');
    expect(steps(v)).toEqual(['1Создание счётчика', '2Настройки и код']);
    v.unmount();
    vi.stubGlobal('fetch', api([], { sameUrl: true }));
    v = await renderCreate();
    await type(q(v, 'create-url'), 'https://www.example.ru');
    await until(() => expect(steps(v)).toEqual(['1Создание счётчика', '2Настройки и код', '3Восстановление доступа']));
  });

  it('offers step 3 for a known address; proving ownership with the meta tag ends on my sites', async () => {
    const calls: Call[] = [];
    vi.stubGlobal('fetch', api(calls, { sameUrl: true }));
    const v = await renderCreate();
    await type(q(v, 'create-url'), 'https://www.example.ru');
    await until(() => expect(q(v, 'same-url-hint')?.textContent).toContain('Сайт с таким URL уже есть в каталоге Топ-100'));
    await fire(q(v, 'restore-access'), new MouseEvent('click', { bubbles: true }));
    expect(q(v, 'restore-step')?.textContent).toContain('Счётчик 8000009');
    const prove = () => [...v.container.querySelectorAll('[data-testid="same-url-row"] button')].find((b) => /Подтвердить владение|Проверить/.test(b.textContent ?? ''));
    await fire(prove(), new MouseEvent('click', { bubbles: true }));
    await until(() => expect(q(v, 'restore-step')?.textContent).toContain('<meta name="stat-verification" content="abc">'));
    expect(prove()?.textContent).toBe('Проверить');
    await fire(prove(), new MouseEvent('click', { bubbles: true }));
    await until(() => expect(q(v, 'projects-page')).not.toBeNull());
    expect(calls.filter((c) => c.path.endsWith('/project/8000009/verify_ownership'))).toHaveLength(2);
  });

  it('«Создать новый счётчик» goes back to step 1', async () => {
    vi.stubGlobal('fetch', api([], { sameUrl: true }));
    const v = await renderCreate();
    await type(q(v, 'create-url'), 'https://example.ru');
    await until(() => expect(q(v, 'restore-access')).not.toBeNull());
    await fire(q(v, 'restore-access'), new MouseEvent('click', { bubbles: true }));
    await fire(q(v, 'create-new'), new MouseEvent('click', { bubbles: true }));
    expect(q(v, 'create-form')).not.toBeNull();
    expect((q(v, 'create-url') as HTMLInputElement).value).toBe('https://example.ru');
  });
});
