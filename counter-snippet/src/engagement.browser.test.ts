import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumForTests } from '../../server/src/testing/browser.js';
import { hitsOf, openFixture, setVisible, type OpenedPage } from '../test/harness.js';

// Needs: the built counter served by the test service (global setup) and Debian's chromium.
// The page's clock is Playwright's fake clock, paused: engaged time is exactly the time the test
// moves it on, however slow the machine.
const browser = chromiumForTests();
let opened: OpenedPage | null = null;
afterEach(async () => {
  await opened?.close();
  opened = null;
});

const START = new Date('2026-03-02T09:00:00Z').getTime();
// The clock starts a minute before START and runs on until pauseAt: pausing at the very time it was
// installed at fails ("Cannot fast-forward to the past") when the page's clock has moved a little.
const pausedClock = async (page: Page): Promise<void> => {
  await page.clock.install({ time: START - 60_000 });
  await page.clock.pauseAt(START);
};
const isEngagement = (hit: Record<string, unknown>): boolean => hit.t === 'engagement';

describe('engaged time', () => {
  it('sends the visible time when the page is hidden, and counts none of the time it stays hidden', async () => {
    opened = await openFixture(browser(), 'pageviews.html', { before: pausedClock });
    const page = opened.page;
    await hitsOf(opened.recorder, 1);
    await page.clock.fastForward(5_000);
    await setVisible(page, false);
    await hitsOf(opened.recorder, 1, isEngagement);
    // A minute hidden: no timer runs, nothing grows.
    await page.clock.fastForward(60_000);
    await setVisible(page, true);
    await page.clock.fastForward(2_000);
    await setVisible(page, false);
    const engagements = await hitsOf(opened.recorder, 2, isEngagement);
    expect(engagements).toEqual([
      { p: 1, t: 'engagement', u: `${opened.site}/pageviews.html`, v: await opened.visitor(), d: 5_000 },
      { p: 1, t: 'engagement', u: `${opened.site}/pageviews.html`, v: await opened.visitor(), d: 2_000 },
    ]);
  });

  it('sends nothing when hidden again with no visible time in between', async () => {
    opened = await openFixture(browser(), 'pageviews.html', { before: pausedClock });
    await opened.page.clock.fastForward(1_000);
    await setVisible(opened.page, false);
    await hitsOf(opened.recorder, 1, isEngagement);
    await setVisible(opened.page, false);
    await opened.page.evaluate(() => window.stat!('event', 'barrier'));
    await hitsOf(opened.recorder, 1, (hit) => hit.en === 'barrier');
    expect(opened.recorder.hits.filter(isEngagement).map((hit) => hit.d)).toEqual([1_000]);
  });

  it('sends the engaged time when the page is left for another', async () => {
    opened = await openFixture(browser(), 'pageviews.html', { before: pausedClock });
    await hitsOf(opened.recorder, 1);
    await opened.page.clock.fastForward(3_000);
    await Promise.all([opened.page.waitForURL('**/pageviews.html?second'), opened.page.click('#internal')]);
    const [engagement] = await hitsOf(opened.recorder, 1, isEngagement);
    expect(engagement).toEqual({ p: 1, t: 'engagement', u: `${opened.site}/pageviews.html`, v: await opened.visitor(), d: 3_000 });
    await hitsOf(opened.recorder, 2, (hit) => hit.t === 'pageview');
  });

  it('closes the previous page view’s engaged time on an SPA navigation, then counts for the next', async () => {
    opened = await openFixture(browser(), 'pageviews.html', { before: pausedClock });
    await hitsOf(opened.recorder, 1);
    await opened.page.clock.fastForward(4_000);
    await opened.page.click('#spa');
    // The counter reads the new page a tick after pushState.
    await opened.page.clock.runFor(0);
    await hitsOf(opened.recorder, 2, (hit) => hit.t === 'pageview');
    await opened.page.clock.fastForward(1_500);
    await setVisible(opened.page, false);
    const engagements = await hitsOf(opened.recorder, 2, isEngagement);
    expect(engagements.map((hit) => [hit.u, hit.d])).toEqual([
      [`${opened.site}/pageviews.html`, 4_000],
      [`${opened.site}/spa/next`, 1_500],
    ]);
  });
});
