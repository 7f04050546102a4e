import { describe, expect, it } from 'vitest';
import { HIT_TYPES, type AcceptedHit, type Hit } from '@stat/schemas';
import { createEnricher } from '../enrich/index.js';
import { VisitCutter, type VisitStep } from '../sessions.js';
import { sourceOf } from '../source.js';
import type { EnrichedHit } from './enrich.js';
import { cutVisitStep, isInternal, REPORT_TYPES, roleOf } from './visits.js';

const SECOND = 1000;
const MINUTE = 60_000;
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const enricher = createEnricher();

/** A hit of visitor-1 on shop.ru, enriched as the pipeline does. */
function enriched(at: number, u: string, r = '', fields: Partial<Hit> = {}, siteHost?: string): EnrichedHit {
  const hit = { p: 5, t: 'pageview', u, r, ti: '', sw: 0, sh: 0, v: 'visitor-1', ...fields } as Hit;
  const accepted: AcceptedHit = { id: '00000000-0000-4000-8000-000000000001', at, ip: '', ua: CHROME, hit };
  const result = enricher.enrichHit(accepted, siteHost);
  if (result.kind !== 'ok') throw new Error('a browser is enriched');
  return { accepted, enrichment: result.enrichment, siteHost };
}

/** Cuts page views given as [minute, url, referrer] and says, for each, its visit's number and source. */
function visits(pages: [number, string, string][], siteHost?: string): string[] {
  const cut = cutVisitStep(new VisitCutter());
  return pages.map(([minute, u, r]) => {
    const result = cut(enriched(minute * MINUTE, u, r, {}, siteHost));
    if (!('ok' in result)) throw new Error('a visit step never drops');
    const { visit, eventNumber } = result.ok.step;
    return `visit ${visit.number} hit ${eventNumber}: ${visit.source?.traffic_type}/${visit.source?.traffic_system}`;
  });
}

const SHOP = 'https://shop.ru/';
const YANDEX_SEARCH = 'https://yandex.ru/search/?text=%D1%82%D0%B5%D0%BB%D0%B5%D1%84%D0%BE%D0%BD';

describe('roleOf', () => {
  it('names what each hit type is to its visit', () => {
    expect(Object.fromEntries(HIT_TYPES.map((t) => [t, roleOf(t)]))).toEqual({
      pageview: 'pageview',
      event: 'action',
      click: 'action',
      show: 'action',
      outbound: 'action',
      engagement: 'report',
      read: 'report',
    });
    expect(REPORT_TYPES).toEqual(['engagement', 'read']);
  });
});

describe('cutVisitStep', () => {
  it("puts a visitor's hits in one visit, numbered, with the first hit's source", () => {
    const cut = cutVisitStep(new VisitCutter());
    const first = cut(enriched(0, SHOP, YANDEX_SEARCH));
    const second = cut(enriched(MINUTE, `${SHOP}phones`, SHOP));
    if (!('ok' in first) || !('ok' in second)) throw new Error('a visit step never drops');
    expect(second.ok.step.visit.id).toBe(first.ok.step.visit.id);
    expect({ ...second.ok.step, visit: { ...second.ok.step.visit, id: 0n } }).toEqual({
      visit: {
        id: 0n,
        number: 1,
        startAt: 0,
        lastAt: MINUTE,
        events: 2,
        pageViews: 2,
        engagedMs: 0,
        bounce: false,
        source: sourceOf(first.ok.enrichment),
      },
      eventNumber: 2,
      bounceDelta: -1,
      durationDelta: MINUTE,
    } satisfies VisitStep);
    expect(second.ok.step.visit.source?.search_phrase).toBe('телефон');
  });

  it('starts a new visit after the time-out', () => {
    expect(visits([[0, SHOP, YANDEX_SEARCH], [31, SHOP, '']])).toEqual(['visit 1 hit 1: search/yandex', 'visit 2 hit 1: direct/']);
  });

  it('starts a new visit at an ad click in the middle of a visit', () => {
    expect(visits([[0, SHOP, ''], [1, `${SHOP}phones`, SHOP], [2, `${SHOP}phones?yclid=5017`, 'https://yandex.ru/']])).toEqual([
      'visit 1 hit 1: direct/',
      'visit 1 hit 2: direct/',
      'visit 2 hit 1: ad/yandex_direct',
    ]);
  });

  it('keeps the visit when its ad landing page is opened again (a reload, back from another page)', () => {
    const landing = `${SHOP}phones?yclid=5017`;
    expect(visits([[0, landing, 'https://yandex.ru/'], [1, `${SHOP}cart`, landing], [2, landing, 'https://yandex.ru/']])).toEqual([
      'visit 1 hit 1: ad/yandex_direct',
      'visit 1 hit 2: ad/yandex_direct',
      'visit 1 hit 3: ad/yandex_direct',
    ]);
  });

  it('keeps the visit when the same campaign tags come again', () => {
    const spring = `${SHOP}?utm_source=mail&utm_medium=email&utm_campaign=spring`;
    expect(visits([[0, spring, ''], [1, `${SHOP}cart`, spring], [5, spring, '']])).toEqual([
      'visit 1 hit 1: direct/',
      'visit 1 hit 2: direct/',
      'visit 1 hit 3: direct/',
    ]);
  });

  it('starts a new visit when other campaign tags come', () => {
    const spring = `${SHOP}?utm_source=mail&utm_medium=email&utm_campaign=spring`;
    const autumn = `${SHOP}?utm_source=mail&utm_medium=email&utm_campaign=autumn`;
    expect(visits([[0, spring, ''], [1, `${SHOP}cart`, spring], [5, autumn, '']])).toEqual([
      'visit 1 hit 1: direct/',
      'visit 1 hit 2: direct/',
      'visit 2 hit 1: direct/',
    ]);
  });

  it('starts a new visit at a search click after a direct entry', () => {
    expect(visits([[0, SHOP, ''], [3, SHOP, YANDEX_SEARCH]])).toEqual(['visit 1 hit 1: direct/', 'visit 2 hit 1: search/yandex']);
  });

  it('keeps the visit for a direct entry after a search click', () => {
    expect(visits([[0, SHOP, YANDEX_SEARCH], [3, SHOP, '']])).toEqual(['visit 1 hit 1: search/yandex', 'visit 1 hit 2: search/yandex']);
  });

  it('keeps the visit for the same search engine with another phrase, and cuts it for another engine', () => {
    expect(visits([[0, SHOP, YANDEX_SEARCH], [1, SHOP, 'https://yandex.ru/search/?text=case'], [2, SHOP, 'https://www.google.com/']])).toEqual([
      'visit 1 hit 1: search/yandex',
      'visit 1 hit 2: search/yandex',
      'visit 2 hit 1: search/google',
    ]);
  });

  it("keeps the visit for another page of the referring site, and cuts it for another site's link", () => {
    expect(visits([[0, SHOP, 'https://blog.example.org/a'], [1, SHOP, 'https://blog.example.org/b'], [2, SHOP, 'https://forum.example.org/t/1']])).toEqual([
      'visit 1 hit 1: link/blog.example.org',
      'visit 1 hit 2: link/blog.example.org',
      'visit 2 hit 1: link/forum.example.org',
    ]);
  });

  it("keeps the visit for internal navigation, also to a page whose tags make it an ad, on the page's site or the project's", () => {
    const pages: [number, string, string][] = [
      [0, SHOP, YANDEX_SEARCH],
      [1, `${SHOP}phones`, SHOP],
      [2, `${SHOP}sale?utm_source=promo&utm_medium=banner`, `${SHOP}phones`],
    ];
    const expected = ['visit 1 hit 1: search/yandex', 'visit 1 hit 2: search/yandex', 'visit 1 hit 3: search/yandex'];
    expect(visits(pages)).toEqual(expected);
    expect(visits(pages, 'www.shop.ru')).toEqual(expected);
  });

  it("keeps the visit for navigation within a host other than the project's site address (a mirror, a test server)", () => {
    const site = 'http://127.0.0.1:8000';
    expect(visits([[0, `${site}/page1`, ''], [1, `${site}/page2`, `${site}/page1`], [2, `${site}/page2/spa`, `${site}/page2`]], 'e2e-site.example')).toEqual([
      'visit 1 hit 1: direct/',
      'visit 1 hit 2: direct/',
      'visit 1 hit 3: direct/',
    ]);
  });

  it('tells internal navigation by the referrer, whatever the tags made of the source', () => {
    const banner = `${SHOP}sale?utm_source=promo&utm_medium=banner`;
    expect([
      isInternal(enriched(0, banner, SHOP)),
      isInternal(enriched(0, banner, 'https://m.shop.ru/')),
      isInternal(enriched(0, banner, 'https://other.ru/')),
      isInternal(enriched(0, banner, '')),
      isInternal(enriched(0, `${SHOP}phones`, SHOP)),
      isInternal(enriched(0, 'https://mirror.example/sale?utm_medium=banner', SHOP, {}, 'shop.ru')),
      isInternal(enriched(0, 'https://mirror.example/sale', 'https://mirror.example/', {}, 'shop.ru')),
      isInternal(enriched(0, 'https://mirror.example/sale', SHOP)),
    ]).toEqual([true, true, false, false, true, true, true, false]);
  });

  it("takes an engagement report's engaged time: 15 s of it undo a bounce", () => {
    const cut = cutVisitStep(new VisitCutter());
    const deltas = [
      enriched(0, SHOP),
      enriched(10 * SECOND, SHOP, '', { t: 'engagement', d: 9 * SECOND }),
      enriched(11 * SECOND, SHOP, '', { t: 'read', sp: 100, rp: 90 }),
      enriched(20 * SECOND, SHOP, '', { t: 'engagement', d: 6 * SECOND }),
    ].map((hit) => {
      const result = cut(hit);
      if (!('ok' in result)) throw new Error('a visit step never drops');
      return [result.ok.step.bounceDelta, result.ok.step.visit.engagedMs];
    });
    expect(deltas).toEqual([
      [1, 0],
      [0, 9 * SECOND],
      [0, 9 * SECOND],
      [-1, 15 * SECOND],
    ]);
  });

  it('keeps the enriched hit it was given', () => {
    const cut = cutVisitStep(new VisitCutter());
    const input = enriched(0, SHOP, '', { t: 'engagement', d: 1000 });
    const result = cut(input);
    expect('ok' in result && { accepted: result.ok.accepted, enrichment: result.ok.enrichment, siteHost: result.ok.siteHost }).toEqual(input);
  });
});
