import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MOSCOW_OFFSET_MS, materialPublishedAt, validateHit, type AcceptedHit } from '@stat/schemas';
import { generateTraffic, wireHit, type TrafficOptions, type TrafficStats } from './traffic.js';

const DAY = 86_400_000;
// A fixed "now" (a Saturday, 17:00 in Moscow), so that the traffic of a seed never changes.
const UNTIL = Date.UTC(2026, 10, 21, 14, 0);

function options(events: number, days = 35, seed = 1, extra: Partial<TrafficOptions> = {}): TrafficOptions {
  return { projectId: 77, siteUrl: 'https://demo.stat.example', events, fromMs: UNTIL - days * DAY, untilMs: UNTIL, seed, ...extra };
}

/** Runs a generation to its end: every slice, in order, and the stats it returns. */
function run(opts: TrafficOptions): { slices: AcceptedHit[][]; stats: TrafficStats } {
  const slices: AcceptedHit[][] = [];
  const traffic = generateTraffic(opts);
  for (;;) {
    const next = traffic.next();
    if (next.done) return { slices, stats: next.value };
    slices.push(next.value);
  }
}

/** A digest of every hit, in order. */
function digest(slices: AcceptedHit[][]): string {
  const hash = createHash('sha256');
  for (const slice of slices) hash.update(JSON.stringify(slice));
  return hash.digest('hex');
}

const share = (part: number | undefined, whole: number): number => (part ?? 0) / whole;

describe('generateTraffic', () => {
  it.each([
    [1, 1],
    [10, 35],
    [1_234, 7],
    [10_000, 35],
    [25_000, 400],
  ])('makes exactly %i events over %i days, in time order, inside the period', (events, days) => {
    const { slices, stats } = run(options(events, days));
    const hits = slices.flat();
    expect(hits).toHaveLength(events);
    expect(stats.events).toBe(events);
    expect(Object.values(stats.byType).reduce((a, b) => a + b, 0)).toBe(events);
    let previous = -Infinity;
    for (const { at } of hits) {
      expect(at).toBeGreaterThanOrEqual(previous);
      previous = at;
    }
    expect(hits[0]!.at).toBeGreaterThanOrEqual(UNTIL - days * DAY);
    expect(previous).toBeLessThan(UNTIL);
  });

  it.each([
    [1, 1],
    [250, 3],
    [4_000, 35],
  ])('makes exactly %i whole visits over %i days when sized in visits', (visits, days) => {
    const { slices, stats } = run(options(0, days, 1, { events: undefined, visits }));
    const hits = slices.flat();
    expect(stats.visits).toBe(visits);
    expect(stats.events).toBe(hits.length);
    // Whole visits: each begins with its page view.
    expect(new Set(hits.map((h) => h.hit.v)).size).toBeLessThanOrEqual(visits);
    expect(hits.every((h) => h.at < UNTIL)).toBe(true);
  });

  it('sizes in visits of an ordinary day: the same hits as the number of visits it comes to, about that many a day', () => {
    const perDay = run(options(0, 28, 4, { events: undefined, visitsPerDay: 700 }));
    const same = run(options(0, 28, 4, { events: undefined, visits: perDay.stats.visits }));
    expect(digest(same.slices)).toBe(digest(perDay.slices));
    // Four whole weeks: the weekdays' factors average out; news spikes add some per cent.
    expect(perDay.stats.visits / 28).toBeGreaterThan(700 * 0.95);
    expect(perDay.stats.visits / 28).toBeLessThan(700 * 1.15);
    // Half a day has its share by the time shape, at the same density.
    const half = run({ ...options(0, 1, 4, { events: undefined, visitsPerDay: 700 }), untilMs: UNTIL - 12 * 3_600_000 });
    expect(half.stats.visits).toBeGreaterThan(0);
    expect(half.stats.visits).toBeLessThan(700);
  });

  it('gives the same hits for the same seed and period, and other hits for another seed', () => {
    const of = (seed: number) => digest(run(options(20_000, 10, seed)).slices);
    expect(of(5)).toBe(of(5));
    expect(of(5)).not.toBe(of(6));
  });

  it('makes hits that pass validateHit as the counter sends them, and unique event ids', () => {
    const hits = run(options(20_000, 3)).slices.flat();
    const ids = new Set<string>();
    for (const accepted of hits) {
      const wire = wireHit(accepted.hit);
      expect(validateHit(JSON.parse(JSON.stringify(wire)))).toEqual({ ok: true, hit: accepted.hit });
      expect(accepted.ua).toMatch(/^Mozilla\/5\.0 \(/);
      expect(accepted.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      ids.add(accepted.id);
    }
    expect(ids.size).toBe(hits.length);
    // Only page views carry the referrer, title and screen on the wire.
    const engagement = hits.find((h) => h.hit.t === 'engagement')!;
    expect(Object.keys(wireHit(engagement.hit)).sort()).toEqual(expect.arrayContaining(['d', 'p', 't', 'u', 'v']));
    expect(wireHit(engagement.hit)).not.toHaveProperty('ti');
  });

  describe('the mix, over 200 000 events of 35 days', () => {
    const { slices, stats } = run(options(200_000, 35, 11));
    const hits = slices.flat();
    const visits = stats.visits;

    it('visits of a few pages, a third to a half of them by returning visitors', () => {
      expect(stats.pageViews / visits).toBeGreaterThan(1.5);
      expect(stats.pageViews / visits).toBeLessThan(2.3);
      expect(share(stats.returningVisits, visits)).toBeGreaterThan(0.3);
      expect(share(stats.returningVisits, visits)).toBeLessThan(0.5);
      expect(stats.newVisitors + stats.returningVisits).toBe(visits);
      // Returning visitors come back on later days, not only within the day.
      const days = new Map<string, Set<number>>();
      for (const h of hits) {
        if (h.hit.t !== 'pageview') continue;
        const set = days.get(h.hit.v) ?? new Set<number>();
        set.add(Math.floor((h.at + MOSCOW_OFFSET_MS) / DAY));
        days.set(h.hit.v, set);
      }
      const multiDay = [...days.values()].filter((s) => s.size >= 2).length;
      expect(multiDay / days.size).toBeGreaterThan(0.1);
    });

    it('page views are about a quarter of the events; engagement, reading depth, block shows and clicks the rest', () => {
      expect(share(stats.byType.pageview, stats.events)).toBeGreaterThan(0.22);
      expect(share(stats.byType.pageview, stats.events)).toBeLessThan(0.3);
      for (const type of ['engagement', 'read', 'show', 'click', 'event', 'outbound'] as const) expect(stats.byType[type]).toBeGreaterThan(0);
      const reads = hits.filter((h) => h.hit.t === 'read');
      expect(reads.every((h) => /\/\d{8}\/[a-z]+-\d+\.html(\?.*)?$/.test(h.hit.u))).toBe(true);
    });

    it("article pages carry their material on every hit (title, one of the site's authors, a published time before the reading), other pages none", () => {
      const ARTICLE = /\/\d{8}\/[a-z]+-\d+\.html(\?.*)?$/;
      const articleHits = hits.filter((h) => ARTICLE.test(h.hit.u));
      expect(articleHits.length).toBeGreaterThan(0);
      expect(articleHits.every((h) => h.hit.mt !== undefined && h.hit.ma !== undefined && h.hit.mp !== undefined)).toBe(true);
      expect(hits.filter((h) => !ARTICLE.test(h.hit.u)).some((h) => h.hit.mt !== undefined || h.hit.ma !== undefined)).toBe(false);
      const authors = new Set(articleHits.map((h) => h.hit.ma));
      expect(authors.size).toBeGreaterThanOrEqual(5);
      expect(authors.size).toBeLessThanOrEqual(8);
      expect(new Set(articleHits.map((h) => h.hit.mt)).size).toBeGreaterThan(30);
      // A material's title is the page's title without the site's name; its time is published before it is read.
      const view = articleHits.find((h) => h.hit.t === 'pageview')!;
      expect(view.hit.ti).toBe(`${view.hit.mt} — Демо-медиа`);
      expect(articleHits.every((h) => materialPublishedAt(h.hit.mp) > 0 && materialPublishedAt(h.hit.mp) * 1000 <= h.at)).toBe(true);
      expect(articleHits.every((h) => validateHit(h.hit).ok)).toBe(true);
      // Some articles are read through: the autogoal's event, once a page view at most.
      expect(articleHits.filter((h) => h.hit.t === 'event' && h.hit.en === 'scroll').length).toBeGreaterThan(0);
    });

    it('sources as designed: search first (Yandex ahead of Google), then direct, Dzen, social, messengers, ads', () => {
      const g = stats.byGroup;
      expect(share(g.search, visits)).toBeGreaterThan(0.3);
      expect(share(g.search, visits)).toBeLessThan(0.42);
      expect(share(g.direct, visits)).toBeGreaterThan(0.15);
      expect(share(g.direct, visits)).toBeLessThan(0.25);
      expect(share(g.recommend, visits)).toBeGreaterThan(0.07);
      expect(share(g.social, visits)).toBeGreaterThan(0.05);
      expect(share(g.messenger, visits)).toBeGreaterThan(0.05);
      expect(share(g.ad, visits)).toBeGreaterThan(0.03);
      expect(share(g.ad, visits)).toBeLessThan(0.08);
      expect(stats.bySource.yandex!).toBeGreaterThan(2 * stats.bySource.google!);
      for (const key of ['dzen', 'yandex_news', 'vk', 'telegram', 'ok', 'mail_ru', 'internal', 'links', 'yandex_direct', 'google_ads']) {
        expect(stats.bySource[key], key).toBeGreaterThan(0);
      }
      // Paid clicks carry their click ids; part of them UTM tags too.
      const landings = hits.filter((h) => h.hit.t === 'pageview' && h.hit.u.includes('utm_medium=cpc'));
      expect(landings.some((h) => h.hit.u.includes('yclid='))).toBe(true);
      expect(landings.some((h) => h.hit.u.includes('gclid='))).toBe(true);
      expect(hits.some((h) => h.hit.r.includes('yandex.ru/search/?text='))).toBe(true);
    });

    it('devices in Russian proportions: about 62 % phones, 35 % computers, 3 % tablets', () => {
      expect(share(stats.byKind.mobile, visits)).toBeGreaterThan(0.57);
      expect(share(stats.byKind.mobile, visits)).toBeLessThan(0.67);
      expect(share(stats.byKind.desktop, visits)).toBeGreaterThan(0.3);
      expect(share(stats.byKind.tablet, visits)).toBeGreaterThan(0.01);
      expect(share(stats.byKind.tablet, visits)).toBeLessThan(0.05);
    });

    it('places: mostly Russia, some Belarus, Kazakhstan, Germany and VPN exits', () => {
      const c = stats.byCountry;
      expect(share(c.RU, visits)).toBeGreaterThan(0.83);
      expect(share(c.RU, visits)).toBeLessThan(0.9);
      for (const country of ['BY', 'KZ', 'DE', 'NL', 'FI', 'US']) {
        expect(share(c[country], visits), country).toBeGreaterThan(0.005);
        expect(share(c[country], visits), country).toBeLessThan(0.05);
      }
    });

    it('a daily rhythm in Moscow time: the day busier than the night', () => {
      const byHour = new Array<number>(24).fill(0);
      for (const h of hits) byHour[new Date(h.at + MOSCOW_OFFSET_MS).getUTCHours()]! += 1;
      expect(byHour[12]!).toBeGreaterThan(5 * byHour[4]!);
    });
  });

  it('remembers at most the visitor pool it is given, however many visitors come', () => {
    const { stats } = run(options(100_000, 35, 3, { visitorPool: 1_000 }));
    expect(stats.pool).toBe(1_000);
    expect(stats.newVisitors).toBeGreaterThan(5_000);
    expect(stats.returningVisits).toBeGreaterThan(0);
  });

  it('refuses a negative size, no size or two, and an empty period', () => {
    expect(() => run(options(-1))).toThrow(/whole number/);
    expect(() => run(options(0, 35, 1, { events: undefined, visits: 1.5 }))).toThrow(/visits must be a whole number/);
    expect(() => run(options(0, 35, 1, { events: undefined }))).toThrow(/exactly one of events, visits and visitsPerDay, got none/);
    expect(() => run(options(10, 35, 1, { visits: 10 }))).toThrow(/got events, visits/);
    expect(() => run({ ...options(10), untilMs: UNTIL - 35 * DAY })).toThrow(/period is empty/);
  });
});
