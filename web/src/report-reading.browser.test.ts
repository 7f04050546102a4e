/// <reference path="../../server/src/testing/provided.d.ts" />
/**
 * What a reader sees of a report at the widths people use (1440 and 1024): page addresses that
 * tell rows apart, pie slices of «Итого» with «Прочее», percents with two decimals. Screenshots
 * go to a temporary directory for a person to look at.
 *
 * Needs: the embedded service of the global setup (its base URL comes by inject) and Debian's
 * chromium; a missing one fails the test.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { chromiumForTests } from '../../server/src/testing/browser';

const base = inject('apiUrl').replace(/\/+$/, '');
const PROJECT = '7596044';
const SHOTS = process.env.STAT_SCREENSHOTS ?? join(tmpdir(), 'stat-report-reading-screenshots');

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

/** The title cells of the table's rows as a reader sees them: text, and whether its end is cut. */
function titles(page: Page): Promise<{ text: string; full: string; endShown: boolean }[]> {
  return page.$$eval('[data-testid="report-row"] th [title]', (spans) =>
    spans.map((span) => {
      // The end shows when the tail (or, unsplit, the text) ends inside the cell's box.
      const tail = span.querySelector('[data-part="tail"]');
      const endShown = tail ? tail.getBoundingClientRect().right <= span.getBoundingClientRect().right + 1 : span.scrollWidth <= span.clientWidth + 1;
      return { text: span.textContent ?? '', full: span.getAttribute('title') ?? '', endShown };
    }),
  );
}

describe('report screens at 1440 and 1024 wide', () => {
  const browser = chromiumForTests();

  it.each([1440, 1024])('page reports at %i wide show what differs between addresses, the full one in the tooltip', async (width) => {
    const page = await browser().newPage({ viewport: { width, height: 900 } });
    try {
      for (const name of ['page_urls', 'entrance_pages']) {
        await page.goto(`${base}/stat/projects/${PROJECT}/new/report/${name}?dateStart=7days&dateEnd=today&groupBy=day`);
        await page.waitForSelector('[data-testid="report-row"] th [title]', { timeout: 30_000 });
        await page.$eval('[data-testid="report-row"]', (row) => row.closest('table')?.scrollIntoView({ block: 'start' }));
        await shot(page, `${name}-${width}`);
        const shown = await titles(page);
        expect(shown.length).toBeGreaterThan(2);
        for (const t of shown) {
          expect(t.full).toMatch(/^https?:\/\//);
          // The host every row shares is not repeated; the path's end is never cut.
          expect(t.text).not.toMatch(/^https?:\/\//);
          expect(t.endShown).toBe(true);
        }
        expect(new Set(shown.map((t) => t.text)).size).toBe(shown.length);
      }
    } finally {
      await page.close();
    }
  });

  it.each(['dau', 'wau', 'mau'])('the ready template %s opens sorted by date ascending, read exactly', async (id) => {
    const page = await browser().newPage({ viewport: { width: 1440, height: 900 } });
    try {
      await page.goto(`${base}/stat/projects/${PROJECT}/constructor`);
      const asked = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/eventbase/${PROJECT}/constructor`), { timeout: 30_000 });
      await page.click(`[data-testid="ready-template-${id}"]`);
      const body = (await asked).postDataJSON() as { sort?: unknown; sample?: unknown; dimensions?: unknown };
      expect(body).toMatchObject({ dimensions: ['date'], sort: { name: 'title', order: 'asc' }, sample: 1 });
      await page.waitForSelector('[data-testid="report-row"]', { timeout: 30_000 });
      const days = await page.$$eval('[data-testid="report-row"][data-level="0"]', (rows) => rows.map((r) => (JSON.parse(r.getAttribute('data-row-id') ?? '[]') as string[])[0] ?? ''));
      expect(days.length).toBeGreaterThan(1);
      expect(days).toEqual([...days].sort());
      await page.$eval('[data-testid="report-row"]', (row) => row.closest('table')?.scrollIntoView({ block: 'center' }));
      await shot(page, `constructor-${id}`);
    } finally {
      await page.close();
    }
  });

  it.each([1440, 1024])('the dashboard on «Вчера» at %i wide shows yesterday\'s unique visitors, not a count of «now»', async (width) => {
    const page = await browser().newPage({ viewport: { width, height: 900 } });
    try {
      await page.goto(`${base}/stat/projects/${PROJECT}/dashboard`);
      await page.waitForSelector('[data-testid="current-users"]', { timeout: 30_000 });
      const isMain = (r: Request) => r.method() === 'POST' && r.url().endsWith(`/eventbase/${PROJECT}/realtime`) && (r.postData() ?? '').includes('"active_pages"');
      const asked = page.waitForRequest(isMain);
      await page.click('[data-testid="period-picker"] [data-range="yesterday"]');
      const body = (await asked).postDataJSON() as { sections: string[] };
      expect(body.sections).not.toContain('current_user_count');
      const widget = page.locator('[data-testid="widget-current_user_count"]');
      await page.waitForSelector('[data-testid="period-visitors"]:not([data-value=""])', { timeout: 30_000 });
      expect(await widget.locator('h2').innerText()).toBe('Уникальные посетители');
      expect(await widget.innerText()).not.toMatch(/сейчас|минут/);
      // The same call straight to the api: the page views' graph counts yesterday's visitors.
      const response = await fetch(`${base}/top100/api/report/v1.0/eventbase/${PROJECT}/realtime`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const result = ((await response.json()) as { result: { page_views: { metrics: string[]; totals: number[] } } }).result.page_views;
      const visitors = result.totals[result.metrics.indexOf('visitors')];
      expect(visitors).toBeGreaterThan(0);
      expect(Number(await page.getAttribute('[data-testid="period-visitors"]', 'data-value'))).toBe(visitors);
      await shot(page, `dashboard-yesterday-${width}`);
      // «Популярные страницы»: the pages without the site's address they share, the full one their link.
      const pages = page.locator('[data-testid="widget-active_pages"] [data-testid="row-address"]');
      await pages.first().waitFor();
      for (const link of await pages.all()) {
        expect(await link.getAttribute('href')).toMatch(/^https:\/\/demo\.stat\.example\//);
        expect(await link.textContent()).toMatch(/^\//);
      }
      await page.$eval('[data-testid="widget-active_pages"]', (w) => w.scrollIntoView({ block: 'center' }));
      await shot(page, `dashboard-pages-${width}`);
    } finally {
      await page.close();
    }
  });

  it.each([1440, 1024])('at %i wide a pie shows shares of «Итого» with «Прочее», and every percent two decimals', async (width) => {
    const page = await browser().newPage({ viewport: { width, height: 900 } });
    try {
      await page.goto(`${base}/stat/projects/${PROJECT}/new/report/traffic_sources?dateStart=7days&dateEnd=today&groupBy=day&sample=1&metrics=visits,visitors,bounces&graphs=visits:pie`);
      await page.waitForSelector('ul[aria-label="Доли строк"] li[data-line]', { timeout: 30_000 });
      // One default line less: its visits join the rest of «Итого».
      const graphAnswered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/traffic_sources/graph'));
      await page.locator('[data-testid="report-row"] [data-testid="line-toggle"]:checked').first().click();
      // The pie's «Итого» is its own answer's: other tests of the run send hits to the demo today,
      // so the table's answer, asked earlier, may count fewer.
      const graph = ((await (await graphAnswered).json()) as { result: { metrics: string[]; totals: number[] } }).result;
      await page.waitForSelector('ul[aria-label="Доли строк"] li[data-line="other"]', { timeout: 30_000 });
      const legend = await page.$$eval('ul[aria-label="Доли строк"] li[data-line]', (items) => items.map((li) => ({ id: li.getAttribute('data-line') ?? '', text: li.textContent ?? '' })));
      const total = graph.totals[graph.metrics.indexOf('visits')]!;
      expect(total).toBeGreaterThan(0);
      // Each slice «value · share»: the share is the value's part of «Итого», to two decimals.
      let sum = 0;
      for (const { text } of legend) {
        const m = /([\d\u00a0]+) · (\d+),(\d\d)%$/.exec(text);
        expect(m, text).not.toBeNull();
        const value = Number(m![1]!.replace(/\u00a0/g, ''));
        sum += value;
        expect(Number(`${m![2]}.${m![3]}`)).toBeCloseTo((value / total) * 100, 2);
      }
      expect(sum).toBe(total);
      // The percent column (bounces) reads two decimals on every row and the totals.
      const bounces = await page.$$eval('[data-metric="bounces"]', (cells) => cells.filter((c) => c.tagName === 'TD').map((c) => c.textContent ?? ''));
      expect(bounces.length).toBeGreaterThan(2);
      for (const text of bounces) expect(text).toMatch(/^\d+,\d\d%$/);
      await page.$eval('ul[aria-label="Доли строк"]', (ul) => ul.scrollIntoView({ block: 'center' }));
      await shot(page, `pie-percents-${width}`);
      await page.$eval('[data-testid="report-row"]', (row) => row.closest('table')?.scrollIntoView({ block: 'center' }));
      await shot(page, `table-percents-${width}`);
    } finally {
      await page.close();
    }
  });
});
