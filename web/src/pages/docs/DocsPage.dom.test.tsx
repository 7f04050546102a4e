// @vitest-environment happy-dom
/**
 * The footer's pages have real content (issue 15), and the routes of document 3: `/export` is
 * staff-only (403 for a user), `post_click` and `import_data_from_ym` carry their titles with «Бета».
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { Project } from '@stat/schemas/projects';
import { footerLinks } from '../../app/links';
import { routes } from '../../app/routes';
import { SessionProvider, type SessionState } from '../../app/session';
import { cleanup, fakeApi, render, testUser, until, type Rendered } from '../../testing/render';

afterEach(cleanup);

async function open(path: string, session: SessionState = { status: 'anonymous', user: null }): Promise<Rendered> {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  return render(
    <SessionProvider initial={session}>
      <RouterProvider router={router} />
    </SessionProvider>,
  );
}

const docText = (v: Rendered) => v.container.querySelector('[data-testid="doc-page"]')?.textContent ?? '';

describe('the footer pages', () => {
  it.each(footerLinks('/stat/projects').map((l) => [l.label, l.href]))('«%s» (%s) opens a page with content', async (_label, href) => {
    const v = await open(href);
    await until(() => expect(docText(v).length).toBeGreaterThan(300));
    expect(v.text()).not.toContain('Этот раздел скоро появится.');
  });

  it('the documentation covers the counter, SPA, hashes, user id, events, blocks, reading depth, the hit format and the api', async () => {
    const v = await open('/stat/docs');
    await until(() => expect(docText(v)).toContain('Установка счётчика'));
    const headings = [...v.container.querySelectorAll('[data-testid="doc-page"] h2')].map((h) => h.textContent);
    expect(headings).toEqual([
      'Установка счётчика',
      'Одностраничные сайты (SPA)',
      'Хеш в адресе',
      'ID пользователя',
      'Пользовательские события и JS API',
      'Аналитика блоков',
      'Глубина чтения',
      'Формат запроса сборщика: отправка с сервера',
      'API',
    ]);
    expect(docText(v)).toContain('/top100/api/docs');
  });

  it('the privacy policy says what is collected, that addresses are never stored, and what browser storage is used', async () => {
    const v = await open('/stat/docs/privacy');
    await until(() => expect(docText(v)).toContain('IP-адреса не хранятся.'));
    expect(docText(v)).toContain('localStorage');
    expect(docText(v)).toContain('stat_session');
    expect(docText(v)).toContain('не использует cookie');
  });

  it('the report documentation links open their own pages; an unknown page is a 404', async () => {
    let v = await open('/stat/docs/usability');
    await until(() => expect(docText(v)).toContain('Аналитика блоков'));
    v.unmount();
    v = await open('/stat/docs/custom_vars');
    await until(() => expect(docText(v)).toContain('stat(\'event\''));
    v.unmount();
    v = await open('/stat/docs/nothing-here');
    await until(() => expect(v.container.querySelector('[data-testid="error-page"]')?.getAttribute('data-status')).toBe('404'));
  });
});

const project = { id: 8000001, title: 'Мой сайт', url: 'https://example.ru', can_edit_project: true, available_reports: ['summary'], deleted: false } as unknown as Project;

describe('routes of document 3', () => {
  it('`/export` is 403 for a user, open to staff', async () => {
    vi.stubGlobal('fetch', fakeApi({ '/api/v1.0/project/8000001': project }));
    let v = await open('/stat/projects/8000001/export', { status: 'user', user: testUser() });
    await until(() => expect(v.container.querySelector('[data-testid="error-page"]')?.getAttribute('data-status')).toBe('403'));
    expect(v.text()).toContain('Доступ запрещен');
    v.unmount();
    v = await open('/stat/projects/8000001/export', { status: 'user', user: testUser({ role_permissions: ['can_read_dev_reports'] }) });
    await until(() => expect(v.container.querySelector('[data-testid="export-page"] h1')?.textContent).toBe('Выгрузка данных Бета'));
  });

  it.each([
    ['post_click', 'Передача целевых событий в Яндекс Директ Бета'],
    ['import_data_from_ym', 'Получение событий от Яндекс Метрики Бета'],
  ])('%s is titled «%s»', async (path, title) => {
    vi.stubGlobal('fetch', fakeApi({ '/api/v1.0/project/8000001': project }));
    const v = await open(`/stat/projects/8000001/${path}`, { status: 'user', user: testUser() });
    await until(() => expect(v.container.querySelector('[data-testid="placeholder"] h1')?.textContent).toBe(title));
  });
});
