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
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays } from '@stat/schemas/period';
import { chromiumForTests, VISITOR_USER_AGENT } from '../../server/src/testing/browser';
import { createSite, pageWithErrors, registerUser, russianContext } from './testing/browser';

const base = inject('apiUrl').replace(/\/+$/, '');
const collectorUrl = inject('collectorUrl').replace(/\/+$/, '');
const JSON_HEADERS = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
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
    trs.map((tr) => {
      const cells = Array.from(tr.querySelectorAll('td'));
      return [tr.querySelector('[data-testid="goal-row-title"]'), cells[1], cells[4]].map((el) => (el?.textContent ?? '').trim()).join(' | ');
    }),
  );

/** The rows of the table as «title | reaches | visitors». */
const counts = (page: Page) =>
  page.$$eval('[data-testid="goal-row"]', (trs) =>
    trs.map((tr) =>
      ['goal-row-title', 'goal-reaches', 'goal-visitors'].map((id) => (tr.querySelector(`[data-testid="${id}"]`)?.textContent ?? '').trim()).join(' | '),
    ),
  );

/** One hit to the collector, as the counter would send it. */
async function hit(projectId: string, fields: Record<string, unknown>): Promise<void> {
  const sent = await fetch(`${collectorUrl}/hit`, { method: 'POST', headers: { 'user-agent': VISITOR_USER_AGENT }, body: JSON.stringify({ p: Number(projectId), ...fields }) });
  expect(sent.status).toBe(204);
}

describe('the goals page', () => {
  const browser = chromiumForTests();
  beforeAll(() => {
    mkdirSync(SCREENS, { recursive: true });
  });

  it('creates a goal from an autogoal and one with a condition; the demo project’s buttons are disabled for a user', async () => {
    const context = await russianContext(browser(), 1280);
    const { page, errors } = await pageWithErrors(context);
    try {
      await registerUser(page, base, `goals-${stamp}@example.com`);
      const created = await createSite(context, base, `https://goals-${stamp}.example`, 'Сайт с целями');
      expect(created.status).toBe(200);
      const project = String(created.id);

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
      // A page address alone counts the page's views, and the form says so.
      expect(await page.textContent('[data-testid="goal-page-views-note"]')).toContain('целевое событие считает просмотры страниц');
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
        .toEqual([
          'Корзина | Тип события: равно просмотр страницы; Адрес страницы: равно */cart* | Личное',
          'Скачивание файла | Тип события: равно клик по ссылке; Название события: равно download | ПубличноеЗащищённое',
        ]);
      await shot(page, 'list');

      // The search by title.
      await page.fill('[data-testid="goal-search"]', 'корз');
      await expect.poll(() => rows(page), { timeout: 15_000 }).toEqual(['Корзина | Тип события: равно просмотр страницы; Адрес страницы: равно */cart* | Личное']);

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

  it('shows how many times each goal was reached and by how many visitors, as counted by hand; the row actions work', async () => {
    const context = await russianContext(browser(), 1280);
    const { page, errors } = await pageWithErrors(context);
    try {
      await registerUser(page, base, `goal-counts-${stamp}@example.com`);
      const created = await createSite(context, base, `https://counts-${stamp}.example`, 'Сайт со счётом целей');
      expect(created.status).toBe(200);
      const project = String(created.id);
      const site = `https://counts-${stamp}.example`;
      // Visitor A: views /cart, stays on it (an engagement hit), buys there. Visitor B: views /cart
      // twice and buys. Visitor C: views the home page. By hand: «Корзина» (the address alone) is
      // reached 3 times by 2 visitors (its views, not the purchases nor the time on it); «Покупка» 2 times by 2.
      await hit(project, { u: `${site}/cart`, v: 'countsvisitora' });
      await hit(project, { t: 'engagement', u: `${site}/cart`, v: 'countsvisitora', d: 4000 });
      await hit(project, { t: 'event', u: `${site}/cart`, v: 'countsvisitora', en: 'buy', ec: 'cv' });
      await hit(project, { u: `${site}/cart`, v: 'countsvisitorb' });
      await hit(project, { u: `${site}/cart?step=2`, v: 'countsvisitorb' });
      await hit(project, { t: 'event', u: `${site}/cart?step=2`, v: 'countsvisitorb', en: 'buy', ec: 'cv' });
      await hit(project, { u: `${site}/`, v: 'countsvisitorc' });
      for (const [title, body] of [
        ['Корзина', { dimension_filters: [{ key: 'url', op: 'like', value: '*/cart*' }] }],
        ['Покупка', { dimension_filters: [{ key: 'event_name', op: '=', value: 'buy', extra: { eventClass: 'cv' } }] }],
      ] as const) {
        const goal = await context.request.post(`${base}/top100/api/v1.0/goal`, { headers: JSON_HEADERS, data: JSON.stringify({ project_id: Number(project), title, body }) });
        expect(goal.status()).toBe(200);
      }

      await page.goto(`${base}/stat/projects/${project}/goals`);
      await page.waitForSelector('[data-testid="goal-row"]');
      // The last 7 days by default; the hits are written a moment after they are sent.
      await page.waitForSelector('[data-testid="period-picker"]');
      expect(await page.$eval('[data-testid="period-picker"] [data-range][aria-pressed="true"]', (b) => b.textContent)).toBe('7 дней');
      expect(await page.$$eval('[data-testid="goals-table"] th', (ths) => ths.map((th) => th.textContent))).toEqual(['Название', 'Условия', 'Достижения', 'Посетители', 'Доступ', 'Автор', '']);
      await expect
        .poll(
          async () => {
            await page.reload();
            await page.waitForSelector('[data-testid="goal-row"]');
            await page.waitForFunction(() => !document.querySelector('[data-testid="goal-reaches"]')?.textContent?.includes('…'));
            return counts(page);
          },
          { timeout: 60_000, interval: 1_000 },
        )
        .toEqual(['Покупка | 2 | 2', 'Корзина | 3 | 2']);
      await shot(page, 'counts');

      // Another period asks again, for its dates.
      const asked = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/eventbase/${project}/goals`));
      await page.click('[data-testid="period-picker"] [data-range="30days"]');
      const thirtyDays = (await asked).postDataJSON() as { date_start: string; date_end: string };
      expect(addDays(thirtyDays.date_end, -29)).toBe(thirtyDays.date_start);
      expect(new URL(page.url()).search).toBe('?dateStart=30days&dateEnd=today');
      await expect.poll(() => counts(page), { timeout: 15_000 }).toEqual(['Покупка | 2 | 2', 'Корзина | 3 | 2']);

      // The row actions of one's own personal goal: all five.
      const cart = '[data-testid="goal-row"]:has-text("Корзина")';
      await page.click(`${cart} [data-testid="goal-actions"]`);
      expect(await page.$$eval('[role="menuitem"]', (items) => items.map((i) => i.textContent))).toEqual(['Добавить конверсию', 'Сделать публичным', 'Редактировать', 'Копировать', 'Удалить']);
      await shot(page, 'row-actions');
      // Add conversion: the conversion form, here, with the row's goal chosen; saved, the conversion is there.
      await page.click('[data-testid="goal-add-conversion"]');
      await page.waitForSelector('[data-testid="conversion-form"]');
      await page.fill('[data-testid="conversion-title"]', 'Покупки из корзины');
      await page.waitForSelector('[data-testid="conversion-numerator"] option:has-text("Покупка")', { state: 'attached' });
      expect(await page.$eval('[data-testid="conversion-numerator"]', (select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('Корзина');
      await page.click('[data-testid="conversion-save"]');
      await page.getByRole('status').filter({ hasText: 'Конверсия создана' }).waitFor();
      const conversions = await context.request.get(`${base}/top100/api/v1.0/user/conversions?project_id=${project}`, { headers: JSON_HEADERS });
      expect(((await conversions.json()) as { result: { conversions: { title: string }[] } }).result.conversions.map((c) => c.title)).toEqual(['Покупки из корзины']);
      // Make public.
      await page.click(`${cart} [data-testid="goal-actions"]`);
      await page.click('[data-testid="goal-make-public"]');
      await page.getByRole('status').filter({ hasText: 'Целевое событие стало публичным' }).waitFor();
      await expect.poll(() => page.textContent(cart), { timeout: 15_000 }).toContain('Публичное');
      await page.click(`${cart} [data-testid="goal-actions"]`);
      expect(await page.$$eval('[role="menuitem"]', (items) => items.map((i) => i.textContent))).toEqual(['Добавить конверсию', 'Редактировать', 'Копировать', 'Удалить']);
      // Copy: the form with «Копия_ » and the same conditions; saved, a new personal goal counted the same.
      await page.click('[data-testid="goal-copy"]');
      await page.waitForSelector('[data-testid="goal-form"]');
      expect(await page.inputValue('[data-testid="goal-title"]')).toBe('Копия_ Корзина');
      expect(await page.textContent('[data-testid="goal-condition"]')).toBe('Адрес страницы: равно */cart*');
      await page.click('[data-testid="goal-save"]');
      await page.getByRole('status').filter({ hasText: 'Целевое событие создано' }).waitFor();
      await expect.poll(() => counts(page), { timeout: 15_000 }).toEqual(['Копия_ Корзина | 3 | 2', 'Покупка | 2 | 2', 'Корзина | 3 | 2']);
      // Edit, then delete the copy.
      const copy = '[data-testid="goal-row"]:has-text("Копия_ Корзина")';
      await page.click(`${copy} [data-testid="goal-actions"]`);
      await page.click('[data-testid="goal-edit"]');
      await page.fill('[data-testid="goal-title"]', 'Корзина, копия');
      await page.click('[data-testid="goal-save"]');
      await page.getByRole('status').filter({ hasText: 'Целевое событие изменено' }).waitFor();
      await expect.poll(() => counts(page), { timeout: 15_000 }).toEqual(['Корзина, копия | 3 | 2', 'Покупка | 2 | 2', 'Корзина | 3 | 2']);
      await page.click('[data-testid="goal-row"]:has-text("Корзина, копия") [data-testid="goal-actions"]');
      await page.click('[data-testid="goal-remove"]');
      await page.click('[data-testid="confirm-button"]');
      await page.getByRole('status').filter({ hasText: 'Целевое событие удалено' }).waitFor();
      await expect.poll(() => counts(page), { timeout: 15_000 }).toEqual(['Покупка | 2 | 2', 'Корзина | 3 | 2']);
      await shot(page, 'counts-after');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);
});
