import { afterEach, describe, expect, it } from 'vitest';
import { chromiumForTests } from '../../server/src/testing/browser.js';
import { eventually } from '../../server/src/testing/api-client.js';
import { freePort } from '../../server/src/testing/service.js';
import { hitsOf, openFixture, sorted, stat, type OpenedPage } from '../test/harness.js';

// Needs: the built counter served by the test service (global setup) and Debian's chromium.
const browser = chromiumForTests();
let opened: OpenedPage | null = null;
afterEach(async () => {
  await opened?.close();
  opened = null;
});

const isPageView = (hit: Record<string, unknown>): boolean => hit.t === 'pageview';

describe('page views', () => {
  it('sends a page view on load as a text/plain beacon, with the page’s address, referrer, title and screen', async () => {
    opened = await openFixture(browser(), 'pageviews.html');
    const [hit] = await hitsOf(opened.recorder, 1);
    expect(hit).toEqual({
      p: 1,
      t: 'pageview',
      u: `${opened.site}/pageviews.html`,
      r: '',
      ti: 'Страница',
      sw: 1280,
      sh: 720,
      v: await opened.visitor(),
    });
    expect(opened.recorder.requests[0]).toMatchObject({ method: 'POST', contentType: 'text/plain;charset=UTF-8' });
    expect(opened.problems).toEqual([]);
  });

  it('keeps the visitor id across page loads', async () => {
    opened = await openFixture(browser(), 'pageviews.html');
    await hitsOf(opened.recorder, 1, isPageView);
    await Promise.all([opened.page.waitForURL('**/pageviews.html?second'), opened.page.click('#internal')]);
    const views = await hitsOf(opened.recorder, 2, isPageView);
    const visitor = await opened.visitor();
    expect(visitor).toMatch(/^[a-z0-9]{8,64}$/);
    expect(views.map((hit) => hit.v)).toEqual([visitor, visitor]);
  });

  it('counts pushState as a page view with the new title and the previous page as referrer, and back (popstate) as another', async () => {
    opened = await openFixture(browser(), 'pageviews.html');
    const first = `${opened.site}/pageviews.html`;
    const v = await opened.visitor();
    await hitsOf(opened.recorder, 1, isPageView);
    await opened.page.click('#spa');
    await opened.page.waitForURL('**/spa/next');
    await hitsOf(opened.recorder, 2, isPageView);
    await opened.page.goBack();
    const views = await hitsOf(opened.recorder, 3, isPageView);
    const screen = { sw: 1280, sh: 720 };
    expect(views).toEqual([
      { p: 1, t: 'pageview', u: first, r: '', ti: 'Страница', ...screen, v },
      { p: 1, t: 'pageview', u: `${opened.site}/spa/next`, r: first, ti: 'Следующая', ...screen, v },
      // The title is the document's: the fixture does not set it back on popstate.
      { p: 1, t: 'pageview', u: first, r: `${opened.site}/spa/next`, ti: 'Следующая', ...screen, v },
    ]);
    expect(opened.problems).toEqual([]);
  });

  it('counts no page view for a hash change without data-track-hashes, and leaves the hash out of the address', async () => {
    opened = await openFixture(browser(), 'pageviews.html', { suffix: '#start' });
    await opened.page.click('#hash');
    await opened.page.waitForURL('**#section');
    // A later event marks the end: the hash change came before it, so its page view would have too.
    await stat(opened.page, 'event', 'barrier');
    await hitsOf(opened.recorder, 1, (hit) => hit.en === 'barrier');
    expect(opened.recorder.hits.filter(isPageView)).toEqual([
      expect.objectContaining({ t: 'pageview', u: `${opened.site}/pageviews.html`, r: '' }),
    ]);
  });

  it('counts a hash change as a page view with data-track-hashes, the hash in the address', async () => {
    opened = await openFixture(browser(), 'pageviews.html', { suffix: '#start', attributes: { 'data-track-hashes': 'on' } });
    const start = `${opened.site}/pageviews.html#start`;
    await hitsOf(opened.recorder, 1, isPageView);
    await opened.page.click('#hash');
    const views = await hitsOf(opened.recorder, 2, isPageView);
    expect(views.map((hit) => [hit.u, hit.r])).toEqual([
      [start, ''],
      [`${opened.site}/pageviews.html#section`, start],
    ]);
  });

  it('counts a page restored from the back-forward cache as a new page view', async () => {
    opened = await openFixture(browser(), 'pageviews.html');
    await hitsOf(opened.recorder, 1, isPageView);
    // Playwright's Chromium runs without the back-forward cache: fire what a restore fires.
    await opened.page.evaluate(() => {
      dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
      dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    });
    const views = await hitsOf(opened.recorder, 2, isPageView);
    expect(views.map((hit) => [hit.u, hit.r])).toEqual([
      [`${opened.site}/pageviews.html`, ''],
      [`${opened.site}/pageviews.html`, ''],
    ]);
  });

  it('treats data-track-hashes="off" as off', async () => {
    opened = await openFixture(browser(), 'pageviews.html', { attributes: { 'data-track-hashes': 'off' } });
    await opened.page.click('#hash');
    await stat(opened.page, 'event', 'barrier');
    await hitsOf(opened.recorder, 1, (hit) => hit.en === 'barrier');
    expect(opened.recorder.hits.filter(isPageView)).toHaveLength(1);
  });
});

describe('transport', () => {
  it('falls back to fetch with keepalive, text/plain, when sendBeacon is missing', async () => {
    opened = await openFixture(browser(), 'pageviews.html', {
      before: (page) => page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'sendBeacon', { value: undefined })),
    });
    const [hit] = await hitsOf(opened.recorder, 1);
    expect(hit).toMatchObject({ t: 'pageview', u: `${opened.site}/pageviews.html` });
    expect(opened.recorder.requests[0]).toMatchObject({ method: 'POST', contentType: 'text/plain;charset=UTF-8' });
    expect(opened.problems).toEqual([]);
  });

  it('falls back to a GET pixel with the same keys, the parameters as JSON in one key, when sendBeacon and fetch fail', async () => {
    opened = await openFixture(browser(), 'pageviews.html', {
      attributes: { 'data-user-id': 'on' },
      before: (page) =>
        page.addInitScript(() => {
          Object.defineProperty(Navigator.prototype, 'sendBeacon', { value: () => false });
          window.fetch = () => Promise.reject(new TypeError('blocked'));
        }),
    });
    await stat(opened.page, 'uid', 'user-42');
    await stat(opened.page, 'event', 'signup', { plan: 'pro', seats: 3 });
    const hits = await hitsOf(opened.recorder, 2);
    const v = await opened.visitor();
    const u = `${opened.site}/pageviews.html`;
    expect(sorted(hits)).toEqual(
      sorted([
        { p: '1', t: 'pageview', u, r: '', ti: 'Страница', sw: '1280', sh: '720', v },
        { p: '1', t: 'event', u, v, uid: 'user-42', ec: 'cv', en: 'signup', ep: '{"plan":"pro","seats":3}' },
      ]),
    );
    expect(opened.recorder.requests.map((request) => request.method)).toEqual(['GET', 'GET']);
  });
});

describe('a collector that cannot be reached', () => {
  /** Errors the page saw other than the browser's own line for a failed request. */
  const counterProblems = (problems: string[]): string[] =>
    problems.filter((problem) => !/^console: Failed to load resource: net::ERR_[A-Z_.a-z]+$/.test(problem));

  it('never throws into the page or logs an error when nothing listens at the collector', async () => {
    opened = await openFixture(browser(), 'pageviews.html', { collector: `http://127.0.0.1:${await freePort()}` });
    await opened.page.click('#spa');
    await opened.page.waitForURL('**/spa/next');
    await stat(opened.page, 'event', 'signup', { plan: 'pro' });
    await opened.page.click('#internal');
    await opened.page.waitForURL('**/pageviews.html?second');
    expect(await opened.page.title()).toBe('Страница');
    expect(counterProblems(opened.problems)).toEqual([]);
  });

  it('never throws into the page or logs an error when a blocker refuses every hit', async () => {
    const blocked: string[] = [];
    opened = await openFixture(browser(), 'pageviews.html', {
      before: (page) =>
        page.route('**/hit**', (route) => {
          blocked.push(route.request().postData() ?? route.request().url());
          return route.abort('blockedbyclient');
        }),
    });
    await opened.page.click('#spa');
    await opened.page.waitForURL('**/spa/next');
    await stat(opened.page, 'event', 'signup', { plan: 'pro' });
    await opened.page.evaluate(() => {
      // the page's own code still runs after the counter's calls
      document.title = 'после';
    });
    expect(await opened.page.title()).toBe('после');
    // The two page views and the event were sent, and refused (a refused beacon may be tried
    // again as a pixel, so the same hit can appear twice, once as JSON and once as a query).
    const attempted = (): string[] => [
      ...new Set(
        blocked.map((sent) => {
          const hit = sent.startsWith('{') ? (JSON.parse(sent) as Record<string, unknown>) : Object.fromEntries(new URL(sent).searchParams);
          return `${String(hit.t)} ${String(hit.u)} ${String(hit.en ?? '')}`;
        }),
      ),
    ];
    // Waited for by what is counted: other hits (engagement) may be refused first.
    const viewsAndEvents = (): string[] => attempted().filter((hit) => /^(pageview|event) /.test(hit));
    await eventually(async () => viewsAndEvents().length, (count) => count >= 3);
    expect(viewsAndEvents()).toHaveLength(3);
    expect(counterProblems(opened.problems)).toEqual([]);
    expect(opened.recorder.hits).toEqual([]);
  });
});
