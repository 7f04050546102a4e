import { describe, expect, it } from 'vitest';
import { launchChromium } from '../../../server/src/testing/browser.js';
import { DEMO_PROJECT_ID } from '../auth/project-access.js';
import { ApiClient } from '../testing/client.js';
import { clientFromNewAddress, userWithProject } from '../testing/fixtures.js';
import { useTestApi, type TestApi } from '../testing/harness.js';
import { TOO_MANY_REPORTS, WEB_APP_CSP } from './security.js';

/**
 * The page's document, as the scripts this test runs inside Chromium use it: the Node tests are
 * typed without the DOM, which would change `fetch`'s types for every test.
 */
declare const document: {
  addEventListener(type: 'securitypolicyviolation', listener: (event: { violatedDirective: string; blockedURI: string }) => void): void;
  addEventListener(type: 'DOMContentLoaded', listener: () => void): void;
  createElement(tag: 'style'): { textContent: string };
  head: { appendChild(node: unknown): void };
};

// Needs: the build (web/dist) and Debian's chromium. An api of its own, with a report limit
// of 5 calls a minute per address so that the limit is reached in a test.
const REPORTS_PER_MINUTE = 5;
let api: TestApi;

useTestApi({ file: 'headers.test.ts', reportRequestsPerMinute: REPORTS_PER_MINUTE }, (started) => {
  api = started;
});

const REPORT = { date_start: 'today', date_end: 'today', group: 'hour', metrics: ['page_views'] };

describe('report calls per address', () => {
  it(`answers the ${REPORTS_PER_MINUTE + 1}th report call of an address in a minute 429, in the one error shape`, async () => {
    const from = clientFromNewAddress(api);
    for (let i = 0; i < REPORTS_PER_MINUTE; i++) {
      expect((await from.post(`/api/report/v1.0/report/${DEMO_PROJECT_ID}/summary/table`, REPORT)).status).toBe(200);
    }
    const refused = await from.post(`/api/report/v1.0/report/${DEMO_PROJECT_ID}/summary/table`, REPORT);
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ responseStatus: 429, errors: { message: TOO_MANY_REPORTS } });
    // Other report paths of the same address count too; other addresses and other calls do not.
    expect((await from.get('/api/report/v1.0/service/time')).status).toBe(429);
    expect((await from.get('/api/v1.0/category')).status).toBe(200);
    expect((await clientFromNewAddress(api).post(`/api/report/v1.0/report/${DEMO_PROJECT_ID}/summary/table`, REPORT)).status).toBe(200);
  });
});

describe('security headers', () => {
  it('the web app carries its Content-Security-Policy, X-Frame-Options DENY and nosniff', async () => {
    for (const path of ['/stat/projects', '/stat/projects/7596044/new/report/summary', '/']) {
      const page = await fetch(`${api.url}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-security-policy'), path).toBe(WEB_APP_CSP);
      expect(page.headers.get('x-frame-options'), path).toBe('DENY');
      expect(page.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    const asset = await fetch(`${api.url}/counter/counter.js`);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('the widget of a public counter may be embedded and cached; of another project only privately', async () => {
    const { client, projectId } = await userWithProject(api);
    const own = await client.get(`/api/v1.0/project/${projectId}/widget.svg`);
    expect(own.headers.get('cache-control')).toBe('private, max-age=300');
    await client.put(`/api/v1.0/project/${projectId}`, { counter_settings: { counter_type: 1 } });
    const shown = await new ApiClient(api.url).get(`/api/v1.0/project/${projectId}/widget.svg`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('public, max-age=300');
    expect(shown.headers.get('x-frame-options')).toBeNull();
    expect(shown.headers.get('content-security-policy')).toBe("default-src 'none'");
  });

  it('a real fault is a 500 with the request id, in the answer and its X-Request-Id header', async () => {
    // A real fault: a column the call reads is gone for a moment (a missing table is the store
    // not ready, a 503: store-not-ready.test).
    await api.clickhouse.command({ query: 'ALTER TABLE ch_geo RENAME COLUMN name TO name_away' });
    try {
      const answer = await new ApiClient(api.url).get('/api/report/v1.0/ch_geo?geo_ids=1');
      expect(answer.status).toBe(500);
      const id = answer.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.json).toEqual({ responseStatus: 500, errors: { message: 'Oops... Something went terribly wrong.', request_id: id } });
    } finally {
      await api.clickhouse.command({ query: 'ALTER TABLE ch_geo RENAME COLUMN name_away TO name' });
    }
  });

  it('the web app renders in Chromium under its policy with no violation', async () => {
    const { client, projectId } = await userWithProject(api);
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      await context.addCookies(
        [...client.cookies].map(([name, value]) => ({ name, value, url: `${api.url}/top100/` })),
      );
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
        });
      });
      // The projects list, a project's settings and a report page (graph and table).
      await page.goto(`${api.url}/stat/projects`);
      await page.getByText('Тестовый сайт').first().waitFor({ timeout: 30_000 });
      await page.goto(`${api.url}/stat/projects/${projectId}/settings/counter`);
      await page.waitForSelector('input, textarea', { timeout: 30_000 });
      await page.goto(`${api.url}/stat/projects/${DEMO_PROJECT_ID}/new/report/summary?dateStart=30days&dateEnd=today&groupBy=day`);
      await page.waitForSelector('[data-testid="summary-graph"] canvas', { timeout: 30_000 });
      await page.waitForTimeout(500);
      expect(problems).toEqual([]);
      // An ad blocker's styles come from an extension, which the page's policy does not govern
      // (Playwright: bypassCSP); the app's bait element (set through the CSSOM) still sees them.
      const blocker = await browser.newContext({ bypassCSP: true });
      await blocker.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          const style = document.createElement('style');
          style.textContent = '.adsbox { display: none !important; }';
          document.head.appendChild(style);
        });
      });
      const blocked = await blocker.newPage();
      await blocked.goto(`${api.url}/stat/projects/${DEMO_PROJECT_ID}/new/report/summary`);
      await blocked.waitForSelector('[data-testid=adblock-notice]', { timeout: 30_000 });
    } finally {
      await browser.close();
    }
  }, 90_000);
});
