/// <reference path="../../server/src/testing/provided.d.ts" />
/**
 * The goals page in a real browser against the running service: a new user on their own site
 * creates a goal from an autogoal and sees it in the list (the autogoal then cannot be chosen
 * again), creates a goal of their own with a condition from the filter dialog, and on the demo
 * project finds the create buttons disabled (they are for administrators there).
 *
 * Screenshots go to test-output/screens/goals-*.png.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../server/src/testing/browser';

const base = inject('apiUrl').replace(/\/+$/, '');
const DEMO = '7596044';
const SCREENS = fileURLToPath(new URL('../../test-output/screens/', import.meta.url));
const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SCREENS}goals-${name}.png`, fullPage: false });
}

/** The rows of the table as «title | conditions | access». */
const rows = (page: Page) =>
  page.$$eval('[data-testid="goal-row"]', (trs) =>
    trs.map((tr) => [tr.querySelector('[data-testid="goal-row-title"]'), ...Array.from(tr.querySelectorAll('td')).slice(1, 3)].map((el) => (el?.textContent ?? '').trim()).join(' | ')),
  );

describe('the goals page', () => {
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(SCREENS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('creates a goal from an autogoal and one with a condition; the demo project’s buttons are disabled for a user', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'ru-RU', timezoneId: 'Europe/Moscow' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    try {
      await page.goto(`${base}/stat/projects?register`);
      await page.fill('input[name=email]', `goals-${stamp}@example.com`);
      await page.fill('input[name=password]', 'browser test password');
      await page.click('[data-testid=register-form] button[type=submit]');
      await page.waitForSelector('[data-testid=projects]');
      const created = await context.request.post(`${base}/top100/api/v1.0/project`, {
        headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        data: JSON.stringify({ url: `https://goals-${stamp}.example`, title: 'Сайт с целями', agree: true }),
      });
      expect(created.status()).toBe(200);
      const project = String(((await created.json()) as { result: { project_id: number } }).result.project_id);

      await page.goto(`${base}/stat/projects/${project}/goals`);
      await page.waitForSelector('[data-testid="goals-empty"]');
      expect(await page.textContent('h1')).toBe('Целевые события');
      expect(await page.textContent('[data-testid="goals-empty"]')).toBe('Нет данных для отображения');
      expect(await page.textContent('[data-testid="goals-page"]')).toContain('Показать публичные целевые события');

      // From an autogoal: the template's title, public, protected and sent, none of it changeable.
      await page.click('[data-testid="goal-from-auto"]');
      await page.waitForSelector('[data-testid="autogoal"]');
      expect(await page.$$eval('[data-testid="autogoal"]', (items) => items.length)).toBe(7);
      await shot(page, 'autogoals');
      await page.click('[data-testid="autogoal"][data-id="2"] [data-testid="autogoal-choose"]');
      await page.waitForSelector('[data-testid="goal-form"]');
      expect(await page.inputValue('[data-testid="goal-title"]')).toBe('Скачивание файла');
      expect(await page.$$eval('[data-testid="goal-form"] input[type=checkbox]', (boxes) => boxes.map((b) => [(b as HTMLInputElement).checked, (b as HTMLInputElement).disabled]))).toEqual([
        [true, true],
        [true, true],
        [true, true],
      ]);
      await shot(page, 'form-auto');
      await page.click('[data-testid="goal-save"]');
      await page.getByRole('status').filter({ hasText: 'Целевое событие создано' }).waitFor();
      await expect.poll(() => rows(page), { timeout: 15_000 }).toEqual(['Скачивание файла | Тип события: равно клик по ссылке; Название события: равно download | ПубличноеЗащищённое']);

      // The autogoal is taken now.
      await page.click('[data-testid="goal-from-auto"]');
      await page.waitForSelector('[data-testid="autogoal"][data-id="2"]');
      expect(await page.isDisabled('[data-testid="autogoal"][data-id="2"] [data-testid="autogoal-choose"]')).toBe(true);
      expect(await page.textContent('[data-testid="autogoal"][data-id="2"] [data-testid="autogoal-choose"]')).toBe('Уже создано');
      expect(await page.isDisabled('[data-testid="autogoal"][data-id="3"] [data-testid="autogoal-choose"]')).toBe(false);
      await page.keyboard.press('Escape');

      // A goal of one's own: refused without a condition, saved with a page address.
      await page.click('[data-testid="goal-new"]');
      await page.fill('[data-testid="goal-title"]', '  Корзина ');
      await page.click('[data-testid="goal-save"]');
      expect(await page.textContent('[data-testid="goal-form"]')).toContain('Добавьте хотя бы 1 условие');
      await page.click('[data-testid="goal-pick-conditions"]');
      await page.waitForSelector('[data-testid="filter-dialog"]');
      // The visits' own dimensions are not offered for a goal.
      expect(await page.$$eval('[data-testid="filter-menu-item"][data-key="entry_page"]', (items) => items.length)).toBe(0);
      await page.fill('[data-testid="filter-menu-search"]', 'Адрес');
      await page.click('[data-testid="filter-menu-item"][data-key="url"]');
      await page.fill('[data-testid="filter-block"][data-key="url"] [data-testid="filter-textarea"]', '*/cart*');
      await page.click('[data-testid="filter-apply"]');
      await page.waitForSelector('[data-testid="goal-condition"]');
      expect(await page.textContent('[data-testid="goal-condition"]')).toBe('Адрес страницы: равно */cart*');
      await shot(page, 'form-custom');
      const saved = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/v1.0/goal'));
      await page.click('[data-testid="goal-save"]');
      expect((await saved).postDataJSON()).toEqual({
        project_id: Number(project),
        title: 'Корзина',
        description: '',
        access: 'own',
        is_protected: false,
        is_td_sending: false,
        body: { dimension_filters: [{ key: 'url', op: 'like', value: '*/cart*' }] },
      });
      await expect
        .poll(() => rows(page), { timeout: 15_000 })
        .toEqual(['Корзина | Адрес страницы: равно */cart* | Личное', 'Скачивание файла | Тип события: равно клик по ссылке; Название события: равно download | ПубличноеЗащищённое']);
      await shot(page, 'list');

      // The search by title.
      await page.fill('[data-testid="goal-search"]', 'корз');
      await expect.poll(() => rows(page), { timeout: 15_000 }).toEqual(['Корзина | Адрес страницы: равно */cart* | Личное']);

      // On the demo project this user may look, not create.
      await page.goto(`${base}/stat/projects/${DEMO}/goals`);
      await page.waitForSelector('[data-testid="goals-table"]');
      expect(await page.isDisabled('[data-testid="goal-new"]')).toBe(true);
      expect(await page.isDisabled('[data-testid="goal-from-auto"]')).toBe(true);
      await shot(page, 'demo');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
