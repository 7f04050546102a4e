/// <reference path="../../server/src/testing/provided.d.ts" />
/**
 * The live dashboard in a real browser against the running service: every widget of the demo
 * project; a hit sent to the collector reaching «unique visitors now» and the page-views graph
 * at the next auto-update, without a reload; no auto-update in a hidden tab.
 *
 * Needs: the embedded service of the global setup (DEMO_LIVE off, so the demo's counts move only
 * by this test's hits) and Debian's chromium. The page's clock is Playwright's, so the 30 s of the
 * auto-update pass at once.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumForTests, VISITOR_USER_AGENT } from '../../server/src/testing/browser';
import { formatNumber } from './lib/format';

const base = inject('apiUrl').replace(/\/+$/, '');
const collector = inject('collectorUrl').replace(/\/+$/, '');
const PROJECT = 7596044;
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
/** Screenshots to look at, outside the repository. */
const SHOTS = join(tmpdir(), 'stat-dashboard-screenshots');

/** Sends a hit as the counter does; the collector answers 204. */
async function sendHit(hit: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${collector}/hit`, { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': VISITOR_USER_AGENT }, body: JSON.stringify({ p: PROJECT, ...hit }) });
  expect(response.status).toBe(204);
}

/** The realtime call as the api answers it now (the page's numbers are checked against it). */
/** A section of the realtime answer, as far as these tests read it. */
interface RealtimeSection {
  value?: number;
  data?: unknown;
}

async function realtime(sections: string[]): Promise<Record<string, RealtimeSection>> {
  const response = await fetch(`${base}/top100/api/report/v1.0/eventbase/${PROJECT}/realtime`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ date_start: 'today', date_end: 'today', group: 'minute', period: 30, sections }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: Record<string, RealtimeSection> }).result;
}

/** Waits until the api counts what was sent (stored within a second: benchmarks/RESULTS.md). */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
}

const hide = (page: Page, hidden: boolean) =>
  page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', { value: h ? 'hidden' : 'visible', configurable: true });
    Object.defineProperty(document, 'hidden', { value: h, configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);

const isRealtime = (url: string) => url.endsWith(`/eventbase/${PROJECT}/realtime`);

describe('the live dashboard in a browser', () => {
  const browser = chromiumForTests();
  let page: Page;
  const pageErrors: string[] = [];
  const realtimeRequests: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // A visit of this run, so that every widget has a row of it: a page from a VK campaign, an event.
    const visitor = `dash${RUN}`;
    await sendHit({ t: 'pageview', u: `https://demo.stat.example/live/${RUN}?utm_source=dash${RUN}&utm_medium=social`, r: 'https://vk.com/', v: visitor, ti: 'Живая страница' });
    await sendHit({ t: 'event', u: `https://demo.stat.example/live/${RUN}`, v: visitor, ec: 'cv', en: `dash_event_${RUN}` });
    await until(async () => ((await realtime(['utms'])).utms!.data as { title: string }[]).some((r) => r.title === `dash${RUN}`));
    page = await browser().newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('request', (r) => {
      if (r.method() === 'POST' && isRealtime(r.url())) realtimeRequests.push(r.postData() ?? '');
    });
    await page.clock.install();
    await page.goto(`${base}/stat/projects/${PROJECT}/dashboard`);
    await page.waitForSelector('[data-testid=utms-table]');
  }, 120_000);

  it('shows every widget of the demo project, with this run’s visit in them', async () => {
    const titles = await page.locator('[data-testid^=widget-] h2').allInnerTexts();
    expect(titles).toEqual([
      'Уникальные посетители сейчас',
      'Просмотры страниц',
      'Источники трафика',
      'Популярные страницы',
      'Аудитория',
      'Платформы',
      'События',
      'Популярные UTM-метки',
    ]);
    // A popular page reads without the scheme and host when every row shares them (other tests of
    // the run may have sent the demo project pages of other hosts); the full address is its link.
    const full = `https://demo.stat.example/live/${RUN}`;
    const live = page.locator(`[data-testid=widget-active_pages] a[href="${full}"]`);
    await live.waitFor();
    // (and there are two rows or more: a lone row keeps its whole address).
    const addresses = await page.locator('[data-testid=widget-active_pages] [data-testid=row-address]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    const shared = addresses.length >= 2 && new Set(addresses.map((href) => new URL(href).origin)).size === 1;
    expect(await live.textContent()).toBe(shared ? `/live/${RUN}` : full);
    await page.locator('[data-testid=widget-utms]').getByText(`dash${RUN}`, { exact: true }).waitFor();
    await page.locator('[data-testid=widget-events]').getByText(`dash_event_${RUN}`, { exact: true }).waitFor();
    const audience = await page.locator('[data-testid=widget-audience] li').allInnerTexts();
    expect(audience.map((t) => t.split('\n')[0])).toEqual(['Визиты', 'Мужчины', 'Женщины', 'Не определено']);
    expect(await page.locator('[data-testid=traffic-group] option').allInnerTexts()).toEqual([
      'Все источники',
      'Рекламные системы',
      'Рекомендательные системы',
      'Социальные сети',
      'Обменные сети',
      'Поисковые системы',
      'Сайты',
      'Мессенджеры',
    ]);
    // The titles lead to the full reports of the same period.
    expect(await page.locator('[data-testid=widget-active_pages] h2 a').getAttribute('href')).toBe(
      `/stat/projects/${PROJECT}/new/report/page_urls?dateStart=today&dateEnd=today&groupBy=five_minute`,
    );
    const api = await realtime(['current_user_count']);
    expect(Number(await page.locator('[data-testid=current-users]').getAttribute('data-value'))).toBe(api.current_user_count!.value);
    await page.screenshot({ path: join(SHOTS, 'dashboard.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('lays «Источники трафика» out at 1440 px: the title and «В конструкторе» on one line, the group, the view and the chart type on one line under them', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    try {
      const lines = await page.locator('[data-testid=widget-traffic_sources]').evaluate((card) => {
        const box = (e: Element | null) => e?.getBoundingClientRect() ?? null;
        // Two boxes are on one line when their heights overlap.
        const oneLine = (boxes: (DOMRect | null)[]) => boxes.every((b) => b !== null && boxes.every((o) => o !== null && b.top < o.bottom && o.top < b.bottom));
        const controls = card.querySelector('[data-testid=widget-traffic_sources-controls]');
        return {
          title: oneLine([box(card.querySelector('h2')), box(card.querySelector('a[title="Открыть в конструкторе отчётов"]'))]),
          controls: controls ? [...controls.children].length === 3 && oneLine([...controls.children].map(box)) : false,
          group: card.querySelector('[data-testid=traffic-group]')?.parentElement === controls,
        };
      });
      expect(lines).toEqual({ title: true, controls: true, group: true });
      await page.locator('[data-testid=widget-traffic_sources]').screenshot({ path: join(SHOTS, 'traffic-sources-1440.png') });
    } finally {
      await page.setViewportSize({ width: 1400, height: 1000 });
    }
  });

  it('counts a hit sent to the collector in «unique visitors now» and the page views at the next auto-update, without a reload', async () => {
    const users = Number(await page.locator('[data-testid=current-users]').getAttribute('data-value'));
    const views = Number(await page.locator('[data-testid=page-views-total]').getAttribute('data-value'));
    await sendHit({ t: 'pageview', u: `https://demo.stat.example/live/${RUN}/second`, v: `dash2${RUN}`, ti: 'Вторая' });
    await until(async () => (await realtime(['current_user_count'])).current_user_count!.value === users + 1);
    const asked = realtimeRequests.length;
    expect(await page.locator('[data-testid=auto-update-progress]').getAttribute('data-state')).toBe('running');
    await page.clock.fastForward(31_000);
    // At least this hit more: other test files of the run may send the demo project hits meanwhile.
    const grown = (testId: string, from: number) =>
      page.waitForFunction(([id, n]) => Number(document.querySelector(`[data-testid=${id}]`)?.getAttribute('data-value') ?? -1) >= n, [testId, from + 1] as const, { timeout: 30_000 });
    await grown('current-users', users);
    expect(realtimeRequests.length).toBeGreaterThan(asked);
    await grown('page-views-total', views);
    const nowUsers = Number(await page.locator('[data-testid=current-users]').getAttribute('data-value'));
    const nowViews = Number(await page.locator('[data-testid=page-views-total]').getAttribute('data-value'));
    // The counts step up to their new values.
    await page.clock.fastForward(2_000);
    await page.locator('[data-testid=current-users]', { hasText: new RegExp(`^${formatNumber(nowUsers)}$`) }).waitFor();
    await page.locator('[data-testid=page-views-total]', { hasText: new RegExp(`^${formatNumber(nowViews)}$`) }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'dashboard-after-hit.png'), fullPage: true });
  });

  it('stops the auto-update in a hidden tab and goes on when it is shown again', async () => {
    await hide(page, true);
    await page.locator('[data-testid=auto-update-progress][data-state=stopped]').waitFor();
    const asked = realtimeRequests.length;
    await page.clock.fastForward(65_000);
    await page.clock.fastForward(65_000);
    // Two intervals passed: the bar stands at 0 and nothing was asked.
    expect(await page.locator('[data-testid=auto-update-progress]').getAttribute('data-state')).toBe('stopped');
    expect(await page.locator('[data-testid=auto-update-progress]').getAttribute('aria-valuenow')).toBe('0');
    expect(realtimeRequests.length).toBe(asked);
    await hide(page, false);
    await page.locator('[data-testid=auto-update-progress][data-state=running]').waitFor();
    // The interval starts in an effect that runs after the next frame (Preact), which this clock
    // holds like any timer, and on a loaded machine after more than one: the clock moves on by an
    // interval at a time until the update is asked (a first move may come before the interval exists).
    await expect
      .poll(
        async () => {
          await page.clock.fastForward(31_000);
          return realtimeRequests.length;
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBeGreaterThan(asked);
    expect(pageErrors).toEqual([]);
  });
});
