/// <reference path="../../server/src/testing/provided.d.ts" />
/**
 * The summary report in a real browser against a running service: the graph is drawn, and the
 * totals row shows exactly what the table endpoint answers for the same request.
 *
 * Needs: the embedded service of the global setup (its base URL comes by inject) and Debian's
 * chromium; a missing one fails the test.
 */
import { describe, expect, inject, it } from 'vitest';
import { chromiumForTests, paintedPixels } from '../../server/src/testing/browser';
import { addDays } from '@stat/schemas/period';
import { moscowToday } from './lib/dates';
import { openPage } from './testing/browser';

const base = inject('apiUrl').replace(/\/+$/, '');
const PROJECT = '7596044';
const METRICS = ['page_views', 'visits', 'visitors'] as const;

interface Envelope<T> {
  responseStatus: number;
  result: T;
}

async function api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}/top100${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  const envelope = (await response.json()) as Envelope<T>;
  expect(envelope.responseStatus).toBe(200);
  return envelope.result;
}

describe('summary report in a browser', () => {
  const browser = chromiumForTests();

  it('draws the graph and shows the table endpoint\'s totals', async () => {
    const { page, errors: pageErrors } = await openPage(browser(), 1280);
    try {
      const tableRequest = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/report/${PROJECT}/summary/table`));
      await page.goto(`${base}/stat/projects/${PROJECT}/new/report/summary?dateStart=30days&dateEnd=today&groupBy=day`);

      // The body the page sent: the last 30 Moscow days by the server's clock, by day.
      const sent = (await tableRequest).postDataJSON() as Record<string, unknown>;
      const { timestamp } = await api<{ timestamp: number }>('GET', '/api/report/v1.0/service/time');
      const today = moscowToday(timestamp * 1000);
      expect(sent).toMatchObject({ date_start: addDays(today, -29), date_end: today, group: 'day', metrics: [...METRICS] });

      await page.waitForSelector('[data-testid="summary-graph"] canvas', { timeout: 30_000 });
      await page.waitForSelector('[data-testid="summary-totals"] [data-metric="visitors"][data-value]', { timeout: 30_000 });

      expect(await paintedPixels(page, 'summary-graph')).toBeGreaterThan(1000);

      const shown = await page.$$eval('[data-testid="summary-totals"] [data-metric]', (cells) =>
        Object.fromEntries(cells.map((c) => [c.getAttribute('data-metric'), Number(c.getAttribute('data-value'))])),
      );
      const direct = await api<{ metrics: string[]; totals: number[] }>('POST', `/api/report/v1.0/report/${PROJECT}/summary/table`, sent);
      const expected = Object.fromEntries(direct.metrics.map((m, i) => [m, direct.totals[i]]));
      expect(shown).toEqual(expected);
      expect(Object.keys(shown).sort()).toEqual([...METRICS].sort());
      expect(shown.page_views).toBeGreaterThan(0);

      const rows = await page.$$('[data-testid="summary-table"] tbody tr');
      expect(rows).toHaveLength(30);
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);
});
