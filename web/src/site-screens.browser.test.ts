/// <reference path="../../server/src/testing/provided.d.ts" />
/**
 * The site screens as a new user meets them (issue 15), in headless Chromium against the running
 * embedded service: the register form after a failed login, the demo offered on an empty list,
 * the counter page's notice once, «Проверить» before and after the first hit, the profile (name,
 * password, «Выйти на всех устройствах»), the footer's pages, `/export` 403 and the beta titles.
 * Each screen is saved at 1280 and 1920 px to test-output/screens/site-*.png.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { eventually } from '../../server/src/testing/api-client';
import { chromiumForTests, VISITOR_USER_AGENT } from '../../server/src/testing/browser';
import { russianContext } from './testing/browser';

const base = inject('apiUrl').replace(/\/+$/, '');
const collector = inject('collectorUrl').replace(/\/+$/, '');
const SCREENS = fileURLToPath(new URL('../../test-output/screens/', import.meta.url));
const PASSWORD = 'browser test password';
const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const email = `newcomer-${stamp}@example.com`;
const siteUrl = `https://newcomer-${stamp}.example`;

/** Saves the page at 1280 and 1920 px (full height) as `site-name-1280.png` and `site-name-1920.png`. */
async function screen(page: Page, name: string, fullPage = true): Promise<void> {
  await page.waitForTimeout(350);
  for (const width of [1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SCREENS}site-${name}-${width}.png`, fullPage });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Opens or collapses the left menu (the choice is remembered for the user). */
async function setMenu(page: Page, collapsed: boolean): Promise<void> {
  const menu = page.locator('[data-testid=side-menu]');
  if ((await menu.getAttribute('data-collapsed')) !== String(collapsed)) await menu.locator('button[aria-label$="меню"]').click();
  await expect.poll(() => menu.getAttribute('data-collapsed')).toBe(String(collapsed));
  // The menu's width is a transition: the page is measured once it ends.
  await expect.poll(() => page.evaluate(() => document.getAnimations().filter((a) => a instanceof CSSTransition).length)).toBe(0);
}

describe('the site screens as a new user meets them', () => {
  const browser = chromiumForTests();
  let context: BrowserContext;
  let page: Page;
  let projectId = 0;

  beforeAll(async () => {
    mkdirSync(SCREENS, { recursive: true });
    context = await russianContext(browser(), 1280);
    page = await context.newPage();
  }, 60_000);

  it('after a failed login, «Зарегистрироваться» opens a clean form; the demo is offered on the empty list', async () => {
    await page.goto(`${base}/stat/projects?login`);
    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', 'not registered yet');
    await page.click('[data-testid=login-form] button[type=submit]');
    await expect.poll(() => page.textContent('[data-testid=login-form]')).toContain('Неверный email или пароль');
    await page.click('text=Зарегистрироваться');
    await page.waitForSelector('[data-testid=register-form]');
    expect(await page.textContent('[data-testid=register-form]')).not.toContain('Неверный email или пароль');
    expect(await page.inputValue('input[name=email]')).toBe('');
    expect(await page.inputValue('input[name=password]')).toBe('');
    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', 'short');
    await page.click('[data-testid=register-form] button[type=submit]');
    const form = (await page.textContent('[data-testid=register-form]')) ?? '';
    expect(form).toContain('Минимум 8 символов');
    expect(form).not.toContain('От 8 до 128 символов');
    await screen(page, 'register-error');

    await page.fill('input[name=password]', PASSWORD);
    await page.click('[data-testid=register-form] button[type=submit]');
    await page.waitForSelector('[data-testid=projects-empty]');
    expect(await page.textContent('[data-testid=demo-offer]')).toContain('посмотреть демо');
    await screen(page, 'projects-empty');
    await page.click('[data-testid=demo-link]');
    await page.waitForURL(/\/stat\/projects\/7596044\/new\/report\/summary/);
    // Read-only: no settings gear on the demo for a user.
    expect(await page.locator('[data-testid=project-settings]').count()).toBe(0);
  }, 90_000);

  it('the counter page: the notice once, one place per option, the save bar, «Проверить» before and after the first hit', async () => {
    const created = await context.request.post(`${base}/top100/api/v1.0/project`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      data: JSON.stringify({ url: siteUrl, title: 'Сайт новичка', agree: true }),
    });
    projectId = ((await created.json()) as { result: { project_id: number } }).result.project_id;
    expect(projectId).toBeGreaterThan(0);

    await page.goto(`${base}/stat/projects/${projectId}/settings/counter`);
    await page.waitForSelector('[data-testid=notification-counter-settings]', { timeout: 15_000 });
    expect(await page.textContent('[data-testid=notification-counter-settings]')).toContain('Установите счётчик');
    // Bottom right: the project header's settings gear stays uncovered.
    const note = await page.locator('[data-testid=notification-counter-settings]').boundingBox();
    const gear = await page.locator('[data-testid=project-settings]').boundingBox();
    expect(note && gear && note.y > gear.y + gear.height).toBe(true);
    await page.screenshot({ path: `${SCREENS}site-counter-notice-1280.png` });
    await page.reload();
    await page.waitForSelector('[data-testid=counter-settings]');
    await page.waitForTimeout(5_000);
    expect(await page.locator('[data-testid=notification-counter-settings]').count()).toBe(0);

    for (const label of ['Аналитика блоков', 'Учитывать хеш в адресе', 'Передавать ID пользователя']) {
      expect(await page.getByText(label, { exact: true }).count(), label).toBe(1);
    }
    await page.click('[data-testid=check-counter]');
    await expect.poll(() => page.textContent('[data-testid=counter-check]')).toContain('Просмотров с сайта пока не было');

    await page.getByText('Учитывать хеш в адресе', { exact: true }).click();
    await expect.poll(() => page.textContent('[data-testid=unsaved]')).toBe('Не сохранено: хеш в адресе');
    // The save bar stays in the window while the page is scrolled to its top.
    const bar = await page.locator('[data-testid=save-bar]').boundingBox();
    expect(bar && bar.y + bar.height).toBeLessThanOrEqual(900);
    await screen(page, 'counter-unsaved', false);
    await page.click('[data-testid=save-counter]');
    await expect.poll(() => page.textContent('[data-testid=unsaved]')).toBe('Все изменения сохранены');
    await expect.poll(() => page.textContent('[data-testid=counter-code]')).toContain('data-track-hashes="true"');

    // The first hit, as the counter (or a server) sends it to the collector.
    const hit = await fetch(`${collector}/hit`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'user-agent': VISITOR_USER_AGENT },
      body: JSON.stringify({ p: projectId, t: 'pageview', u: `${siteUrl}/catalog`, v: `visitor-${stamp}` }),
    });
    expect(hit.status).toBe(204);
    const seen = await eventually(
      async () => {
        await page.click('[data-testid=check-counter]');
        await page.waitForSelector('[data-testid=counter-check]');
        await page.waitForTimeout(500);
        return (await page.textContent('[data-testid=counter-check]')) ?? '';
      },
      (text) => text.startsWith('Счётчик работает'),
      60_000,
    );
    expect(seen).toContain(`${siteUrl}/catalog`);
    expect(seen).toMatch(/последний просмотр \d\d\.\d\d\.\d{4} \d\d:\d\d \(МСК\)/);
    await expect.poll(() => page.textContent('[data-testid=counter-status]')).toContain('Счётчик корректно установлен');
    await screen(page, 'counter-checked');
  }, 120_000);

  it('my sites explain the status dot and the metric columns', async () => {
    await page.goto(`${base}/stat/projects`);
    await page.waitForSelector('[data-testid=list-legend]');
    expect(await page.textContent('[data-testid=list-legend]')).toContain('по сравнению с предыдущими 24 часами');
    await screen(page, 'projects');
  }, 60_000);

  it.each([
    ['collapsed', true],
    ['open', false],
  ] as const)('my sites fit a 1024 px screen with the left menu %s: no sideways scroll, the row and its «⋯» inside the card', async (name, collapsed) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    try {
      await page.goto(`${base}/stat/projects`);
      await page.waitForSelector('[data-testid=row-menu]');
      await setMenu(page, collapsed);
      const fit = await page.evaluate(() => {
        const card = document.querySelector('[data-testid=projects-table]')!.parentElement!.getBoundingClientRect();
        const row = document.querySelector('[data-testid=project-row]')!.getBoundingClientRect();
        const menu = document.querySelector('[data-testid=row-menu]')!.getBoundingClientRect();
        return { scrollWidth: document.documentElement.scrollWidth, rowInCard: row.right <= card.right, menuInCard: menu.right <= card.right };
      });
      expect(fit).toEqual({ scrollWidth: 1024, rowInCard: true, menuInCard: true });
      await page.screenshot({ path: `${SCREENS}site-projects-1024-menu-${name}.png` });
    } finally {
      await setMenu(page, true);
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  }, 60_000);

  it('my sites at 1440 px show every column, the id and the depth too, with the left menu open', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    try {
      await page.goto(`${base}/stat/projects`);
      await page.waitForSelector('[data-testid=row-menu]');
      await setMenu(page, false);
      const headers = await page.locator('[data-testid=projects-table] thead th').evaluateAll((cells) => cells.filter((c) => c.getBoundingClientRect().width > 0).map((c) => c.textContent));
      expect(headers).toEqual(['', 'Сайт', 'ID', 'Просмотры', 'Визиты', 'Посетители', 'События', 'Глубина', 'Рейтинг', '']);
    } finally {
      await setMenu(page, true);
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  }, 60_000);

  it('/export is 403 for a user; post_click and import_data_from_ym carry their titles with «Бета»', async () => {
    await page.goto(`${base}/stat/projects/${projectId}/export`);
    await page.waitForSelector('[data-testid=error-page][data-status="403"]');
    await screen(page, 'export-403');
    await page.goto(`${base}/stat/projects/${projectId}/post_click`);
    await expect.poll(() => page.textContent('[data-testid=placeholder] h1')).toBe('Передача целевых событий в Яндекс Директ Бета');
    await screen(page, 'post-click');
    await page.goto(`${base}/stat/projects/${projectId}/import_data_from_ym`);
    await expect.poll(() => page.textContent('[data-testid=placeholder] h1')).toBe('Получение событий от Яндекс Метрики Бета');
  }, 60_000);

  it('each footer page has its content', async () => {
    for (const [slug, heading] of [
      ['', 'Документация'],
      ['terms', 'Пользовательское соглашение'],
      ['privacy', 'Политика конфиденциальности'],
      ['contacts', 'Контакты'],
      ['support', 'Поддержка'],
    ] as const) {
      await page.goto(`${base}/stat/docs${slug ? `/${slug}` : ''}`);
      await page.waitForSelector('[data-testid=doc-page]');
      expect(await page.textContent('[data-testid=doc-page] h1')).toBe(heading);
      expect(await page.textContent('main')).not.toContain('Этот раздел скоро появится.');
      await screen(page, `docs-${slug || 'index'}`);
    }
  }, 90_000);

  it('the profile changes the name and the password; «Выйти на всех устройствах» logs out every browser', async () => {
    const other = await russianContext(browser(), 1280);
    const login = await other.request.post(`${base}/top100/api/v1.0/auth/login`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      data: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(login.status()).toBe(200);
    const otherUser = async () => (await other.request.get(`${base}/top100/api/v1.0/user/current`)).status();
    expect(await otherUser()).toBe(200);

    await page.goto(`${base}/stat/projects`);
    await page.click('[data-testid=side-profile]');
    await page.waitForSelector('[data-testid=profile-modal]');
    await page.fill('input[name=user_name]', 'Новичок');
    await page.click('[data-testid=profile-name] button[type=submit]');
    await page.getByRole('status').filter({ hasText: 'Имя сохранено' }).first().waitFor();
    await page.fill('input[name=current_password]', 'not my password');
    await page.fill('input[name=new_password]', 'a brand new password');
    await page.click('[data-testid=profile-password] button[type=submit]');
    await expect.poll(() => page.textContent('[data-testid=profile-password]')).toContain('Неверный текущий пароль');
    await screen(page, 'profile', false);
    await page.fill('input[name=current_password]', PASSWORD);
    await page.click('[data-testid=profile-password] button[type=submit]');
    await page.getByRole('status').filter({ hasText: 'Пароль изменен' }).first().waitFor();
    // The other browser is logged out; this one stays.
    expect(await otherUser()).toBe(401);
    expect((await context.request.get(`${base}/top100/api/v1.0/user/current`)).status()).toBe(200);
    expect(((await (await context.request.get(`${base}/top100/api/v1.0/user/current`)).json()) as { result: { user_name: string } }).result.user_name).toBe('Новичок');

    await page.click('[data-testid=logout-all]');
    await page.waitForSelector('[data-testid=login-form]');
    expect((await context.request.get(`${base}/top100/api/v1.0/user/current`)).status()).toBe(204);
    await other.close();
  }, 90_000);
});
