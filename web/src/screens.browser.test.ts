/// <reference path="../../server/src/testing/provided.d.ts" />
/**
 * The screens of spec 000 §2 in headless Chromium against the running embedded service: a new
 * user registers, creates a site, copies its snippet and installs it on a third-party page, sees
 * «Счётчик корректно установлен», joins the rating, shares view access with a second user who then
 * sees the site read-only, switches projects, deletes and restores the site, solves the captcha,
 * restores access through the same-url step, and is sent to the login page when the session is
 * lost and back to the page afterwards. Each screen is saved at 1280 and 1920 px to
 * test-output/screens/.
 *
 * Needs the service of the global setup (inject) and Debian's chromium; a missing one fails.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually } from '../../server/src/testing/api-client';
import { chromiumForTests } from '../../server/src/testing/browser';
import { browseThreePages, startTestSite, type TestSite } from '../../server/src/testing/site';

const base = inject('apiUrl').replace(/\/+$/, '');
const SCREENS = fileURLToPath(new URL('../../test-output/screens/', import.meta.url));
const PASSWORD = 'browser test password';
const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const owner = { email: `owner-${stamp}@example.com` };
const viewer = { email: `viewer-${stamp}@example.com` };
const siteUrl = `https://site-${stamp}.example`;

/** Messages the browser logs that are not the app's errors: expected 4xx answers (anonymous 401, refused metadata). */
const isNetworkNoise = (text: string) => text.startsWith('Failed to load resource');

interface Actor {
  context: BrowserContext;
  page: Page;
  problems: string[];
}

async function newActor(browser: Browser, options: { bypassCSP?: boolean } = {}): Promise<Actor> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'ru-RU', timezoneId: 'Europe/Moscow', ...options });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !isNetworkNoise(message.text())) problems.push(`console: ${message.text()}`);
  });
  return { context, page, problems };
}

/** Saves the page at 1280 and 1920 px (full height) as `name-1280.png` and `name-1920.png`. */
async function screen(page: Page, name: string): Promise<void> {
  // Animations (the snackbar, skeleton pulses) settle first.
  await page.waitForTimeout(350);
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const width of [1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SCREENS}${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The text of the snackbar once it shows `text`. */
async function snackbar(page: Page, text: string): Promise<void> {
  await page.getByRole('status').filter({ hasText: text }).first().waitFor({ timeout: 15_000 });
}

async function register(page: Page, email: string): Promise<void> {
  await page.goto(`${base}/stat/projects?register`);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', PASSWORD);
  await page.click('[data-testid=register-form] button[type=submit]');
  await page.waitForSelector('[data-testid=projects]');
}

/** A call as the app makes it, with the page's cookies. */
async function apiCall<T>(actor: Actor, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: { result: T } }> {
  const response = await actor.context.request.fetch(`${base}/top100${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    ...(body === undefined ? {} : { data: JSON.stringify(body) }),
  });
  return { status: response.status(), json: (await response.json().catch(() => ({}))) as { result: T } };
}

describe('screens of spec 000 §2 in a browser', () => {
  const browser = chromiumForTests();
  let a: Actor;
  let b: Actor;
  let site: TestSite | null = null;
  let projectId = 0;
  let secondId = 0;

  beforeAll(async () => {
    mkdirSync(SCREENS, { recursive: true });
    a = await newActor(browser());
    b = await newActor(browser());
  }, 60_000);

  afterAll(async () => {
    await site?.close();
  });

  it('shows the login page to a visitor and registers a new user', async () => {
    const { page } = a;
    await page.goto(`${base}/stat/projects`);
    await page.waitForSelector('[data-testid=login-form]');
    await screen(page, 'login');
    await page.click('text=Зарегистрироваться');
    await page.waitForSelector('[data-testid=register-form]');
    // Validation before the api is asked.
    await page.click('[data-testid=register-form] button[type=submit]');
    expect(await page.locator('[data-testid=field-error]').allTextContents()).toEqual(['Обязательное поле', 'Обязательное поле']);
    await screen(page, 'register');
    await page.fill('input[name=email]', owner.email);
    await page.fill('input[name=password]', PASSWORD);
    await page.click('[data-testid=register-form] button[type=submit]');
    await page.waitForSelector('[data-testid=projects-empty]');
    expect(await page.textContent('[data-testid=projects-empty]')).toContain('У вас пока нет сайтов');
    expect(await page.textContent('[data-testid=user-menu]')).toContain(owner.email);
    await screen(page, 'projects-empty');
  }, 90_000);

  it('creates a site in the three-step flow with the validation texts of §5', async () => {
    const { page } = a;
    await page.click('[data-testid=add-site]');
    await page.waitForSelector('[data-testid=create-form]');
    await page.click('[data-testid=create-submit]');
    expect(await page.locator('[data-testid=field-error]').allTextContents()).toEqual(['Поле не заполнено', 'Поле не заполнено', 'Вы должны принять условия']);
    await page.fill('[data-testid=create-url]', 'example.ru');
    await page.fill('[data-testid=create-title]', 'ab');
    await expect.poll(() => page.locator('[data-testid=field-error]').allTextContents()).toEqual(['Введен неправильный URL', 'Минимум 3 символа', 'Вы должны принять условия']);
    await screen(page, 'create-errors');
    await page.fill('[data-testid=create-url]', siteUrl);
    await page.fill('[data-testid=create-title]', 'Сайт для проверки');
    await page.click('[data-testid=create-agree]');
    await page.click('[data-testid=create-submit]');
    await page.waitForSelector('[data-testid=create-done]');
    await page.waitForFunction(() => document.querySelector('[data-testid=counter-code]')?.textContent?.includes('<script'));
    const code = (await page.textContent('[data-testid=counter-code]')) ?? '';
    projectId = Number(/data-project="(\d+)"/.exec(code)?.[1]);
    expect(projectId).toBeGreaterThan(0);
    expect(code).not.toContain('data-track-hashes');
    await screen(page, 'create-done');
    // Step 2's settings are saved, and the code follows them.
    await page.getByText('Учитывать хеш в адресе', { exact: true }).first().click();
    await page.click('[data-testid=create-save-settings]');
    await snackbar(page, 'Изменения сохранены');
    await page.waitForFunction(() => document.querySelector('[data-testid=counter-code]')?.textContent?.includes('data-track-hashes="true"'));
  }, 90_000);

  it('copies the snippet, installs it on a site and sees «Счётчик корректно установлен»', async () => {
    const { page } = a;
    await page.goto(`${base}/stat/projects/${projectId}/settings/counter`);
    await page.waitForSelector('[data-testid=counter-settings]');
    expect(await page.textContent('[data-testid=counter-status]')).toContain('Счётчик не установлен');
    await page.waitForFunction(() => document.querySelector('[data-testid=counter-code]')?.textContent?.includes('<script'));
    await page.click('[data-testid=copy-code]');
    await snackbar(page, 'Код скопирован');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await page.textContent('[data-testid=counter-code]'));
    // The notification of the page appears after 4 s.
    await page.waitForSelector('[data-testid=notification-counter-settings]', { timeout: 15_000 });

    // A report of the site before its first hit: the counter's status and install code, no empty graphs.
    const report = await a.context.newPage();
    await report.setViewportSize({ width: 1280, height: 900 });
    await report.goto(`${base}/stat/projects/${projectId}/new/report/summary`);
    await report.waitForSelector('[data-testid=counter-pending]');
    expect(await report.textContent('[data-testid=counter-pending]')).toContain('Счётчик не установлен');
    await report.waitForFunction(() => document.querySelector('[data-testid=counter-pending] [data-testid=counter-code]')?.textContent?.includes('<script'));
    expect(await report.locator('[data-testid=summary-graph]').count()).toBe(0);
    await screen(report, 'report-counter-pending');

    const src = /src="([^"]+)"/.exec(copied)?.[1] ?? '';
    const collector = /data-collector="([^"]+)"/.exec(copied)?.[1] ?? '';
    expect(src).toContain('/counter/');
    site = await startTestSite({ src, projectId, collector });
    const visitorProblems = await browseThreePages(browser(), site);
    expect(visitorProblems).toEqual([]);
    // The open report takes its place by itself once the first hit is stored (it asks every 10 s).
    await report.waitForSelector('[data-testid=summary-graph] canvas', { timeout: 60_000 });
    expect(await report.locator('[data-testid=counter-pending]').count()).toBe(0);
    await report.close();

    const status = await eventually(
      async () => {
        await page.click('[data-testid=check-counter]');
        await page.waitForTimeout(1500);
        return (await page.textContent('[data-testid=counter-status]')) ?? '';
      },
      (text) => text.includes('Счётчик корректно установлен'),
      90_000,
    );
    expect(status).toContain('Счётчик корректно установлен');
    await screen(page, 'settings-counter');

    // A setting saved: «Изменения сохранены», and the form shows what the api stored.
    await page.getByText('Считать www отдельным сайтом', { exact: true }).click();
    await page.click('[data-testid=save-counter]');
    await snackbar(page, 'Изменения сохранены');
    const stored = await apiCall<{ counter_settings: { track_hashes: boolean; merge_www: boolean } }>(a, 'GET', `/api/v1.0/project/${projectId}`);
    // The form's flag is sent inverted (spec 000 §3).
    expect(stored.json.result.counter_settings).toMatchObject({ track_hashes: true, merge_www: false });
  }, 180_000);

  it('shows the site in my sites with today’s page views', async () => {
    const { page } = a;
    await page.goto(`${base}/stat/projects`);
    const row = page.locator(`[data-testid=project-row][data-project-id="${projectId}"]`);
    await row.waitFor();
    const views = await eventually(
      async () => {
        await page.reload();
        await row.waitFor();
        return Number(await row.locator('[data-metric=page_views]').getAttribute('data-value'));
      },
      (n) => n >= 3,
      60_000,
    );
    expect(views).toBeGreaterThanOrEqual(3);
    expect(await row.locator('[data-testid=counter-status]').getAttribute('data-set')).toBe('true');
    expect(await row.locator('[data-testid=join-rating]').textContent()).toBe('Участвовать');
    await screen(page, 'projects');
  }, 120_000);

  it('the shell: the left menu remembers its state, the profile, the ad-blocker notice', async () => {
    const { page } = a;
    const menu = page.locator('[data-testid=side-menu]');
    expect(await menu.getAttribute('data-collapsed')).toBe('true');
    await menu.getByRole('button', { name: 'Развернуть меню' }).click();
    expect(await menu.getAttribute('data-collapsed')).toBe('false');
    await page.reload();
    await page.waitForSelector('[data-testid=projects-table] [data-testid=project-row]');
    expect(await menu.getAttribute('data-collapsed')).toBe('false');
    expect(await menu.textContent()).toContain('Статистика');
    await screen(page, 'shell-menu-open');
    await menu.getByRole('button', { name: 'Свернуть меню' }).click();
    await page.click('[data-testid=user-menu]');
    await page.click('[data-testid=user-settings]');
    await page.waitForSelector('[data-testid=profile-modal]');
    expect(await page.textContent('[data-testid=profile-modal]')).toContain(owner.email);
    await page.keyboard.press('Escape');

    // A blocker hides elements with ad-like classes; the notice says so until dismissed. An
    // extension's styles are not subject to the page's CSP; this stand-in's inline style is.
    const visitor = await newActor(browser(), { bypassCSP: true });
    try {
      await visitor.context.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          const style = document.createElement('style');
          style.textContent = '.adsbox { display: none !important; }';
          document.head.appendChild(style);
        });
      });
      const v = visitor.page;
      await v.goto(`${base}/stat/projects/7596044/new/report/summary`);
      await v.waitForSelector('[data-testid=adblock-notice]');
      expect(await v.textContent('[data-testid=adblock-notice]')).toContain('У вас включен блокировщик рекламы');
      await screen(v, 'adblock-notice');
      await v.click('[data-testid=adblock-notice] button[aria-label="Закрыть"]');
      expect(await v.evaluate(() => localStorage.getItem('adBlockHidden'))).toBe('1');
      await v.reload();
      await v.waitForSelector('[data-testid=summary-graph]');
      await v.waitForTimeout(500);
      expect(await v.locator('[data-testid=adblock-notice]').count()).toBe(0);
      expect(visitor.problems).toEqual([]);
    } finally {
      await visitor.context.close();
    }
  }, 90_000);

  it('joins the rating: the form, its limits, and the status «На модерации»', async () => {
    const { page } = a;
    await page.goto(`${base}/stat/projects/${projectId}/settings/rating`);
    await page.waitForSelector('[data-testid=rating-settings]');
    expect(await page.textContent('[data-testid=rating-status]')).toBe('Не участвует в рейтинге');
    expect(await page.locator('[data-testid=save-rating]').count()).toBe(0);
    await page.getByText('Участвовать в рейтинге', { exact: true }).click();
    await page.waitForSelector('[data-testid=rating-keywords]');
    await page.click('[data-testid=save-rating]');
    expect(await page.locator('[data-testid=field-error]').allTextContents()).toEqual(['Обязательное поле', 'Обязательное поле']);
    await page.fill('[data-testid=rating-keywords]', 'проверка, тесты');
    await page.click('[data-testid=rating-categories-open]');
    await page.locator('[data-testid=rating-categories] label').filter({ hasText: 'Новости' }).first().click();
    await page.keyboard.press('Escape');
    await screen(page, 'settings-rating-form');
    await page.click('[data-testid=save-rating]');
    await snackbar(page, 'Изменения сохранены');
    await expect.poll(() => page.textContent('[data-testid=rating-status]')).toBe('На модерации');
    expect(await page.locator('[data-testid=rating-keywords]').isDisabled()).toBe(false);
    await screen(page, 'settings-rating');
  }, 90_000);

  it('shares view access with a second user, who sees the site read-only', async () => {
    await register(b.page, viewer.email);
    const { page } = a;
    await page.goto(`${base}/stat/projects/${projectId}/settings/access`);
    await page.waitForSelector('[data-testid=access-users] [data-testid=access-user]');
    await page.fill('[data-testid=access-email]', `nobody-${stamp}@example.com`);
    await page.click('[data-testid=access-submit]');
    await expect.poll(() => page.textContent('[data-testid=access-add] [data-testid=field-error]')).toBe(
      'Такой email не найден в системе, пользователю необходимо пройти регистрацию',
    );
    await page.fill('[data-testid=access-email]', owner.email.toUpperCase());
    await page.click('[data-testid=access-submit]');
    await expect.poll(() => page.textContent('[data-testid=access-add] [data-testid=field-error]')).toBe('Пользователь уже добавлен');
    await page.fill('[data-testid=access-email]', viewer.email);
    await page.selectOption('[data-testid=access-level]', '1');
    await page.click('[data-testid=access-submit]');
    await snackbar(page, 'Доступ выдан');
    const viewerRow = page.locator(`[data-testid=access-user][data-email="${viewer.email}"]`);
    await viewerRow.waitFor();
    expect(await viewerRow.locator('[data-testid=access-user-level]').inputValue()).toBe('1');
    const ownRow = page.locator(`[data-testid=access-user][data-email="${owner.email}"]`);
    expect(await ownRow.textContent()).toContain('Это вы');
    expect(await ownRow.locator('select, [data-testid=access-remove]').count()).toBe(0);
    await screen(page, 'settings-access');

    const v = b.page;
    await v.goto(`${base}/stat/projects`);
    const row = v.locator(`[data-testid=project-row][data-project-id="${projectId}"]`);
    await row.waitFor();
    expect(await row.locator('[data-testid=row-menu]').count()).toBe(0);
    expect(await row.locator('[data-testid=join-rating]').count()).toBe(0);
    expect(await row.locator('[data-testid=rating-status]').textContent()).toBe('На модерации');
    await screen(v, 'projects-viewer');
    await row.locator('[data-testid=project-link]').click();
    await v.waitForURL(`**/stat/projects/${projectId}/dashboard`);
    await v.waitForSelector('[data-testid=project-bar]');
    expect(await v.locator('[data-testid=project-settings]').count()).toBe(0);
    expect(await v.getAttribute('[data-testid=project-id]', 'href')).toBe(`/stat/projects/${projectId}/dashboard`);
    expect(await v.locator('[data-testid=report-menu]').textContent()).not.toContain('Настройки');
    await screen(v, 'project-viewer');
    await v.goto(`${base}/stat/projects/${projectId}/settings/counter`);
    await v.waitForSelector('[data-testid=error-page][data-status="403"]');
    expect(await v.textContent('[data-testid=error-page]')).toContain('Доступ запрещен');
    await screen(v, 'error-403');

    // The owner takes the access back: a confirmation, then «Права доступа изменены».
    await viewerRow.locator('[data-testid=access-remove]').click();
    await page.click('[data-testid=confirm-button]');
    await snackbar(page, 'Права доступа изменены');
    await viewerRow.waitFor({ state: 'detached' });
  }, 120_000);

  it('switches projects from «Мои сайты», keeping the section', async () => {
    const created = await apiCall<{ project_id: number }>(a, 'POST', '/api/v1.0/project', { url: `https://second-${stamp}.example`, title: 'Второй сайт', agree: true });
    expect(created.status).toBe(200);
    secondId = created.json.result.project_id;
    const { page } = a;
    await page.goto(`${base}/stat/projects/${projectId}/settings/access`);
    await page.click('[data-testid=switcher-open]');
    await page.waitForSelector('[data-testid=switcher-row]');
    const current = page.locator(`[data-testid=switcher-row][data-project-id="${projectId}"]`);
    expect(await current.textContent()).toContain('Текущий');
    expect(await current.textContent()).toContain(`Счётчик ${projectId}`);
    expect(await page.locator('[data-testid=switcher-search]').count()).toBe(0);
    await screen(page, 'switcher');
    await page.locator(`[data-testid=switcher-row][data-project-id="${secondId}"]`).getByText('Переключиться').click();
    await page.waitForURL(`**/stat/projects/${secondId}/settings/access`);
    await page.waitForSelector('[data-testid=access-settings]');
    expect(await page.textContent('[data-testid=project-title]')).toBe('Второй сайт');
    await page.click('[data-testid=copy-id]');
    await snackbar(page, 'Id проекта скопирован');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(String(secondId));
  }, 90_000);

  it('deletes a site and restores it from the deleted list', async () => {
    const { page } = a;
    await page.goto(`${base}/stat/projects`);
    const row = page.locator(`[data-testid=project-row][data-project-id="${secondId}"]`);
    await row.waitFor();
    await row.locator('[data-testid=row-menu]').click();
    await page.click('[data-testid=delete-project]');
    await page.waitForSelector('[data-testid=confirm-dialog]');
    await screen(page, 'delete-confirm');
    await page.click('[data-testid=confirm-button]');
    await snackbar(page, 'Счётчик удален');
    await row.waitFor({ state: 'detached' });
    await page.click('[data-testid=deleted-tab]');
    await page.waitForURL('**/stat/projects/deleted');
    const deletedRow = page.locator(`[data-testid=project-row][data-project-id="${secondId}"]`);
    await deletedRow.waitFor();
    expect(await page.getAttribute('[data-testid=projects-search]', 'placeholder')).toBe('Искать по удаленным сайтам');
    expect(await page.locator('[data-testid=add-site]').count()).toBe(0);
    await screen(page, 'projects-deleted');
    await deletedRow.locator('[data-testid=restore]').click();
    await page.click('[data-testid=confirm-button]');
    await snackbar(page, 'Счётчик восстановлен');
    await page.waitForSelector('[data-testid=projects-empty]');
    await page.goto(`${base}/stat/projects`);
    await page.locator(`[data-testid=project-row][data-project-id="${secondId}"]`).waitFor();

    // The search: no match gives the spec's texts.
    await page.fill('[data-testid=projects-search]', `nothing-${stamp}`);
    await page.waitForSelector('[data-testid=projects-empty]');
    expect(await page.textContent('[data-testid=projects-empty]')).toBe(
      'По вашему запросу ничего не найденоПроверьте правильность написания или попробуйте другой запрос',
    );
    await page.fill('[data-testid=projects-search]', 'Второй');
    await page.locator(`[data-testid=project-row][data-project-id="${secondId}"]`).waitFor();
    expect(await page.locator('[data-testid=project-row]').count()).toBe(1);
  }, 90_000);

  it('solves the captcha the api demands after three sites a day', async () => {
    const third = await apiCall(a, 'POST', '/api/v1.0/project', { url: `https://third-${stamp}.example`, title: 'Третий сайт', agree: true });
    expect(third.status).toBe(200);
    const need = await apiCall<{ need_captcha: boolean }>(a, 'GET', '/api/v1.0/project/is_captcha_needed');
    expect(need.json.result.need_captcha).toBe(true);
    const { page } = a;
    await page.goto(`${base}/stat/create`);
    await page.waitForSelector('[data-testid=captcha][data-state=solved]', { timeout: 60_000 });
    await page.fill('[data-testid=create-url]', `https://fourth-${stamp}.example`);
    await page.fill('[data-testid=create-title]', 'Четвертый сайт');
    await page.click('[data-testid=create-agree]');
    await screen(page, 'create-captcha');
    await page.click('[data-testid=create-submit]');
    await page.waitForSelector('[data-testid=create-done]');

    // Removal from the counter settings: a confirmation, then my sites with «Счётчик удален».
    await page.getByText('Перейти к настройкам счётчика').click();
    await page.waitForSelector('[data-testid=counter-settings]');
    const fourthId = Number(/\/projects\/(\d+)\//.exec(page.url())?.[1]);
    await page.click('[data-testid=delete-counter]');
    await page.click('[data-testid=confirm-button]');
    await page.waitForURL('**/stat/projects');
    await snackbar(page, 'Счётчик удален');
    await page.waitForSelector('[data-testid=project-row]');
    expect(await page.locator(`[data-testid=project-row][data-project-id="${fourthId}"]`).count()).toBe(0);
  }, 120_000);

  it('offers to restore access to a site with the same address, and the owner grants it', async () => {
    const v = b.page;
    await v.goto(`${base}/stat/create`);
    await v.fill('[data-testid=create-url]', siteUrl);
    await v.waitForSelector('[data-testid=same-url-hint]');
    expect(await v.textContent('[data-testid=same-url-hint]')).toContain('Сайт с таким URL уже есть в каталоге Топ-100');
    await v.click('[data-testid=restore-access]');
    await v.waitForSelector('[data-testid=restore-step] [data-testid=same-url-row]');
    await screen(v, 'create-restore');
    await v.click('[data-testid=create-new]');
    await v.waitForSelector('[data-testid=create-form]');
    await v.click('[data-testid=restore-access]');
    await v.locator('[data-testid=same-url-row]').filter({ hasText: `Счётчик ${projectId}` }).getByText('Запросить доступ').click();
    await v.waitForURL('**/stat/projects');
    await v.waitForSelector('[data-testid=restore-success]');
    expect(await v.textContent('[data-testid=restore-success]')).toContain('Запрос отправлен');

    const { page } = a;
    await page.goto(`${base}/stat/projects`);
    const row = page.locator(`[data-testid=project-row][data-project-id="${projectId}"]`);
    await row.locator('[data-testid=access-request-tip]').hover();
    await expect.poll(() => page.locator('[role=tooltip]').textContent()).toBe('У вас новый запрос на доступ к счётчику, перейдите в Настройки доступа');
    await screen(page, 'projects-request');
    await page.locator('[role=tooltip] a').click();
    await page.waitForURL(`**/stat/projects/${projectId}/settings/access`);
    const request = page.locator('[data-testid=access-request]').filter({ hasText: viewer.email });
    await request.waitFor();
    await screen(page, 'settings-access-request');
    await request.getByText('Дать редактирование').click();
    await snackbar(page, 'Доступ выдан');
    await expect.poll(() => page.locator(`[data-testid=access-user][data-email="${viewer.email}"] [data-testid=access-user-level]`).inputValue()).toBe('0');
  }, 120_000);

  it('refreshes a lost session once, and sends a lost refresh to the login page and back', async () => {
    const { page, context } = a;
    await page.goto(`${base}/stat/projects/${projectId}/settings/counter`);
    await page.waitForSelector('[data-testid=counter-settings]');
    // Without the session cookie the next calls answer 401; the refresh cookie renews them.
    const cookies = await context.cookies();
    await context.clearCookies();
    await context.addCookies(cookies.filter((c) => c.name !== 'stat_session'));
    const refreshes: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/auth/refresh')) refreshes.push(r.url());
    });
    await page.click('[data-testid=settings-tab-access]');
    await page.waitForSelector('[data-testid=access-users] [data-testid=access-user]');
    await page.waitForSelector('[data-testid=access-requests] >> text=Новых запросов нет');
    expect(refreshes).toHaveLength(1);

    // Without either cookie the refresh fails too: the login page, then back here.
    await context.clearCookies();
    await page.click('[data-testid=settings-tab-counter]');
    await page.waitForURL('**/stat/projects?login**');
    expect(new URL(page.url()).searchParams.get('back')).toBe(`/stat/projects/${projectId}/settings/counter`);
    await page.waitForSelector('[data-testid=login-form]');
    await page.fill('input[name=email]', owner.email);
    await page.fill('input[name=password]', 'wrong password');
    await page.click('[data-testid=login-form] button[type=submit]');
    await expect.poll(() => page.textContent('[data-testid=login-form]')).toContain('Неверный email или пароль');
    await page.fill('input[name=password]', PASSWORD);
    await page.click('[data-testid=login-form] button[type=submit]');
    await page.waitForURL(`**/stat/projects/${projectId}/settings/counter`);
    await page.waitForSelector('[data-testid=counter-settings]');
  }, 90_000);

  it('shows the error pages and logs out', async () => {
    const { page } = a;
    await page.goto(`${base}/stat/no-such-page`);
    await page.waitForSelector('[data-testid=error-page][data-status="404"]');
    expect(await page.textContent('[data-testid=error-page]')).toContain('Страница не найдена');
    await screen(page, 'error-404');
    await page.goto(`${base}/stat/projects/999999999/dashboard`);
    await page.waitForSelector('[data-testid=error-page][data-status="404"]');
    expect(await page.textContent('[data-testid=error-page]')).toContain('Счётчик не найден');
    await page.click('[data-testid=user-menu]');
    await page.click('[data-testid=logout]');
    await page.waitForSelector('[data-testid=login-form]');
    // Logged out: the cookies are gone, so nobody is logged in (an empty 204, not an error).
    expect((await apiCall(a, 'GET', '/api/v1.0/user/current')).status).toBe(204);

    // A protected page sends a visitor to the login page; the return address drops the
    // parameters of a login gateway (state, session_state, iss, code).
    await page.goto(`${base}/stat/projects/${projectId}/settings/rating?x=1&state=s&session_state=t&iss=u&code=c`);
    await page.waitForURL('**/stat/projects?login**');
    expect(new URL(page.url()).searchParams.get('back')).toBe(`/stat/projects/${projectId}/settings/rating?x=1`);
    // The demo project stays open to visitors.
    await page.goto(`${base}/stat/projects/7596044/new/report/summary`);
    await page.waitForSelector('[data-testid=summary-graph]');
    expect(await page.locator('[data-testid=header-login]').count()).toBe(1);
  }, 60_000);

  it('logged no errors in either browser', () => {
    expect(a.problems).toEqual([]);
    expect(b.problems).toEqual([]);
  });
});
