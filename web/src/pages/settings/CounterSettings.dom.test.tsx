// @vitest-environment happy-dom
/**
 * The counter settings page as a new user meets it (issue 15): the notice of the page appears
 * 4 s into the first visit of a site and not again; each option of the counter is in one place.
 */
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import type { Project } from '@stat/schemas/projects';
import { NotificationProvider } from '../../app/Notifications';
import { ProjectContext } from '../../app/project';
import { SnackbarProvider } from '../../app/Snackbar';
import { writeStored } from '../../lib/browser';
import { testProject as project } from '../../testing/fixtures';
import { cleanup, fakeApi, render, until, type Rendered } from '../../testing/render';
import CounterSettingsPage, { counterNoticeKey } from './CounterSettings';
beforeEach(() => {
  window.localStorage.clear();
  vi.stubGlobal('fetch', fakeApi({ '/api/v1.0/project/8000001/counter_code': { code: '<script async src="x"></script>' } }));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

async function renderPage(p: Project): Promise<Rendered> {
  return render(
    <NotificationProvider>
      <SnackbarProvider>
        <ProjectContext.Provider value={{ project: p, setProject: () => undefined, reload: () => undefined }}>
          <MemoryRouter initialEntries={[`/stat/projects/${p.id}/settings/counter`]}>
            <CounterSettingsPage />
          </MemoryRouter>
        </ProjectContext.Provider>
      </SnackbarProvider>
    </NotificationProvider>,
  );
}

async function advance(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

const notice = (v: Rendered) => v.container.querySelector('[data-testid="notification-counter-settings"]');

describe('the notice of the counter page', () => {
  it('«Установите счётчик» shows 4 s into the first visit of a site, and not on the next visit', async () => {
    vi.useFakeTimers();
    let v = await renderPage(project());
    await advance(3_900);
    expect(notice(v)).toBeNull();
    await advance(200);
    expect(notice(v)?.textContent).toContain('Установите счётчик');
    v.unmount();

    v = await renderPage(project());
    await advance(10_000);
    expect(notice(v)).toBeNull();
  });

  it('another site gets its own notice; a site whose counter is set never gets «Установите счётчик»', async () => {
    vi.useFakeTimers();
    writeStored(counterNoticeKey(8000001, 'unset'), '1');
    let v = await renderPage(project({ id: 8000002 }));
    await advance(4_100);
    expect(notice(v)?.textContent).toContain('Установите счётчик');
    v.unmount();

    v = await renderPage(project({ counter_is_set: true }));
    await advance(4_100);
    expect(notice(v)?.textContent).not.toContain('Установите счётчик');
  });
});

const labelsOf = (v: Rendered, text: string) => [...v.container.querySelectorAll('label')].filter((l) => l.textContent?.startsWith(text));

describe('the counter settings form', () => {
  it('has each option of the code in one place, and no checkboxes beside the code', async () => {
    const v = await renderPage(project());
    for (const label of ['Аналитика блоков', 'Учитывать хеш в адресе', 'Передавать ID пользователя']) {
      expect(labelsOf(v, label), label).toHaveLength(1);
    }
    expect(v.container.querySelectorAll('#code input[type="checkbox"]')).toHaveLength(0);
    // The widget is the «Вид счётчика» choice only.
    expect(v.text()).not.toContain('Виджет на сайте');
    expect(v.container.querySelectorAll('input[name="counter_type"]')).toHaveLength(2);
  });

  it('says in the save bar what is not saved yet', async () => {
    const v = await renderPage(project());
    const bar = v.container.querySelector('[data-testid="save-bar"]');
    expect(bar?.textContent).toContain('Все изменения сохранены');
    const hashes = labelsOf(v, 'Учитывать хеш в адресе')[0]?.querySelector('input');
    await act(async () => {
      hashes?.click();
    });
    expect(v.container.querySelector('[data-testid="unsaved"]')?.textContent).toBe('Не сохранено: хеш в адресе');
    expect(v.container.querySelector<HTMLButtonElement>('[data-testid="save-counter"]')?.disabled).toBe(false);
  });

  it('«Проверить» says when and on which page the counter was last seen, or that it was not', async () => {
    vi.stubGlobal('fetch', fakeApi({ '/api/v1.0/project/8000001/counter_check': { seen: false, last_hit: null } }));
    let v = await renderPage(project());
    await act(async () => {
      v.container.querySelector<HTMLButtonElement>('[data-testid="check-counter"]')?.click();
    });
    await until(() => expect(v.container.querySelector('[data-testid="counter-check"]')?.textContent).toContain('Просмотров с сайта пока не было'));
    v.unmount();

    vi.stubGlobal(
      'fetch',
      fakeApi({ '/api/v1.0/project/8000001/counter_check': { seen: true, last_hit: { at: '2026-11-20T21:05:00.000Z', url: 'https://example.ru/catalog/item?id=7' } } }),
    );
    v = await renderPage(project({ counter_is_set: true }));
    await act(async () => {
      v.container.querySelector<HTMLButtonElement>('[data-testid="check-counter"]')?.click();
    });
    // 21:05 UTC is 00:05 of the next day in Moscow.
    await until(() =>
      expect(v.container.querySelector('[data-testid="counter-check"]')?.textContent).toBe(
        'Счётчик работает: последний просмотр 21.11.2026 00:05 (МСК) на странице https://example.ru/catalog/item?id=7.',
      ),
    );
  });
});
