import { afterEach, describe, expect, it } from 'vitest';
import { chromiumForTests } from '../../server/src/testing/browser.js';
import { hitsOf, openFixture, sorted, stat, type OpenedPage } from '../test/harness.js';

// Needs: the built counter served by the test service (global setup) and Debian's chromium.
const browser = chromiumForTests();
let opened: OpenedPage | null = null;
afterEach(async () => {
  await opened?.close();
  opened = null;
});

const notEngagement = (hit: Record<string, unknown>): boolean => hit.t !== 'engagement';

describe('custom events and the user id', () => {
  it('runs commands queued before the counter loaded: the user id first, then the page view, then the events', async () => {
    opened = await openFixture(browser(), 'queue.html', {
      attributes: { 'data-user-id': 'on' },
      // Records the order in which the counter hands hits to the browser; beacons may arrive in another.
      before: (page) =>
        page.addInitScript(() => {
          const beacon = navigator.sendBeacon.bind(navigator);
          const order: string[] = [];
          Object.assign(window, { order });
          navigator.sendBeacon = (url, body) => (order.push(JSON.parse(String(body)).t as string), beacon(url, body));
        }),
    });
    const v = await opened.visitor();
    const u = `${opened.site}/queue.html`;
    const hits = await hitsOf(opened.recorder, 3);
    expect(sorted(hits)).toEqual(
      sorted([
        { p: 1, t: 'pageview', u, r: '', ti: 'Очередь', sw: 1280, sh: 720, v, uid: 'user-42' },
        // Only string and finite number parameters are kept.
        { p: 1, t: 'event', u, v, uid: 'user-42', ec: 'cv', en: 'early', ep: { plan: 'pro', seats: 3 } },
        { p: 1, t: 'event', u, v, uid: 'user-42', ec: 'ec', en: 'cart', ep: { sku: 'A-1' } },
      ]),
    );
    expect(await opened.page.evaluate(() => (window as unknown as { order: string[] }).order)).toEqual(['pageview', 'event', 'event']);
    expect(opened.problems).toEqual([]);
  });

  it('sends an event at once when stat() is called after the counter loaded, and through _statq.push as well', async () => {
    opened = await openFixture(browser(), 'pageviews.html');
    await hitsOf(opened.recorder, 1);
    await stat(opened.page, 'event', 'signup', { plan: 'pro', seats: 3 }, 'ec');
    await opened.page.evaluate(() => (window._statq as { push(command: unknown[]): void }).push(['event', 'later']));
    const events = await hitsOf(opened.recorder, 2, (hit) => hit.t === 'event');
    const base = { p: 1, t: 'event', u: `${opened.site}/pageviews.html`, v: await opened.visitor() };
    expect(sorted(events)).toEqual(
      sorted([
        { ...base, ec: 'ec', en: 'signup', ep: { plan: 'pro', seats: 3 } },
        { ...base, ec: 'cv', en: 'later' },
      ]),
    );
  });

  it('carries the user id on every hit after stat("uid", id) with data-user-id="on", and drops it after stat("uid", null)', async () => {
    opened = await openFixture(browser(), 'pageviews.html', { attributes: { 'data-user-id': 'on' } });
    await hitsOf(opened.recorder, 1);
    await stat(opened.page, 'uid', 42);
    await stat(opened.page, 'event', 'first');
    await hitsOf(opened.recorder, 1, (hit) => hit.en === 'first');
    await opened.page.click('#spa');
    await hitsOf(opened.recorder, 2, (hit) => hit.t === 'pageview');
    await stat(opened.page, 'uid', null);
    await stat(opened.page, 'event', 'second');
    await hitsOf(opened.recorder, 1, (hit) => hit.en === 'second');
    expect(opened.recorder.hits.filter(notEngagement).map((hit) => [hit.t, hit.en ?? hit.u, hit.uid])).toEqual([
      ['pageview', `${opened.site}/pageviews.html`, undefined],
      ['event', 'first', '42'],
      ['pageview', `${opened.site}/spa/next`, '42'],
      ['event', 'second', undefined],
    ]);
  });

  it('ignores stat("uid", id) without data-user-id', async () => {
    opened = await openFixture(browser(), 'pageviews.html');
    await stat(opened.page, 'uid', 'user-42');
    await stat(opened.page, 'event', 'signup');
    const [event] = await hitsOf(opened.recorder, 1, (hit) => hit.t === 'event');
    expect(event).toEqual({ p: 1, t: 'event', u: `${opened.site}/pageviews.html`, v: await opened.visitor(), ec: 'cv', en: 'signup' });
  });

  it('takes a malformed command without an error in the page', async () => {
    opened = await openFixture(browser(), 'pageviews.html');
    await opened.page.evaluate(() => {
      const cyclic: Record<string, unknown> = { a: 1 };
      cyclic.self = cyclic;
      window.stat!('event', 'cyclic', cyclic);
      window.stat!('unknown-command', 1, 2);
      window.stat!();
    });
    const [event] = await hitsOf(opened.recorder, 1, (hit) => hit.t === 'event');
    expect(event).toMatchObject({ en: 'cyclic', ep: { a: 1 } });
    expect(opened.problems).toEqual([]);
  });
});

describe('outbound links', () => {
  it('sends the link on a click on a link to another host, and the browser still goes there', async () => {
    opened = await openFixture(browser(), 'links.html');
    const landing = `${opened.recorder.otherHost}/landing?from=site`;
    await hitsOf(opened.recorder, 1);
    await Promise.all([opened.page.waitForURL(landing), opened.page.click('#outbound-text')]);
    expect(await opened.page.title()).toBe('Партнёр');
    const [outbound] = await hitsOf(opened.recorder, 1, (hit) => hit.t === 'outbound');
    expect(outbound).toEqual({ p: 1, t: 'outbound', u: `${opened.site}/links.html`, v: expect.stringMatching(/^[a-z0-9]{8,}$/), l: landing });
  });

  it('sends the link on a middle click, which opens it in a new tab', async () => {
    opened = await openFixture(browser(), 'links.html');
    const [tab] = await Promise.all([opened.context.waitForEvent('page'), opened.page.click('#outbound', { button: 'middle' })]);
    await tab.close();
    const [outbound] = await hitsOf(opened.recorder, 1, (hit) => hit.t === 'outbound');
    expect(outbound).toMatchObject({ u: `${opened.site}/links.html`, l: `${opened.recorder.otherHost}/landing?from=site` });
  });

  it('sends nothing for a link within the site or a javascript: link', async () => {
    opened = await openFixture(browser(), 'links.html');
    await opened.page.click('#script');
    await Promise.all([opened.page.waitForURL('**/links.html?again'), opened.page.click('#internal')]);
    await hitsOf(opened.recorder, 2, (hit) => hit.t === 'pageview');
    expect(opened.recorder.hits.filter((hit) => hit.t === 'outbound')).toEqual([]);
  });

  it('sends the clicks on mailto:, tel:, a file and a download link as outbound hits, and a form send as an event (the autogoals)', async () => {
    opened = await openFixture(browser(), 'links.html');
    await hitsOf(opened.recorder, 1);
    // The page stays: the links' navigations are cancelled, as a phone or mail handler would leave it.
    await opened.page.evaluate(() => document.addEventListener('click', (event) => (event.target as Element).closest('a') && event.preventDefault()));
    for (const id of ['#mail', '#phone', '#file', '#attachment', '#send']) await opened.page.click(id);
    const u = `${opened.site}/links.html`;
    const base = { p: 1, u, v: await opened.visitor() };
    const sent = await hitsOf(opened.recorder, 4, (hit) => hit.t === 'outbound');
    expect(sorted(sent)).toEqual(
      sorted([
        { ...base, t: 'outbound', l: 'mailto:info@example.ru' },
        { ...base, t: 'outbound', l: 'tel:+74950000000' },
        { ...base, t: 'outbound', l: `${opened.site}/files/price.pdf` },
        { ...base, t: 'outbound', l: `${opened.site}/files/report` },
      ]),
    );
    const [form] = await hitsOf(opened.recorder, 1, (hit) => hit.t === 'event');
    expect(form).toEqual({ ...base, t: 'event', ec: 'base', en: 'form' });
  });
});
