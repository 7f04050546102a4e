import { beforeAll, describe, expect, it } from 'vitest';
import { MOSCOW_OFFSET_MS, moscowDate, moscowDayStart, type AcceptedHit } from '@stat/schemas';
import { DEMO_VISITS_PER_DAY, demoTraffic } from './seed.js';
import { generateTraffic, type TrafficStats } from './traffic.js';

// The demo project's own traffic, as the seed generates it at a fixed "now" (a Saturday, 17:00
// in Moscow): 35 days at DEMO_VISITS_PER_DAY. Counted as it streams (a million hits are not kept):
// every kind of data a report shows must be there.
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 21, 14, 0);
const FROM = moscowDayStart(moscowDate(NOW - 34 * DAY));

/** Counts by key. */
class Tally {
  readonly counts = new Map<string, number>();
  add(key: string, n = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }
  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }
  get size(): number {
    return this.counts.size;
  }
}

const kinds = {
  hitTypes: new Tally(),
  /** page views whose referrer carries a search phrase (Yandex text=, Google/Mail.ru/Bing q=) */
  searchPhrases: new Tally(),
  /** landing addresses by UTM campaign, _openstat tag, and ad click id */
  utmCampaigns: new Tally(),
  utmMediums: new Tally(),
  openstat: 0,
  clickIds: new Tally(),
  shows: new Tally(),
  clicks: new Tally(),
  /** custom events by class/name, and those with parameters */
  events: new Tally(),
  eventsWithParams: 0,
  /** reading depth hits on article pages, and those read to the end */
  reads: 0,
  readToEnd: 0,
  outbound: new Tally(),
  userIds: new Set<string>(),
  userAgents: new Set<string>(),
  screens: new Set<string>(),
  /** page views by Moscow hour */
  byHour: new Tally(),
  visitorDays: new Map<string, Set<number>>(),
  firstAt: Infinity,
  lastAt: -Infinity,
};
let stats: TrafficStats;

const moscowDayOf = (at: number): number => Math.floor((at + MOSCOW_OFFSET_MS) / DAY);

function count(h: AcceptedHit): void {
  const { hit } = h;
  kinds.hitTypes.add(hit.t);
  kinds.firstAt = Math.min(kinds.firstAt, h.at);
  kinds.lastAt = Math.max(kinds.lastAt, h.at);
  if (hit.uid !== undefined) kinds.userIds.add(hit.uid);
  switch (hit.t) {
    case 'pageview': {
      kinds.userAgents.add(h.ua);
      kinds.screens.add(`${hit.sw}x${hit.sh}`);
      const day = moscowDayOf(h.at);
      kinds.byHour.add(String(new Date(h.at + MOSCOW_OFFSET_MS).getUTCHours()));
      const days = kinds.visitorDays.get(hit.v) ?? new Set<number>();
      days.add(day);
      kinds.visitorDays.set(hit.v, days);
      if (/[?&](text|q)=[^&]/.test(hit.r)) kinds.searchPhrases.add(new URL(hit.r).hostname);
      const query = new URL(hit.u).searchParams;
      const campaign = query.get('utm_campaign');
      if (campaign) kinds.utmCampaigns.add(campaign);
      const medium = query.get('utm_medium');
      if (medium) kinds.utmMediums.add(medium);
      if (query.has('_openstat')) kinds.openstat += 1;
      for (const id of ['yclid', 'gclid', 'rb_clickid']) if (query.has(id)) kinds.clickIds.add(id);
      break;
    }
    case 'show':
      kinds.shows.add(hit.bl ?? '');
      break;
    case 'click':
      kinds.clicks.add(hit.bl ?? '');
      break;
    case 'event':
      kinds.events.add(`${hit.ec}/${hit.en}`);
      if (hit.ep !== undefined && Object.keys(hit.ep).length > 0) kinds.eventsWithParams += 1;
      break;
    case 'read':
      if (/\/\d{8}\/[a-z]+-\d+\.html$/.test(new URL(hit.u).pathname)) kinds.reads += 1;
      if (hit.rp === 100) kinds.readToEnd += 1;
      break;
    case 'outbound':
      kinds.outbound.add(new URL(hit.l ?? '').hostname);
      break;
    default:
      break;
  }
}

beforeAll(() => {
  const traffic = generateTraffic(demoTraffic(FROM, NOW, DEMO_VISITS_PER_DAY));
  for (;;) {
    const next = traffic.next();
    if (next.done) {
      stats = next.value;
      break;
    }
    for (const hit of next.value) count(hit);
  }
}, 180_000);

describe('the demo project has every kind of data a report shows', () => {
  it(`about ${DEMO_VISITS_PER_DAY} visits a day over 35 days, today up to now`, () => {
    const today = moscowDate(NOW);
    const dates = Object.keys(stats.byDate).sort();
    expect(dates).toHaveLength(35);
    expect(dates[0]).toBe(moscowDate(FROM));
    expect(dates[34]).toBe(today);
    expect(kinds.firstAt).toBeGreaterThanOrEqual(FROM);
    expect(kinds.lastAt).toBeLessThan(NOW);
    // News spikes make the average day a little busier than the ordinary one.
    const wholeDays = (stats.visits - stats.byDate[today]!) / 34;
    expect(wholeDays).toBeGreaterThan(DEMO_VISITS_PER_DAY * 0.9);
    expect(wholeDays).toBeLessThan(DEMO_VISITS_PER_DAY * 1.25);
    // Today is partial: 17:00 of a Saturday has less than an average day behind it.
    expect(stats.byDate[today]!).toBeGreaterThan(0);
    expect(stats.byDate[today]!).toBeLessThan(wholeDays);
  });

  it('every hit type the counter sends', () => {
    for (const type of ['pageview', 'event', 'click', 'show', 'outbound', 'engagement', 'read']) expect(kinds.hitTypes.get(type), type).toBeGreaterThan(0);
    expect(kinds.hitTypes.get('pageview')).toBe(stats.pageViews);
  });

  it('visits from every kind of source: search with phrases, social, messengers, aggregators, recommenders, ads, exchanges, links, QR, mail, internal, direct', () => {
    for (const group of ['search', 'recommend', 'aggrnews', 'social', 'messenger', 'direct', 'email', 'internal', 'links', 'ad', 'exchange', 'qr'] as const) {
      expect(stats.byGroup[group], group).toBeGreaterThan(0);
    }
    for (const engine of ['yandex.ru', 'www.google.com', 'go.mail.ru', 'www.bing.com']) expect(kinds.searchPhrases.get(engine), engine).toBeGreaterThan(0);
  });

  it('UTM campaigns of ads, social posts, newsletters and QR codes; _openstat tags; ad click ids', () => {
    expect(kinds.utmCampaigns.size).toBeGreaterThan(10);
    for (const medium of ['cpc', 'cpm', 'social', 'email', 'offline']) expect(kinds.utmMediums.get(medium), medium).toBeGreaterThan(0);
    expect(kinds.openstat).toBeGreaterThan(0);
    for (const id of ['yclid', 'gclid', 'rb_clickid']) expect(kinds.clickIds.get(id), id).toBeGreaterThan(0);
  });

  it('block analytics: shows and clicks of named blocks, every clicked block shown more often than clicked', () => {
    expect(kinds.shows.size).toBeGreaterThanOrEqual(5);
    expect(kinds.clicks.size).toBeGreaterThanOrEqual(5);
    for (const [block, clicks] of kinds.clicks.counts) {
      expect(block).not.toBe('');
      expect(kinds.shows.get(block), block).toBeGreaterThan(clicks);
    }
  });

  it('custom events of several classes and names, with parameters', () => {
    const classes = new Set([...kinds.events.counts.keys()].map((k) => k.split('/')[0]));
    expect(classes.size).toBeGreaterThanOrEqual(2);
    expect(kinds.events.size).toBeGreaterThanOrEqual(5);
    expect(kinds.eventsWithParams).toBeGreaterThan(0);
    expect(kinds.eventsWithParams).toBeLessThan(kinds.hitTypes.get('event'));
  });

  it('article reads with reading depth, some to the end; outbound links', () => {
    expect(kinds.reads).toBe(kinds.hitTypes.get('read'));
    expect(kinds.readToEnd).toBeGreaterThan(0);
    expect(kinds.outbound.size).toBeGreaterThan(3);
  });

  it('signed-in visitors with the site user id', () => {
    expect(kinds.userIds.size).toBeGreaterThan(0);
  });

  it('phones, computers and tablets: many browsers, systems and screens', () => {
    for (const kind of ['mobile', 'desktop', 'tablet'] as const) expect(stats.byKind[kind], kind).toBeGreaterThan(0);
    expect(kinds.userAgents.size).toBeGreaterThan(20);
    expect(kinds.screens.size).toBeGreaterThan(10);
    const agents = [...kinds.userAgents];
    for (const mark of ['YaBrowser', 'Firefox', 'Edg/', 'OPR/', 'SamsungBrowser', 'iPhone', 'iPad', 'Android', 'Windows NT', 'Macintosh']) {
      expect(agents.some((ua) => ua.includes(mark)), mark).toBe(true);
    }
  });

  it('places across Russian regions and abroad', () => {
    const places = Object.keys(stats.byPlace);
    expect(places.filter((p) => p.startsWith('RU ')).length).toBeGreaterThan(50);
    expect(Object.keys(stats.byCountry).filter((c) => c !== 'RU').length).toBeGreaterThanOrEqual(5);
  });

  it('returning visitors, some on later days', () => {
    expect(stats.returningVisits).toBeGreaterThan(0);
    const multiDay = [...kinds.visitorDays.values()].filter((days) => days.size >= 2).length;
    expect(multiDay).toBeGreaterThan(0);
  });

  it('a weekly rhythm (weekends quieter) and a daily one in Moscow time (noon busier than 4 am)', () => {
    let weekdays = 0;
    let weekdayCount = 0;
    let weekends = 0;
    let weekendCount = 0;
    for (const [date, n] of Object.entries(stats.byDate)) {
      if (date === moscowDate(NOW)) continue;
      const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
      if (weekday === 0 || weekday === 6) {
        weekends += n;
        weekendCount += 1;
      } else {
        weekdays += n;
        weekdayCount += 1;
      }
    }
    expect(weekdays / weekdayCount).toBeGreaterThan((1.2 * weekends) / weekendCount);
    expect(kinds.byHour.get('12')).toBeGreaterThan(5 * kinds.byHour.get('4'));
  });
});
