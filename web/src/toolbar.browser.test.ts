/// <reference path="../../server/src/testing/provided.d.ts" />
/**
 * The report toolbar in a real browser against the running service (spec 001 §2 "Report page
 * layout", "Toolbar"): a logged-in user downloads the CSV of a demo report, whose first rows are
 * the api's table of the same request, and of the summary report; «2 графика» draws two graphs,
 * the bar, pie and area types and the percent toggle draw and stay in the URL; a visitor who is
 * not logged in has no «Скачать отчёт». Each mode is saved to test-output/screens/.
 *
 * Needs: the embedded service of the global setup (inject) and Debian's chromium.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumForTests, paintedPixels } from '../../server/src/testing/browser';
import { openPage } from './testing/browser';

const base = inject('apiUrl').replace(/\/+$/, '');
const SCREENS = fileURLToPath(new URL('../../test-output/screens/', import.meta.url));
const PROJECT = '7596044';
const REPORT = `${base}/stat/projects/${PROJECT}/new/report/traffic_sources?dateStart=7days&dateEnd=today&groupBy=day`;
const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const email = `csv-${stamp}@example.com`;

interface TableAnswer {
  metrics: string[];
  totals: number[];
  data: { title: string; metrics: number[] }[];
}

/** Waits for the graphs to hold data (not dimmed by a request in flight) and saves the page. */
async function screen(page: Page, name: string): Promise<void> {
  await page.waitForSelector('[data-graph] [aria-busy="true"]', { state: 'detached', timeout: 30_000 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SCREENS}toolbar-${name}.png`, fullPage: true });
}

/** The totals row as shown: metric → raw value. */
function shownTotals(page: Page): Promise<Record<string, number>> {
  return page.$$eval('[data-testid="report-totals"] [data-metric]', (cells) =>
    Object.fromEntries(cells.map((c) => [c.getAttribute('data-metric') ?? '', Number(c.getAttribute('data-value'))])),
  );
}

/** A CSV line split on `;` (the export quotes no field of these reports' titles with `;`). */
const cells = (line: string) => line.split(';').map((c) => c.replace(/^"|"$/g, '').replace(/""/g, '"'));
/** A number as the CSV writes it: comma decimals. */
const csvNumber = (text: string) => Number(text.replace(',', '.'));

describe('report toolbar in a browser', () => {
  const browser = chromiumForTests();

  /** A page at 1440 × 900 that keeps its errors, and a reader of its URL's parameters. */
  async function reportPage(): Promise<{ page: Page; pageErrors: string[]; param: (name: string) => string | null }> {
    const { page, errors: pageErrors } = await openPage(browser(), 1440);
    return { page, pageErrors, param: (name) => new URL(page.url()).searchParams.get(name) };
  }

  beforeAll(() => {
    mkdirSync(SCREENS, { recursive: true });
  });

  it('downloads the CSV of the report as set up, whose first rows are the api\'s table', async () => {
    const context = await browser().newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    try {
      const registered = await context.request.post(`${base}/top100/api/v1.0/auth/register`, {
        headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        data: JSON.stringify({ email, password: 'browser test password' }),
      });
      expect(registered.status()).toBe(200);

      await page.goto(`${REPORT}&orderBy=visitors:desc`);
      await page.waitForSelector('[data-testid="report-totals"] [data-metric][data-value]', { timeout: 30_000 });
      const button = page.locator('[data-testid="csv-button"]');
      await expect.poll(() => button.isEnabled()).toBe(true);
      await button.click();
      expect(await page.textContent('[data-testid="csv-email"]')).toBe(email);
      await screen(page, 'csv-dialog');

      const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/report/${PROJECT}/traffic_sources/csv`));
      const download = page.waitForEvent('download');
      await page.click('[data-testid="csv-download"]');
      const body = (await sent).postDataJSON() as Record<string, unknown>;
      expect(body).toMatchObject({ group: 'day', sort: { name: 'visitors', order: 'desc' } });
      expect(body).not.toHaveProperty('limit');
      expect(body).not.toHaveProperty('offset');
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^Источники трафика .*\.csv$/);
      const text = readFileSync((await file.path()) ?? '', 'utf8');
      await page.waitForSelector('[data-testid="csv-dialog"]', { state: 'detached' });

      // The same request to the table (the export reads all visitors: sample 1).
      const answer = await context.request.post(`${base}/top100/api/report/v1.0/report/${PROJECT}/traffic_sources/table`, {
        headers: { 'content-type': 'application/json' },
        data: JSON.stringify({ ...body, sample: 1, limit: 5, offset: 0 }),
      });
      const table = ((await answer.json()) as { result: TableAnswer }).result;
      expect(text.charCodeAt(0)).toBe(0xfeff);
      const lines = text.slice(1).split(/\r?\n/);
      expect(cells(lines[0] ?? '')).toEqual(['Тип источника', 'Визиты', 'Посетители', 'Просмотры', 'Отказы, %', 'Глубина просмотра', 'Время на сайте, с'].slice(0, 1 + table.metrics.length));
      const [totalTitle, ...totalValues] = cells(lines[1] ?? '');
      expect(totalTitle).toBe('Итого');
      expect(totalValues.map(csvNumber)).toEqual(table.totals.map((v) => expect.closeTo(v, 2)));
      expect(table.data.length).toBeGreaterThan(0);
      table.data.forEach((row, i) => {
        const [title, ...values] = cells(lines[2 + i] ?? '');
        expect(title).toBe(row.title);
        expect(values.map(csvNumber)).toEqual(row.metrics.map((v) => expect.closeTo(v, 2)));
      });

      // The summary report (time rows) has the button too: a line per bucket under «Дата».
      await page.goto(`${base}/stat/projects/${PROJECT}/new/report/summary?dateStart=7days&dateEnd=today&groupBy=day`);
      const summaryButton = page.locator('[data-testid="csv-button"]');
      await expect.poll(() => summaryButton.isEnabled(), { timeout: 30_000 }).toBe(true);
      await summaryButton.click();
      const summaryDownload = page.waitForEvent('download');
      await page.click('[data-testid="csv-download"]');
      const summaryText = readFileSync((await (await summaryDownload).path()) ?? '', 'utf8');
      const summaryLines = summaryText.slice(1).split(/\r?\n/).filter(Boolean);
      expect(cells(summaryLines[0] ?? '')[0]).toBe('Дата');
      expect(cells(summaryLines[1] ?? '')[0]).toBe('Итого');
      expect(summaryLines.length).toBe(2 + 7);
    } finally {
      await context.close();
    }
  });

  it('draws two graphs, bars, a pie, areas and shares, and keeps each in the URL', async () => {
    const { page, pageErrors, param } = await reportPage();
    try {
      await page.goto(REPORT);
      expect(await paintedPixels(page, 'report-graph')).toBeGreaterThan(1000);
      // Nobody is logged in: no CSV (§2: only for a user with an e-mail).
      expect(await page.locator('[data-testid="csv-button"]').count()).toBe(0);
      await screen(page, 'one-line');

      await page.click('[data-testid="graph-count"] [data-count="2"]');
      await page.waitForSelector('[data-testid="report-graph-2"] canvas');
      await expect.poll(() => param('graphs')).toBe('visits:line,visitors:line');
      expect(await paintedPixels(page, 'report-graph-2')).toBeGreaterThan(1000);
      await screen(page, 'two-line');

      // The second graph takes the first graph's metric: they swap.
      await page.click('[data-graph="report-graph-2"] [data-metric="visits"]');
      await expect.poll(() => param('graphs')).toBe('visitors:line,visits:line');

      await page.click('[data-testid="chart-type"] [data-type="bar"]');
      await page.waitForSelector('[data-graph="report-graph"] [data-chart-type="bar"]');
      await expect.poll(() => param('graphs')).toBe('visitors:bar,visits:bar');
      expect(await paintedPixels(page, 'report-graph')).toBeGreaterThan(1000);
      expect(await paintedPixels(page, 'report-graph-2')).toBeGreaterThan(1000);
      await screen(page, 'two-bar');
      // Below a body width of 1275 the two graphs stand one above the other.
      await page.setViewportSize({ width: 1200, height: 900 });
      expect(await paintedPixels(page, 'report-graph-2')).toBeGreaterThan(1000);
      await screen(page, 'two-bar-narrow');
      await page.setViewportSize({ width: 1440, height: 900 });

      await page.click('[data-testid="chart-type"] [data-type="pie"]');
      await page.waitForSelector('[data-testid="report-graph"] path[data-slice]');
      expect(await page.locator('[data-testid="report-graph-2"] path[data-slice]').count()).toBeGreaterThan(0);
      await screen(page, 'two-pie');

      await page.click('[data-testid="graph-count"] [data-count="1"]');
      await page.click('[data-testid="chart-type"] [data-type="area"]');
      await page.click('[data-testid="percent-toggle"]');
      await expect.poll(() => param('graphs')).toBe('visitors:area');
      await expect.poll(() => param('percent')).toBe('1');
      await page.waitForSelector('[data-graph="report-graph"] [data-chart-type="area"]');
      expect(await page.locator('[data-testid="report-graph-2"]').count()).toBe(0);
      expect(await paintedPixels(page, 'report-graph')).toBeGreaterThan(1000);
      // Shares: the legend has no «Итого» line.
      expect(await page.locator('[data-graph="report-graph"] [data-line="total"]').count()).toBe(0);
      await screen(page, 'one-area-percent');

      // A reload draws the same.
      await page.reload();
      await page.waitForSelector('[data-graph="report-graph"] [data-chart-type="area"]');
      await expect.poll(() => page.getAttribute('[data-testid="percent-toggle"]', 'aria-pressed')).toBe('true');
      await expect.poll(() => page.getAttribute('[data-testid="chart-type"] [data-type="area"]', 'aria-pressed')).toBe('true');

      // A metric that is no count: no pie, no shares.
      await page.goto(`${REPORT}&metrics=visits,bounces&graphs=visits:pie&percent=1`);
      await page.waitForSelector('[data-testid="report-graph"] path[data-slice]');
      await page.click('[data-graph="report-graph"] [data-metric="bounces"]');
      await expect.poll(() => param('graphs')).toBe('bounces:line');
      await expect.poll(() => param('percent')).toBeNull();
      await expect.poll(() => page.isDisabled('[data-testid="chart-type"] [data-type="pie"]')).toBe(true);
      await expect.poll(() => page.isDisabled('[data-testid="percent-toggle"]')).toBe(true);
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  /** The sides of the open period popover that pass the window (its sticky header included): none when it is seen whole. */
  async function popoverOutside(page: Page): Promise<string[]> {
    const box = await page.locator('[role="dialog"][aria-label="Выбор периода"]').boundingBox();
    const header = await page.locator('header').first().boundingBox();
    const view = page.viewportSize();
    if (!box || !view) throw new Error('no period popover, or no viewport');
    const top = header ? header.y + header.height : 0;
    return [
      box.x < 0 ? 'left' : '',
      box.y < top ? 'top' : '',
      box.x + box.width > view.width ? 'right' : '',
      box.y + box.height > view.height ? 'bottom' : '',
    ].filter(Boolean);
  }

  it('opens the period popover whole inside a window of 1024 × 768, where the toolbar sits low under the hints', async () => {
    const { page, pageErrors } = await reportPage();
    try {
      await page.setViewportSize({ width: 1024, height: 768 });
      await page.goto(REPORT);
      await page.waitForSelector('[data-testid="report-totals"] [data-metric][data-value]', { timeout: 30_000 });
      await page.click('[data-testid="period-dates"]');
      await page.waitForSelector('[data-testid="period-calendar"]');
      expect(await popoverOutside(page)).toEqual([]);
      // Two months side by side, and the button that opened them still in view.
      expect(await page.locator('[data-testid="period-calendar"] [role="grid"]').count()).toBe(2);
      expect(await page.locator('[data-testid="period-dates"]').isVisible()).toBe(true);
      const button = await page.locator('[data-testid="period-dates"]').boundingBox();
      expect(button !== null && button.y >= 0 && button.y + button.height <= 768).toBe(true);
      await page.screenshot({ path: `${SCREENS}toolbar-calendar-1024.png` });
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('chooses a period with two clicks in the calendar of «Период:», and the report reads that period', async () => {
    const { page, pageErrors, param } = await reportPage();
    try {
      await page.goto(REPORT);
      await page.waitForSelector('[data-testid="report-totals"] [data-metric][data-value]', { timeout: 30_000 });
      const weekTotals = await shownTotals(page);
      await page.click('[data-testid="period-dates"]');
      await page.waitForSelector('[data-testid="period-calendar"]');
      expect(await popoverOutside(page)).toEqual([]);
      // Today as the page knows it (the service's Moscow day), marked in the calendar; the next day is not offered.
      const today = await page.getAttribute('[data-testid="period-calendar"] [aria-current="date"]', 'data-day');
      if (today === null) throw new Error('the calendar marks no today');
      const dayBefore = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
      const after = page.locator(`[data-testid="period-calendar"] [data-day="${new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)}"]`);
      if ((await after.count()) > 0) expect(await after.isDisabled()).toBe(true);
      // The end first, then the start: the range is swapped.
      await page.click(`[data-testid="period-calendar"] [data-day="${dayBefore(2)}"]`);
      await page.click(`[data-testid="period-calendar"] [data-day="${dayBefore(6)}"]`);
      await page.screenshot({ path: `${SCREENS}toolbar-calendar.png` });
      const answered = page.waitForResponse((r) => r.url().endsWith('/traffic_sources/table') && (r.request().postDataJSON() as { date_start?: string }).date_start === dayBefore(6));
      await page.click('[role="dialog"][aria-label="Выбор периода"] button[type="submit"]');
      const answer = await answered;
      expect(answer.request().postDataJSON()).toMatchObject({ date_start: dayBefore(6), date_end: dayBefore(2) });
      // The table shows that period's answer: its totals, not the week's it showed before.
      const { result } = (await answer.json()) as { result: TableAnswer };
      const periodTotals = Object.fromEntries(result.metrics.map((m, i) => [m, result.totals[i]]));
      await expect.poll(() => shownTotals(page)).toEqual(periodTotals);
      expect(periodTotals.visits).toBeLessThan(weekTotals.visits ?? 0);
      await expect.poll(() => [param('dateStart'), param('dateEnd')]).toEqual([dayBefore(6), dayBefore(2)]);
      expect(await page.locator('[data-testid="period-calendar"]').count()).toBe(0);
      expect(await page.textContent('[data-testid="period-dates"]')).toContain(`${dayBefore(6).split('-').reverse().join('.')} – ${dayBefore(2).split('-').reverse().join('.')}`);
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
