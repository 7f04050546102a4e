/// <reference path="../../server/src/testing/provided.d.ts" />
/**
 * The funnels page in a real browser against the running service: a new user with three goals
 * builds a three-step funnel (refused first without a title), sees its graph and table, downloads
 * them as CSV and PNG, copies it («Копия_ »), and deletes the copy. The demo project's buttons are disabled for a user.
 *
 * Screenshots go to test-output/screens/funnels-*.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumForTests } from '../../server/src/testing/browser';
import { createSite, pageWithErrors, registerUser, russianContext } from './testing/browser';

const base = inject('apiUrl').replace(/\/+$/, '');
const SCREENS = fileURLToPath(new URL('../../test-output/screens/', import.meta.url));
const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SCREENS}funnels-${name}.png`, fullPage: false });
}

const cells = (page: Page) => page.$$eval('[data-testid="funnel-row"]', (rows) => rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => (td.textContent ?? '').trim())));

describe('the funnels page', () => {
  const browser = chromiumForTests();
  beforeAll(() => {
    mkdirSync(SCREENS, { recursive: true });
  });

  it('builds a three-step funnel, shows it, copies it and deletes the copy', async () => {
    const context = await russianContext(browser(), 1280, { acceptDownloads: true });
    const { page, errors } = await pageWithErrors(context);
    const headers = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
    try {
      await registerUser(page, base, `funnels-${stamp}@example.com`);
      const project = (await createSite(context, base, `https://funnels-${stamp}.example`, 'Сайт с воронками')).id;
      for (const [title, path] of [['Каталог', '/catalog'], ['Корзина', '/cart'], ['Оплата', '/pay']]) {
        const answer = await context.request.post(`${base}/top100/api/v1.0/goal`, {
          headers,
          data: JSON.stringify({ project_id: project, title, body: { dimension_filters: [{ key: 'url', op: 'like', value: `*${path}*` }] } }),
        });
        expect(answer.status()).toBe(200);
      }

      await page.goto(`${base}/stat/projects/${project}/funnels`);
      await page.waitForSelector('[data-testid="funnels-empty"]');
      expect(await page.textContent('h1')).toBe('Воронки Новое');
      await page.click('[data-testid="funnel-create"]');
      await page.waitForSelector('[data-testid="funnel-step"]');
      await page.click('[data-testid="funnel-save"]');
      expect(await page.textContent('[data-testid="funnel-form"]')).toContain('Заполните поле');
      await page.fill('[data-testid="funnel-title"]', 'Покупка');
      await page.click('[data-testid="funnel-add-step"]');
      const steps = page.locator('[data-testid="funnel-step"]');
      for (const [i, title] of ['Каталог', 'Корзина', 'Оплата'].entries()) {
        await steps.nth(i).locator('[data-testid="funnel-step-title"]').fill(`Шаг «${title}»`);
        await steps.nth(i).getByText(title, { exact: true }).click();
      }
      await shot(page, 'form');
      await page.click('[data-testid="funnel-save"]');
      await page.getByRole('status').filter({ hasText: 'Воронка создана' }).waitFor();
      await expect.poll(() => cells(page), { timeout: 15_000 }).toEqual([
        ['1. Шаг «Каталог»', '0', '0', '—', '—', '—'],
        ['2. Шаг «Корзина»', '0', '0', '—', '—', '—'],
        ['3. Шаг «Оплата»', '0', '0', '—', '—', '—'],
      ]);
      expect(await page.$$eval('[data-testid="funnel-bar"]', (bars) => bars.length)).toBe(3);
      // The downloads: the table as CSV made by the api, the graph as PNG.
      await page.click('[data-testid="funnel-download"]');
      const [csv] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="funnel-csv"]')]);
      expect(csv.suggestedFilename()).toMatch(/^Воронка Покупка .*\.csv$/);
      const csvText = readFileSync((await csv.path())!, 'utf8');
      expect(csvText.split('\r\n').slice(1, 4)).toEqual(['1. Шаг «Каталог»;0;0;NA;NA;NA;0;0;NA;NA;NA', '2. Шаг «Корзина»;0;0;NA;NA;NA;0;0;NA;NA;NA', '3. Шаг «Оплата»;0;0;NA;NA;NA;0;0;NA;NA;NA']);
      await page.click('[data-testid="funnel-download"]');
      const [png] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="funnel-png"]')]);
      // Named as the CSV is: the funnel's title and the period.
      expect(png.suggestedFilename()).toBe(csv.suggestedFilename().replace(/\.csv$/, '.png'));
      expect([...readFileSync((await png.path())!).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
      await png.saveAs(`${SCREENS}funnels-download.png`);
      await page.getByText('Посетители не с предыдущего шага').click();
      expect(await page.isChecked('[data-testid="funnel-not-prev"]')).toBe(true);
      await shot(page, 'page');

      await page.click('[data-testid="funnel-copy"]');
      expect(await page.inputValue('[data-testid="funnel-title"]')).toBe('Копия_ Покупка');
      // The last step dragged to the top: renumbered on save.
      await page.locator('[data-testid="funnel-step-handle"]').nth(2).dragTo(page.locator('[data-testid="funnel-step"]').nth(0));
      expect(await page.$$eval('[data-testid="funnel-step-title"]', (inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(['Шаг «Оплата»', 'Шаг «Каталог»', 'Шаг «Корзина»']);
      await page.click('[data-testid="funnel-save"]');
      await page.getByRole('status').filter({ hasText: 'Воронка создана' }).waitFor();
      await expect.poll(() => cells(page).then((rows) => rows.map((r) => r[0])), { timeout: 15_000 }).toEqual(['1. Шаг «Оплата»', '2. Шаг «Каталог»', '3. Шаг «Корзина»']);
      // The select's search keeps the chosen funnel and those whose title matches.
      await page.fill('[data-testid="funnel-search"]', 'нет такой');
      expect(await page.$$eval('[data-testid="funnel-select"] option', (o) => o.map((x) => x.textContent))).toEqual(['Копия_ Покупка']);
      await page.fill('[data-testid="funnel-search"]', '');
      await expect.poll(() => page.$$eval('[data-testid="funnel-select"] option', (o) => o.map((x) => x.textContent)), { timeout: 15_000 }).toEqual(['Покупка', 'Копия_ Покупка']);
      expect(await page.inputValue('[data-testid="funnel-select"]')).not.toBe('');
      await page.click('[data-testid="funnel-delete"]');
      await page.getByRole('button', { name: 'Удалить' }).last().click();
      await page.getByRole('status').filter({ hasText: 'Воронка удалена' }).waitFor();
      await expect.poll(() => page.$$eval('[data-testid="funnel-select"] option', (o) => o.map((x) => x.textContent)), { timeout: 15_000 }).toEqual(['Покупка']);

      await page.goto(`${base}/stat/projects/7596044/funnels`);
      await page.waitForSelector('[data-testid="funnel-create"]');
      expect(await page.isDisabled('[data-testid="funnel-create"]')).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
