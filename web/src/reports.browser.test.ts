/// <reference path="../../server/src/testing/provided.d.ts" />
/**
 * The dimension reports in a real browser against the running service: opened from the menu on
 * the demo project, each draws its graph and shows the totals the table endpoint answers for the
 * same request; a tree row expands and a row becomes a line; a report whose data is not
 * collected shows its placeholder.
 *
 * Needs: the embedded service of the global setup (its base URL comes by inject) and Debian's
 * chromium; a missing one fails the test.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { chromiumForTests, paintedPixels } from '../../server/src/testing/browser';
import { openPage, postApi } from './testing/browser';

const base = inject('apiUrl').replace(/\/+$/, '');
const PROJECT = '7596044';

const api = <T>(path: string, body: unknown): Promise<T> => postApi<T>(base, path, body);

const isTopTable = (name: string) => (r: Request) =>
  r.method() === 'POST' && r.url().endsWith(`/report/${PROJECT}/${name}/table`) && !(r.postDataJSON() as { parents?: unknown }).parents;

/** Opens a report from the menu; resolves with the body of its first table request. */
async function openFromMenu(page: Page, name: string): Promise<Record<string, unknown>> {
  const request = page.waitForRequest(isTopTable(name));
  await page.click(`[data-testid="report-menu"] a[href*="/new/report/${name}?"]`);
  return (await request).postDataJSON() as Record<string, unknown>;
}

/** The totals row as shown: metric → raw value. */
function shownTotals(page: Page): Promise<Record<string, number>> {
  return page.$$eval('[data-testid="report-totals"] [data-metric]', (cells) =>
    Object.fromEntries(cells.map((c) => [c.getAttribute('data-metric') ?? '', Number(c.getAttribute('data-value'))])),
  );
}

async function expectApiTotals(page: Page, name: string, sent: Record<string, unknown>): Promise<void> {
  await page.waitForSelector('[data-testid="report-totals"] [data-metric][data-value]', { timeout: 30_000 });
  const direct = await api<{ metrics: string[]; totals: number[] }>(`/api/report/v1.0/report/${PROJECT}/${name}/table`, sent);
  expect(await shownTotals(page)).toEqual(Object.fromEntries(direct.metrics.map((m, i) => [m, direct.totals[i]])));
}

describe('dimension reports in a browser', () => {
  const browser = chromiumForTests();

  it('opens reports of every kind from the menu: graph, totals, tree, lines, placeholder', async () => {
    const { page, errors: pageErrors } = await openPage(browser(), 1440);
    try {
      await page.goto(`${base}/stat/projects/${PROJECT}/new/report/summary?dateStart=7days&dateEnd=today&groupBy=day`);
      await page.waitForSelector('[data-testid="report-menu"]');

      // traffic_sources asks for the default 10 %, but its day rollup answers it whole: «Точность:»
      // says 100 % and why (the answer's reason: the report is exact, not the period small), and
      // offers no choice that would change nothing.
      const sent = await openFromMenu(page, 'traffic_sources');
      expect(sent).toMatchObject({ group: 'day', sample: 0.1, limit: 10, offset: 0 });
      await expect.poll(() => page.isDisabled('[data-testid="sample-value"]')).toBe(true);
      expect([await page.textContent('[data-testid="sample-value"]'), await page.getAttribute('[data-testid="sample-value"]', 'title')]).toEqual([
        '100%',
        'Отчёт точный: он строится по готовым итогам, выборка не нужна',
      ]);
      await expectApiTotals(page, 'traffic_sources', sent);
      expect(await paintedPixels(page, 'report-graph')).toBeGreaterThan(1000);

      // Expand the first row: its children come under it, one level deeper.
      const first = page.locator('[data-testid="report-row"][data-level="0"]').first();
      const firstId = await first.getAttribute('data-row-id');
      const childRequest = page.waitForRequest((r) => r.url().endsWith('/traffic_sources/table') && Boolean((r.postDataJSON() as { parents?: unknown }).parents));
      await first.locator('[data-testid="row-expand"]').click();
      expect((await childRequest).postDataJSON()).toMatchObject({ parents: JSON.parse(firstId ?? '[]') });
      await page.waitForSelector('[data-testid="report-row"][data-level="1"]');
      const childParent = await page.$eval('[data-testid="report-row"][data-level="1"]', (r) => r.getAttribute('data-row-id'));
      expect(JSON.parse(childParent ?? '[]').slice(0, -1)).toEqual(JSON.parse(firstId ?? '[]'));

      // Select the child as a line: the graph asks for it.
      const graphRequest = page.waitForRequest((r) => r.url().endsWith('/traffic_sources/graph') && Array.isArray((r.postDataJSON() as { selected_lines?: unknown }).selected_lines));
      await page.locator('[data-testid="report-row"][data-level="1"] [data-testid="line-toggle"]').first().check();
      const lines = (await graphRequest).postDataJSON() as { selected_lines: string[] };
      expect(lines.selected_lines).toContain(childParent);
      await page.waitForSelector(`[data-testid="report-graph"] ~ ul [data-line='${childParent?.replace(/'/g, "\\'")}']`);

      for (const name of ['geo', 'page_urls', 'usability', 'entrance_pages']) {
        const body = await openFromMenu(page, name);
        expect(body).toMatchObject({ sample: 0.1, group: 'day' });
        await expectApiTotals(page, name, body);
        expect(await paintedPixels(page, 'report-graph')).toBeGreaterThan(500);
        if (name === 'page_urls') {
          // The legend shortens the addresses as the table does; the full address in the tooltip.
          const legend = page.locator('[data-testid="report-graph"] ~ ul [data-line]');
          await legend.first().waitFor();
          const shown = (await legend.evaluateAll((items) => items.map((li) => [li.querySelector('[data-testid="address-text"]')?.textContent ?? '', li.getAttribute('title') ?? ''])))
            .filter(([, title]) => /^https?:/.test(title ?? ''));
          expect(shown.length).toBeGreaterThan(1);
          for (const [text, title] of shown) {
            expect(text).toMatch(/^\//);
            expect(title?.replace(/^https?:\/\/[^/]+/, '')).toBe(text);
          }
        }
        const rows = await page.$$('[data-testid="report-row"]');
        expect(rows.length).toBeGreaterThan(0);
        const box = page.locator('[data-testid="report-row"] [data-testid="line-toggle"]');
        // Uncheck the first default line and check it again: the graph follows.
        const toggled = page.waitForRequest((r) => r.url().endsWith(`/${name}/graph`) && Array.isArray((r.postDataJSON() as { selected_lines?: unknown }).selected_lines));
        await box.first().click();
        await toggled;
      }

      // sex is not collected: the placeholder instead of graph and table.
      await page.click(`[data-testid="report-menu"] a[href*="/new/report/sex?"]`);
      await page.waitForSelector('[data-testid="report-placeholder"]');
      expect(await page.textContent('[data-testid="report-placeholder"]')).toContain('Подробнее');
      expect(await page.$('[data-testid="report-table"]')).toBeNull();

      // The default accuracy, 10 %, read from the events with SAMPLE (page titles: no day rollup
      // holds them): the same totals as the api's.
      const sampled = page.waitForRequest(isTopTable('page_titles'));
      await page.goto(`${base}/stat/projects/${PROJECT}/new/report/page_titles?dateStart=7days&dateEnd=yesterday&groupBy=day`);
      const sampledBody = (await sampled).postDataJSON() as Record<string, unknown>;
      expect(sampledBody).toMatchObject({ sample: 0.1 });
      await expectApiTotals(page, 'page_titles', sampledBody);
      await expect.poll(() => page.getAttribute('[data-testid="sample-value"]', 'data-sample')).toBe('0.1');

      // The accuracy slider applies on close: 100 % goes to the request and the URL.
      await page.click('[data-testid="sample-value"]');
      const resent = page.waitForRequest(isTopTable('page_titles'));
      await page.fill('[data-testid="sample-slider"]', '2');
      await page.keyboard.press('Escape');
      expect((await resent).postDataJSON()).toMatchObject({ sample: 1 });
      expect(new URL(page.url()).searchParams.get('sample')).toBe('1');
      await expect.poll(() => page.getAttribute('[data-testid="sample-value"]', 'data-sample')).toBe('1');

      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 180_000);

  it('chapters: the URL tree expands a section into subsections and a subsection into its pages; a page does not expand', async () => {
    const { page, errors: pageErrors } = await openPage(browser(), 1440);
    try {
      const top = page.waitForRequest(isTopTable('chapters'));
      // By title, descending: /tags/ comes among the first rows, after the sections named past it.
      await page.goto(`${base}/stat/projects/${PROJECT}/new/report/chapters?dateStart=7days&dateEnd=yesterday&groupBy=day&orderBy=title:desc`);
      await expectApiTotals(page, 'chapters', (await top).postDataJSON() as Record<string, unknown>);
      expect(await page.textContent('[data-testid="report-table"] thead th')).toContain('Раздел сайта / страница');
      // A page of the first level (/subscribe) has no arrow. The tags (/tags/<tag>/) are a section of sections.
      await page.waitForSelector('[data-testid="report-row"][data-row-id=\'["/subscribe"]\']');
      expect(await page.$('[data-testid="report-row"][data-row-id=\'["/subscribe"]\'] [data-testid="row-expand"]')).toBeNull();
      await page.click('[data-testid="report-row"][data-row-id=\'["/tags/"]\'] [data-testid="row-expand"]');
      await page.waitForSelector('[data-testid="report-row"][data-level="1"]');
      const tags = await page.$$eval('[data-testid="report-row"][data-level="1"]', (rows) => rows.map((r) => JSON.parse(r.getAttribute('data-row-id') ?? '[]') as string[]));
      expect(tags.length).toBeGreaterThan(1);
      for (const [section, tag] of tags) {
        expect(section).toBe('/tags/');
        expect(tag).toMatch(/^\/tags\/[^/]+\/$/);
      }
      const tag = tags[0]![1]!;
      await page.click(`[data-testid="report-row"][data-row-id='${JSON.stringify(['/tags/', tag])}'] [data-testid="row-expand"]`);
      // The tag's own page, one level deeper: a leaf, titled by its address.
      const leaf = `[data-testid="report-row"][data-level="2"][data-row-id='${JSON.stringify(['/tags/', tag, tag])}']`;
      await page.waitForSelector(leaf);
      expect(await page.$(`${leaf} [data-testid="row-expand"]`)).toBeNull();
      expect(await page.textContent(`${leaf} th`)).toContain(tag);
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('hints: the demo message, a report hint with «Узнать подробнее», closed for one report or all, and meta tips for the first views', async () => {
    // A fresh context: nothing closed yet in this browser.
    const context = await browser().newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const report = (name: string) => `${base}/stat/projects/${PROJECT}/new/report/${name}?dateStart=7days&dateEnd=yesterday&groupBy=day`;
    try {
      await page.goto(report('traffic_sources'));
      await page.waitForSelector('[data-testid="report-hint"]');
      expect(await page.textContent('[data-testid="demo-hint"]')).toContain('Это демонстрационный сайт');
      expect(await page.getAttribute('[data-testid="meta-tip"]', 'data-tip')).toBe('reportFilter');

      // «Узнать подробнее»: what each metric of the report counts.
      await page.click('[data-testid="hint-more"]');
      const details = (await page.textContent('[data-testid="hint-details"]')) ?? '';
      for (const title of ['Визиты', 'Посетители', 'Отказы', 'Время на сайте']) expect(details).toContain(title);
      expect(details).toContain('30 минут');
      await page.keyboard.press('Escape');

      // «Закрыть»: this report's hint stays closed after a reload; «?» brings it back.
      await page.click('[data-testid="hint-close"]');
      await page.waitForSelector('[data-testid="hint-reopen"]');
      await page.reload();
      await page.waitForSelector('[data-testid="hint-reopen"]');
      expect(await page.locator('[data-testid="report-hint"]').count()).toBe(0);
      await page.goto(report('geo'));
      await page.waitForSelector('[data-testid="report-hint"]');
      // «Закрыть все подсказки»: no hint and no tip on any report; the demo's message stays.
      await page.click('[data-testid="hint-close-all"]');
      await page.getByRole('status').filter({ hasText: 'Подсказки скрыты' }).first().waitFor();
      await page.goto(report('page_urls'));
      await page.waitForSelector('[data-testid="hint-reopen"]');
      expect(await page.locator('[data-testid="report-hint"], [data-testid="meta-tip"]').count()).toBe(0);
      expect(await page.locator('[data-testid="demo-hint"]').count()).toBe(1);

      // The meta tips show on the first three report views only (a new browser: four views here).
      const other = await browser().newContext({ viewport: { width: 1440, height: 900 } });
      const fresh = await other.newPage();
      const tips: (string | null)[] = [];
      for (const name of ['traffic_sources', 'geo', 'page_urls', 'traffic_sources']) {
        await fresh.goto(report(name));
        await fresh.waitForSelector('[data-testid="report-hint"]');
        const tip = fresh.locator('[data-testid="meta-tip"]');
        tips.push((await tip.count()) > 0 ? await tip.getAttribute('data-tip') : null);
        if (tips.length === 1) {
          await fresh.click('[data-testid="tip-close"]');
          await fresh.waitForSelector('[data-testid="meta-tip"][data-tip="reportGraph"]');
        }
      }
      await other.close();
      // The first view's tip closed («Понятно»), the next one is offered; none from the fourth view.
      expect(tips).toEqual(['reportFilter', 'reportGraph', 'reportGraph', null]);

      // A placeholder has no table or graph to give tips on: «Пол», whose data the counter does not collect.
      const third = await browser().newContext({ viewport: { width: 1440, height: 900 } });
      const sex = await third.newPage();
      await sex.goto(report('sex'));
      await sex.waitForSelector('[data-testid="report-placeholder"]');
      await sex.waitForSelector('[data-testid="report-hint"]');
      expect(await sex.locator('[data-testid="meta-tip"]').count()).toBe(0);
      // The demo has a rating (spec 000 §4: "the demo project is always allowed"): its rating page
      // ranks it among its theme's rated sites, no «Сайт не участвует в рейтинге».
      await sex.goto(report('rating'));
      await sex.waitForSelector('[data-testid="report-row"]');
      expect(await sex.locator('[data-testid="report-placeholder"]').count()).toBe(0);
      expect(await sex.locator('[data-testid="report-row"]').allTextContents()).toContainEqual(expect.stringContaining('Демо-сайт'));
      await third.close();
    } finally {
      await context.close();
    }
  }, 180_000);

  it('hints a logged-in user closed stay closed in another browser the user logs in with', async () => {
    const email = `hints-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}@example.com`;
    const password = 'browser test password';
    const report = (name: string) => `${base}/stat/projects/${PROJECT}/new/report/${name}?dateStart=7days&dateEnd=yesterday&groupBy=day`;
    const loggedIn = async (register: boolean) => {
      const context = await browser().newContext({ viewport: { width: 1440, height: 900 } });
      const answer = await context.request.post(`${base}/top100/api/v1.0/auth/${register ? 'register' : 'login'}`, {
        headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        data: JSON.stringify({ email, password }),
      });
      expect(answer.status()).toBe(200);
      return context;
    };
    const first = await loggedIn(true);
    const second = await loggedIn(false);
    try {
      const page = await first.newPage();
      await page.goto(report('geo'));
      await page.waitForSelector('[data-testid="report-hint"]');
      expect(await page.getAttribute('[data-testid="meta-tip"]', 'data-tip')).toBe('reportFilter');
      const saved = page.waitForResponse((r) => r.url().endsWith('/api/v1.0/user/current/hints') && r.request().method() === 'PUT' && r.request().postData()?.includes('"geo"') === true);
      await page.click('[data-testid="hint-close"]');
      expect((await saved).status()).toBe(200);
      const tipSaved = page.waitForResponse((r) => r.url().endsWith('/api/v1.0/user/current/hints') && r.request().postData()?.includes('reportFilter') === true);
      await page.click('[data-testid="tip-close"]');
      expect((await tipSaved).status()).toBe(200);

      // Another browser, nothing in its storage: the server's state. Its session is answered
      // only once the demo's report has shown: until then no hint shows (not even for a moment:
      // every change of the page is watched) and no view is counted for this browser's visitor.
      const there = await second.newPage();
      let answerSession = () => undefined as void;
      const sessionHeld = new Promise<void>((resolve) => (answerSession = resolve));
      await there.route('**/api/v1.0/user/current', async (route) => {
        await sessionHeld;
        await route.continue();
      });
      await there.addInitScript(() => {
        new MutationObserver(() => {
          if (document.querySelector('[data-testid="report-hint"]')) (window as unknown as { hintSeen?: boolean }).hintSeen = true;
        }).observe(document, { childList: true, subtree: true });
      });
      await there.goto(report('geo'));
      await there.waitForSelector('[data-testid="demo-hint"]');
      await there.waitForSelector('[data-testid="report-totals"] [data-metric][data-value]', { timeout: 30_000 });
      expect(await there.locator('[data-testid="report-hint"], [data-testid="meta-tip"], [data-testid="hint-reopen"]').count()).toBe(0);
      answerSession();
      await there.waitForSelector('[data-testid="hint-reopen"]');
      expect(await there.locator('[data-testid="report-hint"]').count()).toBe(0);
      expect(await there.evaluate(() => (window as unknown as { hintSeen?: boolean }).hintSeen ?? false)).toBe(false);
      // The tip closed in the first browser is not offered again; the next one is.
      expect(await there.getAttribute('[data-testid="meta-tip"]', 'data-tip')).toBe('reportGraph');
      await there.goto(report('traffic_sources'));
      await there.waitForSelector('[data-testid="report-hint"]');
      expect(await there.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('reportHints')))).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
  }, 180_000);
});
