import { describe, expect, inject, it } from 'vitest';
import { chromiumForTests } from './testing/browser.js';
import { createProject, eventually, periodSince, summaryTotals } from './testing/api-client.js';
import { COUNTER_LOADED, browseThreePages, startTestSite } from './testing/site.js';
import { freePort } from './testing/service.js';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

// Needs: the embedded service of the global setup (chDB, the hit log as its bus) and Debian's chromium.
const apiUrl = inject('apiUrl');
const collectorUrl = inject('collectorUrl');

/** One page view straight to the collector, as the counter sends it; answers the status. */
async function sendPageView(projectId: number, u: string, v: string): Promise<number> {
  const hit = { p: projectId, t: 'pageview', u, r: '', ti: 'Page', sw: 1280, sh: 800, v };
  const answer = await fetch(`${collectorUrl}/hit`, {
    method: 'POST',
    // A browser's user agent: fetch's own would be dropped as a bot.
    headers: { 'content-type': 'text/plain', 'user-agent': CHROME },
    body: JSON.stringify(hit),
  });
  return answer.status;
}

const browser = chromiumForTests();

describe('embedded mode: a page with the counter to a report', () => {
  it('counts exactly the three page views, one visit and one visitor, today in Moscow time', async () => {
    const started = Date.now();
    const { projectId, cookie } = await createProject(apiUrl);
    const site = await startTestSite({ src: `${apiUrl}/counter/counter.js`, projectId, collector: collectorUrl });
    try {
      const problems = await browseThreePages(browser(), site);
      expect(problems).toEqual([]);
    } finally {
      await site.close();
    }
    const body = { ...periodSince(started), group: 'hour', metrics: ['page_views', 'visits', 'visitors'] };
    const totals = await eventually(() => summaryTotals(apiUrl, projectId, body, cookie), (t) => t[0] === 3);
    expect(totals).toEqual([3, 1, 1]);

    // Still three a moment later: nothing was counted twice.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await summaryTotals(apiUrl, projectId, body, cookie)).toEqual([3, 1, 1]);

    // The views sit in the current Moscow hour of the graph.
    const graph = await fetch(`${apiUrl}/top100/api/report/v1.0/report/${projectId}/summary/graph`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(body),
    });
    const points = ((await graph.json()) as { result: { data: { points: { ts: number; metrics: number[] }[] }[] } }).result
      .data[0]!.points;
    const nonEmpty = points.filter((p) => p.metrics[0]! > 0);
    const now = Date.now() / 1000;
    expect(nonEmpty.reduce((s, p) => s + p.metrics[0]!, 0)).toBe(3);
    for (const p of nonEmpty) expect(now - p.ts).toBeLessThan(2 * 3600);
  });

  it("applies the counter settings saved through the api: a blacklisted copy and pages off the whitelist are not counted", async () => {
    const started = Date.now();
    const { projectId, cookie } = await createProject(apiUrl);
    const saved = await fetch(`${apiUrl}/top100/api/v1.0/project/${projectId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', cookie },
      body: JSON.stringify({
        counter_settings: { use_whitelist: true, whitelisted_urls: ['https://e2e-site.example'], blacklisted_urls: ['https://shop.e2e-site.example'] },
      }),
    });
    expect(saved.status).toBe(200);
    const send = (u: string, v: string): Promise<number> => sendPageView(projectId, u, v);
    const statuses = [
      await send('https://stolen-copy.example/a', 'visitor-off-list'),
      await send('https://shop.e2e-site.example/a', 'visitor-blacklisted'),
      await send('https://www.e2e-site.example/a', 'visitor-on-list'),
      await send('https://e2e-site.example/b', 'visitor-on-list'),
    ];
    // The collector accepts them all: the settings are applied where hits are stored.
    expect(statuses).toEqual([204, 204, 204, 204]);
    const body = { ...periodSince(started), group: 'hour', metrics: ['page_views', 'visits', 'visitors'] };
    const totals = await eventually(() => summaryTotals(apiUrl, projectId, body, cookie), (t) => t[0] === 2);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await summaryTotals(apiUrl, projectId, body, cookie)).toEqual(totals);
    expect(totals).toEqual([2, 1, 1]);
  });

  it('collects nothing for a deleted counter', async () => {
    const started = Date.now();
    const deleted = await createProject(apiUrl);
    const live = await createProject(apiUrl);
    const headers = { 'x-requested-with': 'XMLHttpRequest', cookie: deleted.cookie };
    expect((await fetch(`${apiUrl}/top100/api/v1.0/project/${deleted.projectId}`, { method: 'DELETE', headers })).status).toBe(200);
    expect(await sendPageView(deleted.projectId, 'https://e2e-site.example/while-deleted', 'visitor-of-deleted')).toBe(204);
    // A later hit of a live project: once it is counted, the earlier one has been handled too.
    expect(await sendPageView(live.projectId, 'https://e2e-site.example/live', 'visitor-of-live')).toBe(204);
    const body = { ...periodSince(started), group: 'hour', metrics: ['page_views', 'visits', 'visitors'] };
    expect(await eventually(() => summaryTotals(apiUrl, live.projectId, body, live.cookie), (t) => t[0] === 1)).toEqual([1, 1, 1]);
    expect((await fetch(`${apiUrl}/top100/api/v1.0/project/${deleted.projectId}/restore`, { method: 'POST', headers })).status).toBe(204);
    expect(await summaryTotals(apiUrl, deleted.projectId, body, deleted.cookie)).toEqual([0, 0, 0]);
  });

  it('a blocked collector costs the page no error', async () => {
    const deadPort = await freePort();
    const site = await startTestSite({
      src: `${apiUrl}/counter/counter.js`,
      projectId: 42,
      collector: `http://127.0.0.1:${deadPort}`,
    });
    try {
      const page = await browser().newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${site.url}/page2`);
      await page.waitForFunction(COUNTER_LOADED);
      await page.click('#spa');
      await page.waitForTimeout(500);
      expect(errors).toEqual([]);
      expect(await page.title()).toBe('SPA');
      await page.close();
    } finally {
      await site.close();
    }
  });
});
