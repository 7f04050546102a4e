import { afterEach, describe, expect, inject, it } from 'vitest';
import { HIT_TYPES } from '@stat/schemas';
import { chromiumForTests } from '../../server/src/testing/browser.js';
import { eventually } from '../../server/src/testing/api-client.js';
import { openFixture, setVisible, stat, type OpenedPage } from '../test/harness.js';

// Needs: the embedded service of the global setup (its real collector) and Debian's chromium.
const collectorUrl = inject('collectorUrl');

const browser = chromiumForTests();
let opened: OpenedPage | null = null;
afterEach(async () => {
  await opened?.close();
  opened = null;
});

describe('the counter against the real collector', () => {
  it('has every hit type it sends accepted (204), with the article page\'s material', async () => {
    const project = 600_000_000 + Math.floor(Math.random() * 1_000_000);
    const answers: { t: string; mt: string | undefined; status: number }[] = [];
    opened = await openFixture(browser(), 'all.html', {
      build: 'counter-full',
      project,
      collector: collectorUrl,
      attributes: { 'data-user-id': 'on' },
      before: async (page) => {
        page.context().on('requestfinished', (request) => {
          if (!request.url().startsWith(`${collectorUrl}/hit`)) return;
          void request.response().then((response) => {
            const sent = JSON.parse(request.postData() ?? '{}') as { t: string; mt?: string };
            answers.push({ t: sent.t, mt: sent.mt, status: response?.status() ?? 0 });
          });
        });
      },
    });
    const page = opened.page;
    await stat(page, 'uid', 'user-42');
    await stat(page, 'event', 'purchase', { sku: 'A-1', price: 990 }, 'ec');
    await page.click('#menu');
    await page.evaluate(() => window.scrollTo(0, 600));
    await setVisible(page, false);
    await setVisible(page, true);
    // A middle click: the link opens in a new tab and this page stays, so its beacon's answer is seen.
    const [tab] = await Promise.all([opened.context.waitForEvent('page'), page.click('#outbound', { button: 'middle' })]);
    await tab.close();

    const types = await eventually(
      async () => new Set(answers.map((answer) => answer.t)),
      (seen) => seen.size === HIT_TYPES.length,
      30_000,
    );
    expect([...types].sort()).toEqual([...HIT_TYPES].sort());
    expect(answers.filter((answer) => answer.status !== 204)).toEqual([]);
    // Every hit of the article page carried its material, and the collector took it.
    expect(answers.filter((answer) => answer.mt !== 'Всё сразу: материал с автором')).toEqual([]);
    expect(opened.problems).toEqual([]);
  });
});
