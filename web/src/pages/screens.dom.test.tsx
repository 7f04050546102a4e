// @vitest-environment happy-dom
/**
 * Screens rendered in happy-dom: what each role sees (spec 000 §2.3, §2.6, §2.8, §5, §6).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { Project, ProjectListRow } from '@stat/schemas/projects';
import { ProjectContext } from '../app/project';
import { SessionProvider } from '../app/session';
import { SnackbarProvider } from '../app/Snackbar';
import { ApiError } from '../lib/api';
import { testListRow, testProject as project } from '../testing/fixtures';
import { cleanup, fakeApi, fire, render, testUser, until, type Rendered } from '../testing/render';
import { accessFailure } from './settings/AccessSettings';
import CounterSettingsPage from './settings/CounterSettings';
import RatingSettingsPage from './settings/RatingSettings';
import SettingsLayout from './settings/SettingsLayout';
import { ProjectRow } from './projects/ProjectsPage';

const user = testUser();

const row = (over: Partial<ProjectListRow>): ProjectListRow =>
  testListRow(8000001, {
    title: 'Мой сайт',
    url: 'https://example.ru',
    metrics: {
      page_views: { today: 1234, yesterday: 1000, change: 23.4 },
      visits: { today: 10, yesterday: 20, change: -50 },
      visitors: { today: 4, yesterday: 0, change: null },
      events: { today: 0, yesterday: 0, change: null },
      depth: { today: 2.5, yesterday: 2, change: 25 },
    },
    views: 1234,
    views_change: 23.4,
    visitors: 4,
    ...over,
  });

afterEach(cleanup);

async function renderRow(r: ProjectListRow, deleted = false) {
  return render(
    <MemoryRouter>
      <table>
        <tbody>
          <ProjectRow row={r} deleted={deleted} onDelete={() => undefined} onRestore={() => undefined} />
        </tbody>
      </table>
    </MemoryRouter>,
  );
}

describe('a row of my sites (spec 000 §2.3)', () => {
  it('gives editors the settings menu and «Участвовать»', async () => {
    const v = await renderRow(row({}));
    expect(v.container.querySelector('[data-testid="row-menu"]')).not.toBeNull();
    expect(v.container.querySelector('[data-testid="join-rating"]')?.textContent).toBe('Участвовать');
    expect(v.container.querySelector('[data-testid="join-rating"]')?.getAttribute('href')).toBe('/stat/projects/8000001/settings/rating');
  });

  it('gives viewers neither: the rating status instead', async () => {
    const v = await renderRow(row({ can_edit_project: false, has_access_requests: true }));
    expect(v.container.querySelector('[data-testid="row-menu"]')).toBeNull();
    expect(v.container.querySelector('[data-testid="join-rating"]')).toBeNull();
    expect(v.container.querySelector('[data-testid="rating-status"]')?.textContent).toBe('Не участвует в рейтинге');
    expect(v.container.querySelector('[data-testid="access-request-tip"]')).toBeNull();
  });

  it('shows today’s metrics with their change up or down', async () => {
    const v = await renderRow(row({}));
    const cell = (name: string) => v.container.querySelector(`[data-metric="${name}"]`);
    expect(cell('page_views')?.textContent).toBe('1\u00a023423,4%');
    expect(cell('page_views')?.querySelector('[data-direction="up"]')).not.toBeNull();
    expect(cell('visits')?.querySelector('[data-direction="down"]')?.textContent).toBe('50%');
    expect(cell('visitors')?.textContent).toBe('4—');
    expect(cell('depth')?.textContent?.startsWith('2,5')).toBe(true);
  });

  it('offers no «Участвовать» for a site that cannot be rated, a status instead (spec 000 §6)', async () => {
    const v = await renderRow(row({ can_be_in_rate: false }));
    expect(v.container.querySelector('[data-testid="join-rating"]')).toBeNull();
    expect(v.container.querySelector('[data-testid="rating-status"]')?.textContent).toBe('Не может участвовать в рейтинге');
  });

  it('marks pending access requests for editors with the tooltip', async () => {
    const v = await renderRow(row({ has_access_requests: true }));
    const tip = v.container.querySelector('[data-testid="access-request-tip"]');
    expect(tip).not.toBeNull();
    await fire(tip, new MouseEvent('mouseover', { bubbles: true }));
    expect(v.container.querySelector('[role="tooltip"]')?.textContent).toBe('У вас новый запрос на доступ к счётчику, перейдите в Настройки доступа');
  });

  it('shows the category and position of a rated site', async () => {
    const v = await renderRow(row({ status: 'included', in_rating: true, categories: [{ id: 3, title: 'Новости', position: 5 }] }));
    expect(v.container.querySelector('[data-testid="rating-position"]')?.textContent).toBe('Новости5 место');
  });

  it('names a site without a title «Нет названия» (spec 000 §8)', async () => {
    const v = await renderRow(row({ title: '  ' }));
    expect(v.container.querySelector('[data-testid="project-link"]')?.textContent).toBe('Нет названия');
  });

  it('offers «Восстановить счётчик» on the deleted list', async () => {
    const v = await renderRow(row({ deleted: true, status: 'deleted' }), true);
    expect(v.container.querySelector('[data-testid="restore"]')?.textContent).toBe('Восстановить счётчик');
    expect(v.container.querySelector('[data-testid="row-menu"]')).toBeNull();
  });
});

async function renderSettings(p: Project, page: 'layout' | 'counter') {
  return render(
    <SessionProvider initial={{ status: 'user', user }}>
      <SnackbarProvider>
        <ProjectContext.Provider value={{ project: p, setProject: () => undefined, reload: () => undefined }}>
          <MemoryRouter initialEntries={['/stat/projects/8000001/settings/counter']}>
            <Routes>
              <Route path="/stat/projects/:projectId/settings" element={<SettingsLayout />}>
                <Route path="counter" element={page === 'counter' ? <CounterSettingsPage /> : <div>counter page</div>} />
              </Route>
            </Routes>
          </MemoryRouter>
        </ProjectContext.Provider>
      </SnackbarProvider>
    </SessionProvider>,
  );
}

describe('settings pages (spec 000 §2.6, §5)', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fakeApi({ '/api/v1.0/project/8000001/counter_code': { code: '<script async src="x"></script>' } }));
  });

  it('answer 403 to those who may not edit', async () => {
    const v = await renderSettings(project({ can_edit_project: false }), 'layout');
    expect(v.container.querySelector('[data-testid="error-page"]')?.getAttribute('data-status')).toBe('403');
    expect(v.text()).toContain('Доступ запрещен');
  });

  it('show the tabs to editors', async () => {
    const v = await renderSettings(project({}), 'layout');
    expect(v.text()).toContain('counter page');
    expect([...v.container.querySelectorAll('[data-testid^="settings-tab-"]')].map((a) => a.textContent)).toEqual(['Счётчик', 'Рейтинг', 'Доступ']);
  });

  it('read «Счётчик не установлен» and «Счётчик корректно установлен»', async () => {
    let v = await renderSettings(project({ counter_is_set: false }), 'counter');
    expect(v.container.querySelector('[data-testid="counter-status"]')?.textContent).toContain('Счётчик не установлен');
    await until(() => expect(v.container.querySelector('[data-testid="counter-code"]')?.textContent).toBe('<script async src="x"></script>'));
    v.unmount();
    v = await renderSettings(project({ counter_is_set: true }), 'counter');
    expect(v.container.querySelector('[data-testid="counter-status"]')?.textContent).toContain('Счётчик корректно установлен');
  });

  it('lock the title of a rated site with the hint', async () => {
    const v = await renderSettings(project({ in_rating: true, status: 'included' }), 'counter');
    const title = v.container.querySelector<HTMLInputElement>('[data-testid="settings-title"]');
    expect(title?.disabled).toBe(true);
    expect(v.text()).toContain('Название сайта в рейтинге меняется через заявку на вкладке «Рейтинг»');
  });
});

describe('access errors (spec 000 §8)', () => {
  const text = async (error: unknown) => {
    const v = await render(<p>{accessFailure(error)}</p>);
    const out = v.text();
    v.unmount();
    return out;
  };

  it('the daily limit gives its text and the support address', async () => {
    const limit = await text(new ApiError(429, 'Rate limit exceeded'));
    expect(limit).toContain(
      'В день вы можете добавить не более 20 пользователей. Чтобы дать доступ большему числу людей, вернитесь завтра или обратитесь в службу поддержки.',
    );
    expect(limit).toContain('@');
    expect(await text(new ApiError(400, 'Rate limit exceeded'))).toContain('В день вы можете добавить не более 20 пользователей');
  });

  it('an unexpected failure gives the generic text', async () => {
    expect(await text(new ApiError(500, 'Oops... Something went terribly wrong.'))).toBe('Произошла ошибка при запросе на сервер');
    expect(await text(new ApiError(400, 'Oops... Something went terribly wrong.'))).toBe('Произошла ошибка при запросе на сервер');
    expect(await text(new ApiError(0, 'fetch failed'))).toBe('Произошла ошибка при запросе на сервер');
    expect(await text(new ApiError(400, 'Нельзя изменить собственный доступ'))).toBe('Нельзя изменить собственный доступ');
  });
});

describe('rating settings by status (spec 000 §2.7, §4)', () => {
  const config = {
    categories: [
      { id: 1, parent_id: null, title: 'Новости и СМИ', can_be_expanded: true },
      { id: 101, parent_id: 1, title: 'Новости', can_be_expanded: false },
    ],
    types: [{ id: 1, parent_id: null, title: 'Блог', can_be_expanded: false }],
    regions: [{ id: 1, parent_id: null, title: 'Центральный федеральный округ', can_be_expanded: false }],
  };

  async function renderRating(p: Project) {
    vi.stubGlobal('fetch', fakeApi({ '/api/project/config': config }));
    return render(
      <SnackbarProvider>
        <ProjectContext.Provider value={{ project: p, setProject: () => undefined, reload: () => undefined }}>
          <MemoryRouter>
            <RatingSettingsPage />
          </MemoryRouter>
        </ProjectContext.Provider>
      </SnackbarProvider>,
    );
  }

  const rated = { in_rating: true, keywords: 'новости', categories: [{ id: 101, title: 'Новости', position: 5, parent_title: 'Новости и СМИ', theme_id: 100, name: 'Новости', positions: { popularity: 5 } }] };
  const q = (v: Rendered, id: string) => v.container.querySelector(`[data-testid="${id}"]`);

  it('a site not in the rating: the switch, no save until it is on', async () => {
    const v = await renderRating(project({}));
    expect(q(v, 'rating-status')?.textContent).toBe('Не участвует в рейтинге');
    expect(q(v, 'save-rating')).toBeNull();
    await fire(q(v, 'rating-switch'), new MouseEvent('click', { bubbles: true }));
    await until(() => expect(q(v, 'rating-keywords')).not.toBeNull());
    expect(q(v, 'save-rating')).not.toBeNull();
    expect(v.text()).toContain('Для сайтов в рейтинге название — не длиннее 55 символов');
  });

  it('an included site: its places, the form editable', async () => {
    const v = await renderRating(project({ ...rated, status: 'included' }));
    expect(q(v, 'rating-positions')?.textContent).toBe('Новости и СМИ / Новости: 5 место');
    await until(() => expect(q(v, 'rating-keywords')).not.toBeNull());
    expect((q(v, 'rating-keywords') as HTMLTextAreaElement).disabled).toBe(false);
    expect(q(v, 'save-rating')).not.toBeNull();
  });

  it.each(['editing', 'need_change', 'dropped_out'] as const)('%s: the fields are locked, the site can still leave the rating', async (status) => {
    const v = await renderRating(project({ ...rated, status }));
    await until(() => expect(q(v, 'rating-keywords')).not.toBeNull());
    expect((q(v, 'rating-keywords') as HTMLTextAreaElement).disabled).toBe(true);
    expect((q(v, 'save-rating') as HTMLButtonElement).disabled).toBe(true);
    const toggle = q(v, 'rating-switch') as HTMLInputElement;
    expect(toggle.disabled).toBe(false);
    await fire(toggle, new MouseEvent('click', { bubbles: true }));
    expect(q(v, 'rating-keywords')).toBeNull();
    expect((q(v, 'save-rating') as HTMLButtonElement).disabled).toBe(false);
    expect(v.text()).toContain('Сайт выйдет из рейтинга, данные заявки будут очищены');
  });

  it('excluded: the switch is disabled, no save, the hint names support', async () => {
    const v = await renderRating(project({ status: 'excluded' }));
    expect((q(v, 'rating-switch') as HTMLInputElement).disabled).toBe(true);
    expect(q(v, 'save-rating')).toBeNull();
    expect(q(v, 'rating-hint')?.textContent).toContain('обратитесь в службу поддержки');
  });
});
