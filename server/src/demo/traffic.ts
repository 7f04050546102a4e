import { HIT_TYPES, MOSCOW_OFFSET_MS, moscowDate, type AcceptedHit, type Hit, type HitType } from '@stat/schemas';
import { DEVICE_PICK, type Device, type DeviceKind } from './devices.js';
import { connection, ipText, visitAddress, type Region } from './places.js';
import { Random } from './random.js';
import {
  ABOUT,
  HOME,
  OUTBOUND,
  SUBSCRIBE,
  moscowDay,
  pickArticle,
  relatedArticle,
  searchPage,
  sectionPage,
  tagPage,
  type Page,
} from './site.js';
import { pickSource, type SourceGroup } from './sources.js';

/**
 * Realistic traffic for a Russian news site, sized in events and deterministic for a seed:
 * a daily and weekly rhythm in Moscow time with news spikes; visitors who come back over days;
 * visits of several pages with dwell times, block shows and clicks, engagement and reading
 * depth; the sources, devices and places of a real audience (sources.ts, devices.ts,
 * networks.ts). Memory stays bounded whatever the size: visits are generated in time order,
 * hits leave in five-minute slices, and only a bounded pool of visitors is remembered.
 */
export interface TrafficOptions {
  projectId: number;
  /** the site's origin, e.g. https://demo.stat.example; every page is on it */
  siteUrl: string;
  /**
   * The size, exactly one of: `events`, hits of every type, exactly this many (the last visit is
   * cut to fit); `visits`, exactly this many visits, whole; `visitsPerDay`, the visits of an
   * ordinary day (no news spike, the average weekday factor) at the same density over the
   * period, so that a partial day or a few hours get their share by the time shape.
   */
  events?: number;
  visits?: number;
  visitsPerDay?: number;
  /** the period: its first instant and the instant traffic stops (epoch ms) */
  fromMs: number;
  untilMs: number;
  seed: number;
  /** visitors remembered to come back; the default grows with the size (at most 200 000) */
  visitorPool?: number;
}

/** What a run generated, for the operator and the tests. */
export interface TrafficStats {
  events: number;
  pageViews: number;
  visits: number;
  /** visits by visitors seen before */
  returningVisits: number;
  /** visitors first seen in this run */
  newVisitors: number;
  /** visitors remembered at the end (never above the pool's capacity) */
  pool: number;
  byType: Record<HitType, number>;
  /** visits by source key, source group, device kind and country */
  bySource: Record<string, number>;
  byGroup: Partial<Record<SourceGroup, number>>;
  byKind: Record<DeviceKind, number>;
  byCountry: Record<string, number>;
  /** visits by place, 'RU Moscow' */
  byPlace: Record<string, number>;
  /** visits by the Moscow date they start on, '2026-11-21' */
  byDate: Record<string, number>;
}

/** Visits start in these slices; the hits of each slice leave together, in time order. */
const SLICE_MS = 5 * 60_000;
const DAY = 86_400_000;
const SECOND = 1000;
const MINUTE = 60_000;

/** Visits by Moscow hour (relative). */
const HOUR_WEIGHTS = [
  0.9, 0.6, 0.4, 0.3, 0.3, 0.4, 0.8, 1.6, 2.6, 3.4, 3.9, 4.1, 4.2, 4.1, 4.0, 3.9, 3.8, 3.7, 3.6, 3.8, 4.1, 3.9, 2.9, 1.8,
];
/** Visits by Moscow weekday, Sunday first as getUTCDay. */
const WEEKDAY_FACTOR = [0.72, 1.05, 1.08, 1.06, 1.04, 0.98, 0.7];

/** Share of visits that a full pool gives to returning visitors, before their loyalty decides. */
const RETURN_CHANCE = 0.55;
/** Tries at finding a returning visitor who is not in a visit already and is loyal enough. */
const RETURN_TRIES = 4;
/** Share of visitors signed in on the site (their hits carry the site's user id). */
const MEMBER_SHARE = 0.04;
const MAX_PAGES = 40;

interface Visitor {
  id: string;
  device: Device;
  screen: readonly [number, number];
  region: Region;
  /** on a mobile network: a new address each visit */
  mobile: boolean;
  /** the address of a fixed line (or the first one on a mobile network) */
  home: number;
  /** 0..1: how likely this visitor is to be the one who comes back */
  loyalty: number;
  /** end of the visitor's latest visit, epoch ms */
  lastAt: number;
  uid: string | undefined;
}

/**
 * The visitors who may come back: at most `capacity`, a new visitor taking a random place when
 * full (the others stop coming, as readers do).
 */
class VisitorPool {
  private readonly list: Visitor[] = [];

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.list.length;
  }

  /** A visitor who comes back at `at`, or null for a new one. */
  returning(random: Random, at: number): Visitor | null {
    // The pool fills at the start of a run; until a quarter full, fewer visits are returns.
    const chance = RETURN_CHANCE * Math.min(1, this.list.length / Math.max(1, this.capacity * 0.25));
    if (this.list.length === 0 || !random.chance(chance)) return null;
    for (let i = 0; i < RETURN_TRIES; i++) {
      const v = this.list[random.int(this.list.length)] as Visitor;
      if (v.lastAt + 30 * MINUTE < at && random.chance(v.loyalty)) return v;
    }
    return null;
  }

  add(random: Random, visitor: Visitor): void {
    if (this.list.length < this.capacity) this.list.push(visitor);
    else this.list[random.int(this.capacity)] = visitor;
  }
}

/** Visits by the time of the Moscow day (ms since Moscow midnight), relative: the hours' weights, interpolated. */
function timeOfDayWeight(msOfDay: number): number {
  const hour = msOfDay / 3_600_000;
  const h = Math.floor(hour);
  const frac = hour - h;
  return (HOUR_WEIGHTS[h] as number) * (1 - frac) + (HOUR_WEIGHTS[(h + 1) % 24] as number) * frac;
}

/** The weight of an ordinary whole day (no spike, the average weekday), the unit of `visitsPerDay`. */
const ORDINARY_DAY_WEIGHT = ((): number => {
  let day = 0;
  for (let start = 0; start < DAY; start += SLICE_MS) day += timeOfDayWeight(start + SLICE_MS / 2);
  return (day * WEEKDAY_FACTOR.reduce((a, b) => a + b, 0)) / WEEKDAY_FACTOR.length;
})();

/** The relative weight of each slice of the period: hour of the Moscow day, weekday, trend, spikes. */
function sliceWeights(fromMs: number, untilMs: number, random: Random): Float64Array {
  const slices = Math.ceil((untilMs - fromMs) / SLICE_MS);
  const weights = new Float64Array(slices);
  const dayFactors = new Map<number, number>();
  let spike = 1;
  const factorOf = (day: number): number => {
    let f = dayFactors.get(day);
    if (f === undefined) {
      const weekday = (day + 4) % 7; // 1970-01-01 was a Thursday
      // A big news day now and then, fading over the next days.
      spike = random.chance(0.05) ? 1.6 + random.next() * 0.8 : 1 + (spike - 1) * 0.35;
      f = (WEEKDAY_FACTOR[weekday] as number) * (1 + 0.1 * Math.sin((2 * Math.PI * day) / 28)) * random.logNormal(1, 0.07) * spike;
      dayFactors.set(day, f);
    }
    return f;
  };
  for (let s = 0; s < slices; s++) {
    const start = fromMs + s * SLICE_MS;
    const end = Math.min(start + SLICE_MS, untilMs);
    const mid = (start + end) / 2 + MOSCOW_OFFSET_MS;
    const w = timeOfDayWeight(((mid % DAY) + DAY) % DAY);
    weights[s] = w * factorOf(moscowDay(start)) * ((end - start) / SLICE_MS);
  }
  return weights;
}

/** How long a reader stays on a page before the next one or leaving, ms. */
function dwellMs(random: Random, page: Page, kind: DeviceKind): number {
  let median: number;
  switch (page.kind) {
    case 'article':
      median = page.readMinutes * MINUTE * 0.55;
      break;
    case 'home':
      median = 20 * SECOND;
      break;
    case 'section':
      median = 15 * SECOND;
      break;
    case 'tag':
    case 'search':
      median = 12 * SECOND;
      break;
    case 'subscribe':
      median = 35 * SECOND;
      break;
    case 'about':
      median = 25 * SECOND;
      break;
  }
  const ms = random.logNormal(median * (kind === 'mobile' ? 0.85 : 1), 0.9);
  return Math.round(Math.min(25 * MINUTE, Math.max(3 * SECOND, ms)));
}

/**
 * The page a reader opens next, and the block whose link they clicked (null: no marked block;
 * the header menu is none, as it is on every page and would send a show with each page view).
 */
function navigate(random: Random, page: Page, today: number): [Page, string | null] {
  const r = random.next();
  switch (page.kind) {
    case 'article':
      if (r < 0.45) return [relatedArticle(random, today, page), 'related'];
      if (r < 0.63) return [pickArticle(random, today, true), 'popular'];
      if (r < 0.78) return [sectionPage(page.section), null];
      if (r < 0.9) return [HOME, null];
      if (r < 0.95) return [tagPage(random), null];
      if (r < 0.98) return [searchPage(random), null];
      return [SUBSCRIBE, 'subscribe_banner'];
    case 'home':
      if (r < 0.5) return [pickArticle(random, today, true), 'main_feed'];
      if (r < 0.75) return [pickArticle(random, today, true), 'top_news'];
      if (r < 0.93) return [sectionPage(random.int(10)), null];
      if (r < 0.97) return [searchPage(random), null];
      if (r < 0.99) return [tagPage(random), null];
      return [ABOUT, null];
    case 'section': {
      if (r < 0.85) return [relatedArticle(random, today, page), 'section_feed'];
      if (r < 0.93) {
        const n = Number(/page=(\d+)/.exec(page.path)?.[1] ?? '1');
        return [sectionPage(page.section, n + 1), null];
      }
      return [HOME, null];
    }
    // A reader who searched sometimes looks for the newsletter next, and then more often subscribes:
    // the demo's funnel «Поиск и подписка» (search, then subscribe) has visitors past its first step.
    case 'search':
      if (r < 0.15) return [SUBSCRIBE, null];
      return r < 0.9 ? [pickArticle(random, today, r < 0.5), null] : [HOME, null];
    case 'tag':
      return r < 0.9 ? [pickArticle(random, today, r < 0.5), null] : [HOME, null];
    case 'subscribe':
    case 'about':
      return r < 0.6 ? [HOME, null] : [pickArticle(random, today, true), null];
  }
}

/** Generates the hits of one run; see TrafficOptions. Yields each slice's hits in time order. */
export function* generateTraffic(options: TrafficOptions): Generator<AcceptedHit[], TrafficStats> {
  const { projectId, fromMs, untilMs } = options;
  const sizes = (['events', 'visits', 'visitsPerDay'] as const).filter((key) => options[key] !== undefined);
  if (sizes.length !== 1) throw new Error(`give exactly one of events, visits and visitsPerDay, got ${sizes.length === 0 ? 'none' : sizes.join(', ')}`);
  const size = sizes[0] as 'events' | 'visits' | 'visitsPerDay';
  const given = options[size] as number;
  if (!Number.isInteger(given) || given < 0) throw new Error(`${size} must be a whole number, got ${given}`);
  if (!(untilMs > fromMs)) throw new Error('the period is empty: untilMs must be after fromMs');
  const site = options.siteUrl.replace(/\/+$/, '');
  const random = new Random(options.seed);
  const weights = sliceWeights(fromMs, untilMs, random.fork());
  let sum = 0;
  for (const w of weights) sum += w;
  /** What the slices' shares divide: events, or visits. */
  const byVisits = size !== 'events';
  const total = size === 'visitsPerDay' ? Math.round((given * sum) / ORDINARY_DAY_WEIGHT) : given;
  // Six or seven events a visit: about the same pool for the same traffic however it is sized.
  const poolDefault = Math.round(byVisits ? total / 5 : total / 30);
  const pool = new VisitorPool(options.visitorPool ?? Math.min(200_000, Math.max(500, poolDefault)));
  const stats: TrafficStats = {
    events: 0,
    pageViews: 0,
    visits: 0,
    returningVisits: 0,
    newVisitors: 0,
    pool: 0,
    byType: Object.fromEntries(HIT_TYPES.map((t) => [t, 0])) as Record<HitType, number>,
    bySource: {},
    byGroup: {},
    byKind: { mobile: 0, tablet: 0, desktop: 0 },
    byCountry: {},
    byPlace: {},
    byDate: {},
  };

  const newVisitor = (at: number): Visitor => {
    const device = DEVICE_PICK.pick(random);
    const place = connection(random, device.kind);
    stats.newVisitors += 1;
    return {
      // As the counter makes them: random base-36 digits, then the first visit's time.
      id: random.uint32().toString(36) + random.uint32().toString(36) + at.toString(36),
      device,
      screen: device.screens.pick(random),
      region: place.region,
      mobile: place.mobile,
      home: place.address,
      loyalty: random.next() ** 2,
      lastAt: at,
      uid: random.chance(MEMBER_SHARE) ? `u${100_000 + random.int(900_000)}` : undefined,
    };
  };

  /** One visit starting at `start`: its hits in time order, none at or after untilMs. */
  const visit = (start: number): AcceptedHit[] => {
    const known = pool.returning(random, start);
    const visitor = known ?? newVisitor(start);
    if (!known) pool.add(random, visitor);
    const { device } = visitor;
    const kind = device.kind;
    const today = moscowDay(start);
    const country = visitor.region.place.country;
    const source = pickSource(random, kind, known !== null);
    const arrival = { random, today, country, kind, site };
    let page = source.landing(arrival);
    const entry = source.entry(arrival, page);
    const ip = ipText(visitAddress(random, visitor.region, visitor.mobile, visitor.home));
    const ua = device.ua;
    const [sw, sh] = visitor.screen;
    const uid = visitor.uid;
    const out: AcceptedHit[] = [];
    const push = (at: number, hit: Hit): void => {
      if (at >= untilMs) return;
      if (uid !== undefined) hit.uid = uid;
      out.push({ id: random.uuid(), at, ip, ua, hit });
    };
    // Hits other than page views carry only their own fields, as the counter sends them, and an
    // article page's material (every hit of its page view, as the full counter sends it).
    const other = (u: string, t: HitType): Hit => ({ p: projectId, t, u, r: '', ti: '', sw: 0, sh: 0, v: visitor.id, ...page.material });

    stats.visits += 1;
    if (known) stats.returningVisits += 1;
    stats.bySource[source.key] = (stats.bySource[source.key] ?? 0) + 1;
    stats.byGroup[source.group] = (stats.byGroup[source.group] ?? 0) + 1;
    stats.byKind[kind] += 1;
    stats.byCountry[country] = (stats.byCountry[country] ?? 0) + 1;
    const place = `${country} ${visitor.region.place.city}`;
    stats.byPlace[place] = (stats.byPlace[place] ?? 0) + 1;
    const date = moscowDate(start);
    stats.byDate[date] = (stats.byDate[date] ?? 0) + 1;

    const stay = source.stay * (kind === 'desktop' ? 1.1 : kind === 'mobile' ? 0.95 : 1);
    let url = `${site}${page.path}${entry.query ? (page.path.includes('?') ? '&' : '?') + entry.query : ''}`;
    let referrer = entry.referrer;
    let t = start;
    /** the kind of the page before this one in the visit */
    let before: Page['kind'] | null = null;
    for (let depth = 0; ; depth++) {
      push(t, { p: projectId, t: 'pageview', u: url, r: referrer, ti: page.title, sw, sh, v: visitor.id, ...page.material });
      const dwell = dwellMs(random, page, kind);
      const leave = t + dwell;
      const last = depth + 1 >= MAX_PAGES || !random.chance(stay * Math.pow(0.97, depth));
      const [next, via] = last ? [null, null] : navigate(random, page, today);
      // Visible time: a tab left in the background does not count.
      const visible = Math.max(1, Math.round(dwell * (0.55 + 0.45 * random.next())));
      let rp = 0;
      let sp = 0;
      // Block analytics: a marked block sends its show once a page view, when it comes into
      // view, so a click inside a block always follows its show.
      const shown = new Set<string>();
      const show = (at: number, block: string): void => {
        if (shown.has(block)) return;
        shown.add(block);
        push(at, { ...other(url, 'show'), bl: block });
      };
      if (page.kind === 'article') {
        const ratio = visible / (page.readMinutes * MINUTE * (kind === 'mobile' ? 1.1 : 1));
        rp = Math.min(100, Math.max(0, Math.round(100 * ratio * random.logNormal(1, 0.35))));
        sp = Math.min(100, rp + random.int(12));
        if (random.chance(0.12)) show(t + Math.min(3 * SECOND, dwell >> 1), 'subscribe_banner');
        // The most-read list sits beside the text on computers, under it on phones.
        if (kind === 'mobile' ? sp >= 85 && random.chance(0.8) : random.chance(0.6)) show(t + Math.round(dwell * (kind === 'mobile' ? 0.85 : 0.2)), 'popular');
        if (random.chance(0.04)) {
          const video = { video_id: `v${random.int(500)}` };
          push(t + Math.round(visible * 0.3), { ...other(url, 'event'), ec: 'media', en: 'video_play', ep: video });
          if (random.chance(0.35)) {
            push(t + Math.round(visible * 0.7), { ...other(url, 'event'), ec: 'media', en: 'video_complete', ep: { ...video, seconds: 30 + random.int(270) } });
          }
        }
        if (rp >= 70 && random.chance(0.9)) show(t + Math.round(dwell * 0.8), 'related');
        if (random.chance(0.012)) {
          const network = random.of(['telegram', 'vk', 'ok', 'whatsapp', 'copy_link']);
          push(t + Math.round(dwell * 0.9), { ...other(url, 'event'), ec: 'cv', en: 'share', ep: { network } });
        }
        if (random.chance(0.01)) push(t + Math.round(dwell * 0.85), { ...other(url, 'event'), ec: 'cv', en: 'comment_open' });
      } else if (page.kind === 'home') {
        show(t + SECOND, 'top_news');
        if (random.chance(0.8)) show(t + Math.min(4 * SECOND, dwell >> 1), 'main_feed');
      } else if (page.kind === 'section') {
        show(t + SECOND, 'section_feed');
      } else if (page.kind === 'search') {
        const query = decodeURIComponent(page.path.slice(page.path.indexOf('q=') + 2));
        push(t + 400, { ...other(url, 'event'), ec: 'cv', en: 'site_search', ep: { query, results: random.int(60) } });
      } else if (page.kind === 'subscribe' && random.chance(before === 'search' ? 0.6 : 0.25)) {
        push(t + Math.round(dwell * 0.8), { ...other(url, 'event'), ec: 'cv', en: 'newsletter_subscribe', ep: { form: 'page' } });
      }
      if (via !== null && random.chance(0.9)) {
        show(Math.max(t, leave - 2 * SECOND), via);
        push(leave - 250, { ...other(url, 'click'), bl: via });
      }
      if (last && page.kind === 'article' && random.chance(0.06)) push(leave - 300, { ...other(url, 'outbound'), l: random.of(OUTBOUND) });
      // Engagement and reading depth go when the page is hidden or left; phones lose more of them.
      if (random.chance(kind === 'desktop' ? 0.92 : 0.84)) {
        if (random.chance(0.1) && visible > 10) {
          const first = Math.round(visible * 0.4);
          push(t + Math.round(dwell * 0.4), { ...other(url, 'engagement'), d: first });
          push(leave - 120, { ...other(url, 'engagement'), d: visible - first });
        } else {
          push(leave - 120, { ...other(url, 'engagement'), d: visible });
        }
        if (page.kind === 'article') push(leave - 110, { ...other(url, 'read'), sp, rp });
      }
      // Read through: the counter's autogoal «Дочитывание статьи», once a page view, sent when the
      // article's end comes into view (not with the page's last hits, so it is never lost with them).
      if (page.kind === 'article' && rp === 100) {
        push(t + Math.round(dwell * 0.9), { ...other(url, 'event'), ec: 'base', en: 'scroll' });
      }
      if (next === null || leave >= untilMs) {
        visitor.lastAt = leave;
        break;
      }
      referrer = url;
      before = page.kind;
      page = next;
      url = `${site}${page.path}`;
      t = leave;
    }
    // Hits of one page are made in the order of their kinds; put them in the order of time.
    out.sort((a, b) => a.at - b.at);
    return out;
  };

  const buckets = new Map<number, AcceptedHit[]>();
  let scheduled = 0;
  let cumulative = 0;
  for (let s = 0; s < weights.length; s++) {
    cumulative += weights[s] as number;
    // Visits start in this slice until the hits (or visits) made so far reach its share of the total.
    const target = s === weights.length - 1 ? total : Math.round((total * cumulative) / sum);
    const sliceStart = fromMs + s * SLICE_MS;
    const sliceLength = Math.min(SLICE_MS, untilMs - sliceStart);
    while (scheduled < target) {
      const hits = visit(sliceStart + random.int(sliceLength));
      const keep = byVisits ? hits.length : Math.min(hits.length, total - scheduled);
      for (let i = 0; i < keep; i++) {
        const hit = hits[i] as AcceptedHit;
        const index = Math.floor((hit.at - fromMs) / SLICE_MS);
        let bucket = buckets.get(index);
        if (!bucket) buckets.set(index, (bucket = []));
        bucket.push(hit);
        stats.byType[hit.hit.t] += 1;
      }
      scheduled += byVisits ? 1 : keep;
    }
    const out = buckets.get(s);
    if (out) {
      buckets.delete(s);
      out.sort((a, b) => a.at - b.at);
      stats.events += out.length;
      yield out;
    }
  }
  stats.pageViews = stats.byType.pageview;
  stats.pool = pool.size;
  return stats;
}

const PAGE_VIEW_ONLY = new Set(['r', 'ti', 'sw', 'sh']);

/**
 * A hit as the counter puts it on the wire: page views with referrer, title and screen; other
 * hits with only their own fields (the collector's validation fills the defaults back in).
 */
export function wireHit(hit: Hit): Record<string, unknown> {
  if (hit.t === 'pageview') return hit;
  const wire: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(hit)) if (!PAGE_VIEW_ONLY.has(key)) wire[key] = value;
  return wire;
}
