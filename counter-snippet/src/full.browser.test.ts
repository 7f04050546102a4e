import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumForTests } from '../../server/src/testing/browser.js';
import { hitsOf, openFixture, setVisible, sorted, stat, type OpenedPage } from '../test/harness.js';

// The full build (block analytics and reading depth), served by the test's own site server:
// the api serves only the default build today. Needs Debian's chromium.
const browser = chromiumForTests();
let opened: OpenedPage | null = null;
afterEach(async () => {
  await opened?.close();
  opened = null;
});

const ofType =
  (t: string) =>
  (hit: Record<string, unknown>): boolean =>
    hit.t === t;

/** Scrolls the window to `y` and waits for the scroll event the counter listens to. */
async function scrollPage(page: Page, y: number): Promise<void> {
  await page.evaluate(
    (top) =>
      new Promise<void>((resolve) => {
        addEventListener('scroll', () => resolve(), { once: true });
        window.scrollTo(0, top);
      }),
    y,
  );
}

describe('block analytics', () => {
  it('with the default attribute, sends a show for each named block in view, and a click of the innermost block', async () => {
    opened = await openFixture(browser(), 'blocks.html', { build: 'counter-full' });
    const base = { p: 1, u: `${opened.site}/blocks.html`, v: await opened.visitor() };
    const shows = await hitsOf(opened.recorder, 2, ofType('show'));
    expect(sorted(shows)).toEqual(
      sorted([
        { ...base, t: 'show', bl: 'header-menu' },
        { ...base, t: 'show', bl: 'search' },
      ]),
    );
    await opened.page.click('#menu');
    await opened.page.click('#search');
    await opened.page.click('#outside');
    await opened.page.click('#unnamed');
    await stat(opened.page, 'event', 'barrier');
    await hitsOf(opened.recorder, 1, (hit) => hit.en === 'barrier');
    expect(opened.recorder.hits.filter(ofType('click'))).toEqual([
      { ...base, t: 'click', bl: 'header-menu' },
      { ...base, t: 'click', bl: 'search' },
    ]);
    expect(opened.recorder.hits.filter(ofType('show'))).toHaveLength(2);
    expect(opened.problems).toEqual([]);
  });

  it('sends the show of a block below the fold once it is scrolled into view, once per page view', async () => {
    opened = await openFixture(browser(), 'blocks.html', { build: 'counter-full' });
    await hitsOf(opened.recorder, 2, ofType('show'));
    await opened.page.click('#promo');
    await scrollPage(opened.page, 0);
    await scrollPage(opened.page, 4000);
    const shows = await hitsOf(opened.recorder, 3, ofType('show'));
    const [click] = await hitsOf(opened.recorder, 1, ofType('click'));
    expect(shows.map((hit) => hit.bl).sort()).toEqual(['footer-promo', 'header-menu', 'search']);
    expect(click).toMatchObject({ t: 'click', bl: 'footer-promo' });
    // A new page view shows its blocks again.
    await opened.page.evaluate(() => history.pushState({}, '', '/blocks.html?next'));
    const again = await hitsOf(opened.recorder, 4, ofType('show'));
    expect(again[3]).toMatchObject({ u: `${opened.site}/blocks.html?next`, bl: 'footer-promo' });
  });

  it('reads the block name from the attribute named by data-attribute', async () => {
    opened = await openFixture(browser(), 'blocks.html', { build: 'counter-full', attributes: { 'data-attribute': 'promo-block' } });
    const shows = await hitsOf(opened.recorder, 2, ofType('show'));
    expect(shows.map((hit) => hit.bl).sort()).toEqual(['search-box', 'top-nav']);
    await opened.page.click('#menu');
    await opened.page.click('#promo');
    const clicks = await hitsOf(opened.recorder, 2, ofType('click'));
    expect(clicks.map((hit) => hit.bl)).toEqual(['top-nav', 'bottom-offer']);
  });
});

describe('reading depth', () => {
  it('sends the deepest scroll and read-through percents of an article page when it is hidden, and again only when they grew', async () => {
    opened = await openFixture(browser(), 'article.html', { build: 'counter-full' });
    const base = { p: 1, t: 'read', u: `${opened.site}/article.html`, v: await opened.visitor(), mt: 'Статья' };
    await hitsOf(opened.recorder, 1);
    // Window bottom at 1720 px of 3200: the page 54 % seen, the article (200 to 2200 px) 76 % read.
    await scrollPage(opened.page, 1000);
    await scrollPage(opened.page, 0);
    await setVisible(opened.page, false);
    await hitsOf(opened.recorder, 1, ofType('read'));
    await setVisible(opened.page, true);
    await setVisible(opened.page, false);
    await setVisible(opened.page, true);
    await scrollPage(opened.page, 2480);
    await setVisible(opened.page, false);
    const reads = await hitsOf(opened.recorder, 2, ofType('read'));
    expect(reads).toEqual([
      { ...base, sp: 54, rp: 76 },
      { ...base, sp: 100, rp: 100 },
    ]);
  });

  it('sends the end of the article once a page view, when it is read through (the autogoal «Дочитывание статьи»)', async () => {
    opened = await openFixture(browser(), 'article.html', { build: 'counter-full' });
    const v = await opened.visitor();
    await scrollPage(opened.page, 1000);
    await scrollPage(opened.page, 2480);
    await scrollPage(opened.page, 0);
    await scrollPage(opened.page, 2480);
    await opened.page.evaluate(() => history.pushState({}, '', '/article.html?next'));
    await hitsOf(opened.recorder, 2, ofType('pageview'));
    await scrollPage(opened.page, 0);
    await scrollPage(opened.page, 2480);
    const ends = await hitsOf(opened.recorder, 2, (hit) => hit.en === 'scroll');
    expect(sorted(ends)).toEqual(
      sorted([
        { p: 1, t: 'event', u: `${opened.site}/article.html`, v, ec: 'base', en: 'scroll', mt: 'Статья' },
        { p: 1, t: 'event', u: `${opened.site}/article.html?next`, v, ec: 'base', en: 'scroll', mt: 'Статья' },
      ]),
    );
    await stat(opened.page, 'event', 'barrier');
    await hitsOf(opened.recorder, 1, (hit) => hit.en === 'barrier');
    expect(opened.recorder.hits.filter((hit) => hit.en === 'scroll')).toHaveLength(2);
  });

  it('counts what is in view without scrolling', async () => {
    opened = await openFixture(browser(), 'article.html', { build: 'counter-full' });
    await setVisible(opened.page, false);
    const [read] = await hitsOf(opened.recorder, 1, ofType('read'));
    // Window bottom at 720 px: 22.5 % of the page, 26 % of the article.
    expect(read).toMatchObject({ sp: 23, rp: 26 });
  });

  it('takes the article from the selector in data-article', async () => {
    opened = await openFixture(browser(), 'article.html', { build: 'counter-full', attributes: { 'data-article': 'footer' } });
    await scrollPage(opened.page, 1000);
    await setVisible(opened.page, false);
    const [read] = await hitsOf(opened.recorder, 1, ofType('read'));
    // The footer (2200 to 3200 px) is not reached by a window bottom at 1720 px.
    expect(read).toMatchObject({ sp: 54, rp: 0 });
  });

  it('sends no read hits on a page without an article', async () => {
    opened = await openFixture(browser(), 'plain.html', { build: 'counter-full' });
    await scrollPage(opened.page, 1000);
    await setVisible(opened.page, false);
    await hitsOf(opened.recorder, 1, ofType('engagement'));
    await stat(opened.page, 'event', 'barrier');
    await hitsOf(opened.recorder, 1, (hit) => hit.en === 'barrier');
    expect(opened.recorder.hits.filter(ofType('read'))).toEqual([]);
  });

  it('sends the reading depth of the article page before the page view of an SPA navigation', async () => {
    opened = await openFixture(browser(), 'article.html', { build: 'counter-full' });
    await scrollPage(opened.page, 1000);
    await opened.page.evaluate(() => history.pushState({}, '', '/article.html?next'));
    await hitsOf(opened.recorder, 2, ofType('pageview'));
    const [read] = await hitsOf(opened.recorder, 1, ofType('read'));
    expect(read).toMatchObject({ u: `${opened.site}/article.html`, sp: 54, rp: 76 });
  });
});

describe('the material of an article page', () => {
  const material = { mt: 'Как устроен город', ma: 'Анна Петрова', mp: '2026-11-20T09:30:00+03:00' };

  it('reads the title, author and published time from the meta tags and sends them on every hit of the page view', async () => {
    opened = await openFixture(browser(), 'material.html', { build: 'counter-full' });
    const base = { p: 1, u: `${opened.site}/material.html`, v: await opened.visitor(), ...material };
    const [view] = await hitsOf(opened.recorder, 1, ofType('pageview'));
    expect(view).toEqual({ ...base, t: 'pageview', r: '', ti: 'Как устроен город — Новости', sw: 1280, sh: 720 });
    await stat(opened.page, 'event', 'like');
    await setVisible(opened.page, false);
    const [read] = await hitsOf(opened.recorder, 1, ofType('read'));
    const [like] = await hitsOf(opened.recorder, 1, (hit) => hit.en === 'like');
    // The window (720 px) shows 36 % of the 2000 px article and of the page just below it.
    expect(read).toEqual({ ...base, t: 'read', sp: 36, rp: 36 });
    expect(like).toEqual({ ...base, t: 'event', ec: 'cv', en: 'like' });
  });

  it('takes the article’s first h1, data-author and <time datetime> when the page has no meta tags', async () => {
    opened = await openFixture(browser(), 'material-marked.html', { build: 'counter-full', attributes: { 'data-article': '.post' } });
    const [view] = await hitsOf(opened.recorder, 1, ofType('pageview'));
    expect(view).toMatchObject({ mt: 'Мосты над рекой', ma: 'Иван Смирнов', mp: '2026-11-19' });
  });

  it('falls back to the page title, and sends no author or time that the page does not give', async () => {
    opened = await openFixture(browser(), 'article.html', { build: 'counter-full', attributes: { 'data-article': 'footer' } });
    const [view] = await hitsOf(opened.recorder, 1, ofType('pageview'));
    expect(view).toMatchObject({ t: 'pageview', mt: 'Статья' });
    expect(Object.keys(view!).filter((key) => key.startsWith('m'))).toEqual(['mt']);
  });

  it('sends no material on a page without an article, nor on the SPA page view that leaves the article', async () => {
    opened = await openFixture(browser(), 'plain.html', { build: 'counter-full' });
    const [plain] = await hitsOf(opened.recorder, 1, ofType('pageview'));
    expect(Object.keys(plain!).filter((key) => /^m[tap]$/.test(key))).toEqual([]);
    await opened.close();
    opened = await openFixture(browser(), 'material.html', { build: 'counter-full' });
    await hitsOf(opened.recorder, 1, ofType('pageview'));
    await opened.page.evaluate(() => {
      document.querySelector('article')!.remove();
      history.pushState({}, '', '/material.html?list');
    });
    const views = await hitsOf(opened.recorder, 2, ofType('pageview'));
    expect(views[0]).toMatchObject(material);
    expect(views[1]).toMatchObject({ u: `${opened.site}/material.html?list` });
    expect(Object.keys(views[1]!).filter((key) => /^m[tap]$/.test(key))).toEqual([]);
  });
});

describe('the full build keeps the core', () => {
  it('sends page views, events and outbound clicks as the default build does', async () => {
    opened = await openFixture(browser(), 'links.html', { build: 'counter-full' });
    await stat(opened.page, 'event', 'signup');
    await Promise.all([opened.page.waitForURL('**/landing?from=site'), opened.page.click('#outbound')]);
    const hits = await hitsOf(opened.recorder, 3, (hit) => hit.t !== 'engagement');
    expect(hits.map((hit) => hit.t).sort()).toEqual(['event', 'outbound', 'pageview']);
  });
});
