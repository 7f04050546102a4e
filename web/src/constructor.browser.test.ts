/// <reference path="../../server/src/testing/provided.d.ts" />
/**
 * The report constructor in a real browser against the running service, on the demo project as
 * a newly registered user: three dimensions ticked in «Настройки» make a drill-down table whose
 * totals are what the constructor call answers; the report is saved, found in «Мои отчёты»,
 * reopened (its query back in the sidebar and the request), shown as a graph, renamed and deleted.
 *
 * Screenshots go to test-output/screens/constructor-*.png.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { chromiumForTests } from '../../server/src/testing/browser';
import { pageWithErrors, registerUser, russianContext } from './testing/browser';

const base = inject('apiUrl').replace(/\/+$/, '');
const DEMO = '7596044';
const SCREENS = fileURLToPath(new URL('../../test-output/screens/', import.meta.url));
const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const THREE = ['traffic_type', 'device_type', 'browser_family'];

type Body = Record<string, unknown> & { dimensions?: string[]; parents?: unknown; view_type?: string; metrics?: string[] };
const body = (r: Request): Body => r.postDataJSON() as Body;
const isConstructorCall = (r: Request): boolean => r.method() === 'POST' && r.url().endsWith(`/eventbase/${DEMO}/constructor`);
const isTopTable = (dimensions: readonly string[]) => (r: Request) =>
  isConstructorCall(r) && body(r).view_type === 'table' && !body(r).parents && JSON.stringify(body(r).dimensions) === JSON.stringify(dimensions);

function shownTotals(page: Page): Promise<Record<string, number>> {
  return page.$$eval('[data-testid="report-totals"] [data-metric]', (cells) =>
    Object.fromEntries(cells.map((c) => [c.getAttribute('data-metric') ?? '', Number(c.getAttribute('data-value'))])),
  );
}

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SCREENS}constructor-${name}.png`, fullPage: false });
}

describe('the report constructor in a browser', () => {
  const browser = chromiumForTests();

  beforeAll(() => {
    mkdirSync(SCREENS, { recursive: true });
  });

  it('builds a three-dimension report, saves it, finds it in «Мои отчёты», reopens, renames and deletes it', async () => {
    const context = await russianContext(browser(), 1440);
    const { page, errors } = await pageWithErrors(context);
    try {
      await registerUser(page, base, `constructor-${stamp}@example.com`);

      // A new report: nothing chosen in «Строки», so nothing to show and nothing to save.
      await page.goto(`${base}/stat/projects/${DEMO}/new/report/constructor?dateStart=7days&dateEnd=today&groupBy=day`);
      await page.waitForSelector('[data-testid="constructor-empty"]');
      expect(await page.textContent('[data-testid="constructor-rows"]')).toContain('Не выбрано');
      expect(await page.textContent('[data-testid="constructor-sidebar"]')).toContain('Одновременно можно выбрать не более 10 параметров');
      expect(await page.isDisabled('[data-testid="constructor-save"]')).toBe(true);

      // Three dimensions ticked one after another: one request, after the delay, with all three.
      const asked = page.waitForRequest(isTopTable(THREE), { timeout: 30_000 });
      await page.fill('[data-testid="constructor-search"]', 'Тип');
      await page.check('[data-testid="constructor-item-traffic_type"]');
      await page.check('[data-testid="constructor-item-device_type"]');
      await page.fill('[data-testid="constructor-search"]', '');
      await page.check('[data-testid="constructor-item-browser_family"]');
      const sent = body(await asked);
      expect(sent.metrics).toEqual(['page_views', 'visits', 'visitors']);
      await page.waitForSelector('[data-testid="report-row"]');
      expect(await page.textContent('[data-testid="report-table"]')).toContain('Тип источника / Тип устройства / Браузер');
      expect(await page.$$eval('[data-testid="constructor-rows"] li', (items) => items.map((i) => i.textContent))).toEqual(['⋮⋮Тип источника', '⋮⋮Тип устройства', '⋮⋮Браузер']);

      // The totals shown are the constructor call's for the same request.
      const direct = await fetch(`${base}/top100/api/report/v1.0/eventbase/${DEMO}/constructor`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sent),
      });
      const answer = ((await direct.json()) as { result: { metrics: string[]; totals: number[] } }).result;
      const expected = Object.fromEntries(answer.metrics.map((m, i) => [m, answer.totals[i] ?? NaN]));
      await expect.poll(() => shownTotals(page), { timeout: 30_000 }).toEqual(expected);

      // A row expands into the next dimension, and that one into the third.
      await page.click('[data-testid="report-row"][data-level="0"] [data-testid="row-expand"]');
      await page.waitForSelector('[data-testid="report-row"][data-level="1"]', { timeout: 30_000 });
      await page.click('[data-testid="report-row"][data-level="1"] [data-testid="row-expand"]');
      await page.waitForSelector('[data-testid="report-row"][data-level="2"]', { timeout: 30_000 });
      expect(await page.$$eval('[data-testid="report-row"][data-level="2"] [data-testid="row-expand"]', (b) => b.length)).toBe(0);
      await shot(page, 'table');

      // Saved under a name: too short first.
      await page.click('[data-testid="constructor-save"]');
      await page.fill('[data-testid="template-title-input"]', 'ab');
      await page.click('[data-testid="template-title-submit"]');
      expect(await page.textContent('[data-testid="template-title-modal"]')).toContain('Минимальная длина названия: 3 символа');
      await page.fill('[data-testid="template-title-input"]', 'Источники, устройства и браузеры');
      await shot(page, 'save-modal');
      await page.click('[data-testid="template-title-submit"]');
      await page.getByRole('status').filter({ hasText: 'Отчёт сохранён' }).waitFor();
      await expect.poll(() => new URL(page.url()).searchParams.get('template'), { timeout: 15_000 }).toMatch(/^\d+$/);
      await expect.poll(() => page.textContent('h1'), { timeout: 15_000 }).toBe('Источники, устройства и браузеры');

      // «Мои отчёты» on the templates page: found by search, then opened.
      await page.goto(`${base}/stat/projects/${DEMO}/constructor`);
      await page.waitForSelector('[data-testid="my-report-open"]');
      expect(await page.textContent('h1')).toBe('Конструктор отчётов');
      expect(await page.textContent('[data-testid="constructor-create"]')).toContain('Новый отчёт можно сохранить и использовать в качестве шаблона.');
      await page.fill('[data-testid="my-reports-search"]', 'нет такого');
      await page.getByText('По вашему запросу ничего не найдено').waitFor();
      await page.fill('[data-testid="my-reports-search"]', 'УСТРОЙСТВА');
      await page.waitForSelector('[data-testid="my-report-open"]');
      expect(await page.$$eval('[data-testid="my-report-open"]', (links) => links.map((l) => l.textContent))).toEqual(['Источники, устройства и браузеры']);
      await page.click('[data-testid="constructor-show-all"]');
      await page.getByText('DAU').waitFor();
      await shot(page, 'templates');

      const reopened = page.waitForRequest(isTopTable(THREE), { timeout: 30_000 });
      await page.click('[data-testid="my-report-open"]');
      expect(body(await reopened).metrics).toEqual(['page_views', 'visits', 'visitors']);
      await page.waitForSelector('[data-testid="report-row"]');
      await expect.poll(() => page.textContent('h1'), { timeout: 15_000 }).toBe('Источники, устройства и браузеры');
      expect(await page.$$eval('[data-testid="constructor-rows"] li', (items) => items.length)).toBe(3);

      // «Графики» keeps the first metric and dimension: the graph of traffic types.
      const graphAsked = page.waitForRequest((r) => isConstructorCall(r) && body(r).view_type === 'graph', { timeout: 30_000 });
      await page.click('[data-testid="constructor-view-graph"]');
      const graphBody = body(await graphAsked);
      expect([graphBody.metrics, graphBody.dimensions]).toEqual([['page_views'], ['traffic_type']]);
      await page.waitForSelector('[data-testid="report-graph"]');
      expect(await page.$$eval('[data-testid="constructor-rows"] li', (items) => items.map((i) => i.textContent))).toEqual(['⋮⋮Тип источника']);
      await shot(page, 'graph');

      // Renamed and deleted from «Мои отчёты».
      await page.goto(`${base}/stat/projects/${DEMO}/constructor`);
      await page.waitForSelector('[data-testid="my-report-rename"]');
      await page.click('[data-testid="my-report-rename"]');
      await page.fill('[data-testid="template-title-input"]', 'Мой конструктор');
      await page.click('[data-testid="template-title-submit"]');
      await page.getByRole('status').filter({ hasText: 'Отчёт изменён' }).waitFor();
      await expect.poll(() => page.$$eval('[data-testid="my-report-open"]', (links) => links.map((l) => l.textContent)), { timeout: 15_000 }).toEqual(['Мой конструктор']);
      await page.click('[data-testid="my-report-delete"]');
      await page.getByRole('dialog').getByRole('button', { name: 'Удалить' }).click();
      await page.getByRole('status').filter({ hasText: 'Отчёт удалён' }).waitFor();
      await page.getByText('Сохранённых отчётов пока нет.').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);

  it('«Настройки» at 1440×900 show their last fields inside the panel, padded, and the search\'s placeholder whole', async () => {
    const context = await russianContext(browser(), 1440);
    const page = await context.newPage();
    try {
      await page.goto(`${base}/stat/projects/${DEMO}/new/report/constructor?dateStart=7days&dateEnd=today&groupBy=day`);
      await page.waitForSelector('[data-testid="constructor-limit"]');
      const measure = () =>
        page.evaluate(() => {
          const panel = document.querySelector('[data-testid="constructor-sidebar"]')!;
          const limit = document.querySelector('[data-testid="constructor-limit"]')!.getBoundingClientRect();
          const search = document.querySelector<HTMLInputElement>('[data-testid="constructor-search"]')!;
          // The placeholder as a value: it fits when the value does.
          search.value = search.placeholder;
          const placeholderFits = search.scrollWidth <= search.clientWidth;
          search.value = '';
          return {
            hiddenInPanel: panel.scrollHeight > panel.clientHeight,
            paddingUnderLastField: panel.getBoundingClientRect().bottom - limit.bottom >= 12,
            panelInWindow: panel.getBoundingClientRect().bottom <= window.innerHeight,
            placeholderFits,
          };
        });
      const fits = { hiddenInPanel: false, paddingUnderLastField: true, panelInWindow: true, placeholderFits: true };
      expect(await measure()).toEqual(fits);
      // Pinned under the header once the page scrolls, with a row of «Строки» chosen.
      await page.getByText('Тип источника', { exact: true }).first().click();
      await page.waitForSelector('[data-testid="report-totals"]');
      await page.mouse.wheel(0, 300);
      await page.waitForTimeout(300);
      expect(await measure()).toEqual(fits);
      await shot(page, 'settings-1440');
    } finally {
      await context.close();
    }
  }, 120_000);
});
