/// <reference path="../../server/src/testing/provided.d.ts" />
/**
 * A report page opened by its address, with the table and graph calls started as the app starts
 * (app/preload.ts): each call is made once, with the body the address says (worked out here by
 * hand), and the page shows exactly the table endpoint's answer for it; a report opened again
 * later in the same page asks afresh instead of showing the early answer.
 *
 * Needs: the embedded service of the global setup (its base URL comes by inject) and Debian's
 * chromium; a missing one fails the test.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { chromiumForTests, paintedPixels } from '../../server/src/testing/browser';
import { addDays } from '@stat/schemas/period';
import { moscowToday } from './lib/dates';
import { postApi, russianContext } from './testing/browser';

const base = inject('apiUrl').replace(/\/+$/, '');
const PROJECT = '7596044';

const api = <T>(path: string, body: unknown): Promise<T> => postApi<T>(base, path, body);

/** The report calls a page makes (top-level tables and graphs), as sent. */
function reportCalls(page: Page): { kind: string; report: string; body: Record<string, unknown> }[] {
  const calls: { kind: string; report: string; body: Record<string, unknown> }[] = [];
  page.on('request', (r: Request) => {
    const m = /\/report\/v1\.0\/report\/\d+\/([a-z_]+)\/(table|graph)$/.exec(r.url());
    if (r.method() !== 'POST' || !m) return;
    const body = r.postDataJSON() as Record<string, unknown>;
    if (!body.parents) calls.push({ kind: m[2] ?? '', report: m[1] ?? '', body });
  });
  return calls;
}

/** The totals row as shown: metric → raw value. */
function shownTotals(page: Page, testId: string): Promise<Record<string, number>> {
  return page.$$eval(`[data-testid="${testId}"] [data-metric]`, (cells) =>
    Object.fromEntries(cells.map((c) => [c.getAttribute('data-metric') ?? '', Number(c.getAttribute('data-value'))])),
  );
}

async function expectTotalsOf(page: Page, report: string, testId: string, body: unknown): Promise<void> {
  const direct = await api<{ metrics: string[]; totals: number[] }>(`/api/report/v1.0/report/${PROJECT}/${report}/table`, body);
  await expect.poll(() => shownTotals(page, testId), { timeout: 30_000 }).toEqual(Object.fromEntries(direct.metrics.map((m, i) => [m, direct.totals[i]])));
}

describe('a report page opened by its address', () => {
  const browser = chromiumForTests();

  it('asks once for what its address says and shows that answer; opened again, it asks again', async () => {
    // A visitor: no session, so the early calls go before the session is known.
    const context = await russianContext(browser(), 1440);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    // An anonymous visit is no error: nothing red in the console, no failed call (the session
    // check answers an empty 204, and nothing is refreshed).
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    const failed: string[] = [];
    const session: number[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
      if (response.url().endsWith('/api/v1.0/user/current')) session.push(response.status());
    });
    const calls = reportCalls(page);
    try {
      const today = moscowToday();
      const rules = [{ key: 'traffic_type', op: 'include', value: ['direct', 'search'] }];
      const query = new URLSearchParams({
        dateStart: '20days',
        dateEnd: 'yesterday',
        groupBy: 'week',
        metrics: 'visits,bounces',
        orderBy: 'visits:asc',
        sample: '1',
        limit: '25',
        globalFilters: JSON.stringify(rules),
      });
      await page.goto(`${base}/stat/projects/${PROJECT}/new/report/traffic_sources?${query}`);
      const sent = {
        // «20days» is the last 20 days, today the last of them.
        date_start: addDays(today, -19),
        date_end: addDays(today, -1),
        group: 'week',
        metrics: ['visits', 'bounces'],
        sort: { name: 'visits', order: 'asc' },
        sample: 1,
        dimension_filters: rules,
      };
      await expect.poll(() => paintedPixels(page, 'report-graph'), { timeout: 30_000 }).toBeGreaterThan(1000);
      expect(calls).toEqual([
        { kind: 'graph', report: 'traffic_sources', body: { ...sent, need_all_total: true } },
        { kind: 'table', report: 'traffic_sources', body: { ...sent, limit: 25, offset: 0 } },
      ]);
      await expectTotalsOf(page, 'traffic_sources', 'report-totals', { ...sent, limit: 25, offset: 0 });
      expect(new URL(page.url()).searchParams.get('orderBy')).toBe('visits:asc');

      // To the summary by the menu (it carries the period and the filters) and back: each asks
      // for its own answers then, none is taken from the start.
      calls.length = 0;
      await page.click('[data-testid="report-menu"] a[href*="/new/report/summary"]');
      await expect.poll(() => paintedPixels(page, 'summary-graph'), { timeout: 30_000 }).toBeGreaterThan(1000);
      await page.goBack();
      await expect.poll(() => calls.filter((c) => c.report === 'traffic_sources').map((c) => c.kind).sort(), { timeout: 30_000 }).toEqual(['graph', 'table']);
      await expectTotalsOf(page, 'traffic_sources', 'report-totals', { ...sent, limit: 25, offset: 0 });
      expect(pageErrors).toEqual([]);
      expect(session).toEqual([204]);
      expect(failed).toEqual([]);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('draws a demo report while its project is still read, and keeps it when the project comes', async () => {
    const context = await russianContext(browser(), 1440);
    const page = await context.newPage();
    const calls = reportCalls(page);
    let answerProject = () => undefined as void;
    const projectHeld = new Promise<void>((resolve) => (answerProject = resolve));
    await page.route(`**/api/v1.0/project/${PROJECT}`, async (route) => {
      await projectHeld;
      await route.continue();
    });
    try {
      await page.goto(`${base}/stat/projects/${PROJECT}/new/report/traffic_sources?dateStart=7days&dateEnd=yesterday&groupBy=day`);
      await expect.poll(() => paintedPixels(page, 'report-graph'), { timeout: 30_000 }).toBeGreaterThan(1000);
      // The project's header and menu wait for it; the report does not.
      expect(await page.locator('[data-testid="project-title"], [data-testid="report-menu"]').count()).toBe(0);
      await page.$eval('[data-testid="report-graph"]', (graph) => graph.setAttribute('data-before-project', ''));
      answerProject();
      await page.waitForSelector('[data-testid="project-title"]');
      await page.waitForSelector('[data-testid="report-menu"]');
      // The same graph (not drawn anew) and no call made again.
      expect(await page.locator('[data-testid="report-graph"][data-before-project]').count()).toBe(1);
      expect(calls.map((c) => c.kind).sort()).toEqual(['graph', 'table']);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('shows the summary of a period, sort and page given in the address', async () => {
    const context = await russianContext(browser(), 1280);
    const page = await context.newPage();
    const calls = reportCalls(page);
    try {
      const today = moscowToday();
      await page.goto(`${base}/stat/projects/${PROJECT}/new/report/summary?dateStart=30days&dateEnd=today&groupBy=day&orderBy=visits:asc&tableFilters=visits:>:5`);
      const sent = { date_start: addDays(today, -29), date_end: today, group: 'day', metrics: ['page_views', 'visits', 'visitors'], metric_filters: [{ key: 'visits', op: '>', value: 5 }] };
      await expect.poll(() => paintedPixels(page, 'summary-graph'), { timeout: 30_000 }).toBeGreaterThan(1000);
      expect(calls).toEqual([
        { kind: 'graph', report: 'summary', body: sent },
        { kind: 'table', report: 'summary', body: { ...sent, sort: { name: 'visits', order: 'asc' }, limit: 90, offset: 0 } },
      ]);
      await expectTotalsOf(page, 'summary', 'summary-totals', { ...sent, sort: { name: 'visits', order: 'asc' }, limit: 90, offset: 0 });
    } finally {
      await context.close();
    }
  }, 120_000);
});
