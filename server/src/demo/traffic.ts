import { moscowDayStart, type AcceptedHit } from '@stat/schemas';

/**
 * Generates realistic traffic for a site: a daily and weekly rhythm in Moscow time,
 * visitors who come back over days, visits of several pages, a mix of sources, devices and
 * screens. Deterministic for a seed, so the demo looks the same on every machine.
 */
export interface TrafficOptions {
  projectId: number;
  /** First Moscow day (YYYY-MM-DD) and the instant traffic stops (epoch ms, e.g. now). */
  fromDate: string;
  untilMs: number;
  /** Average visits on a weekday. */
  visitsPerDay: number;
  seed: number;
  siteUrl: string;
}

const HOUR_WEIGHTS = [
  0.9, 0.6, 0.4, 0.3, 0.3, 0.4, 0.8, 1.6, 2.6, 3.4, 3.9, 4.1, 4.2, 4.1, 4.0, 3.9, 3.8, 3.7, 3.6, 3.8, 4.1, 3.9, 2.9, 1.8,
];
const WEEKDAY_FACTOR = [0.72, 1.05, 1.08, 1.06, 1.04, 0.98, 0.7]; // Sunday first, as getUTCDay

const SECTIONS = ['news', 'articles', 'reviews', 'guides'] as const;
const TOPICS = [
  'ekonomika', 'tehnologii', 'sport', 'kultura', 'obshchestvo', 'nauka', 'avto', 'zdorovie', 'puteshestviya', 'nedvizhimost',
];
const TITLES: Record<string, string> = {
  news: 'Новости',
  articles: 'Статьи',
  reviews: 'Обзоры',
  guides: 'Гиды',
};

const REFERRERS: [string, number][] = [
  ['', 34],
  ['https://yandex.ru/search/?text=%D0%BD%D0%BE%D0%B2%D0%BE%D1%81%D1%82%D0%B8', 26],
  ['https://www.google.com/', 12],
  ['https://dzen.ru/', 8],
  ['https://vk.com/', 7],
  ['https://t.me/', 5],
  ['https://ok.ru/', 2],
  ['https://go.mail.ru/search?q=%D1%81%D1%82%D0%B0%D1%82%D1%8C%D0%B8', 3],
  ['https://news.example-partner.ru/digest', 3],
];

const DEVICES: { ua: string; sw: number; sh: number; weight: number }[] = [
  {
    ua: 'Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    sw: 412, sh: 915, weight: 30,
  },
  {
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    sw: 390, sh: 844, weight: 22,
  },
  {
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 YaBrowser/24.12.0.0 Safari/537.36',
    sw: 1920, sh: 1080, weight: 20,
  },
  {
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    sw: 1366, sh: 768, weight: 14,
  },
  {
    ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    sw: 1440, sh: 900, weight: 8,
  },
  {
    ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    sw: 1920, sh: 1080, weight: 6,
  },
];

/** A small, fast, seeded generator (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rnd: () => number, items: readonly [T, number][]): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let r = rnd() * total;
  for (const [item, w] of items) {
    r -= w;
    if (r < 0) return item;
  }
  return items[items.length - 1]![0];
}

/** A page's path and title; popular pages are popular (a Zipf-like pick). */
function page(rnd: () => number, site: string): { url: string; title: string } {
  if (rnd() < 0.22) return { url: `${site}/`, title: 'Главная — Демо-сайт' };
  const section = SECTIONS[Math.floor(rnd() * SECTIONS.length)]!;
  const topic = TOPICS[Math.floor(Math.pow(rnd(), 2) * TOPICS.length)]!;
  const n = 1 + Math.floor(Math.pow(rnd(), 3) * 60);
  return { url: `${site}/${section}/${topic}-${n}`, title: `${TITLES[section]}: ${topic} №${n} — Демо-сайт` };
}

const DAY = 86_400_000;

/** Yields the traffic in chronological batches of about a day each. */
export function* generateTraffic(options: TrafficOptions): Generator<AcceptedHit[]> {
  const rnd = random(options.seed);
  const visitors: { id: string; device: (typeof DEVICES)[number] }[] = [];
  const devicePick = DEVICES.map((d) => [d, d.weight] as [typeof d, number]);
  let counter = 0;
  for (let day = moscowDayStart(options.fromDate); day < options.untilMs; day += DAY) {
    const weekday = new Date(day + 3 * 3600_000).getUTCDay();
    const trend = 1 + 0.15 * Math.sin(day / (DAY * 9));
    const visits = Math.round(options.visitsPerDay * WEEKDAY_FACTOR[weekday]! * trend * (0.9 + rnd() * 0.2));
    const hits: AcceptedHit[] = [];
    for (let i = 0; i < visits; i++) {
      const hour = pick(rnd, HOUR_WEIGHTS.map((w, h) => [h, w] as [number, number]));
      let at = day + hour * 3600_000 + Math.floor(rnd() * 3600_000);
      if (at >= options.untilMs) continue;
      // About a third of visits come from visitors seen before.
      const returning = visitors.length > 50 && rnd() < 0.35;
      const visitor = returning
        ? visitors[Math.floor(Math.pow(rnd(), 1.5) * visitors.length)]!
        : { id: `demo${(counter++).toString(36)}x${Math.floor(rnd() * 1e9).toString(36)}`, device: pick(rnd, devicePick) };
      if (!returning) visitors.push(visitor);
      let referrer = pick(rnd, REFERRERS);
      const depth = 1 + Math.floor(-Math.log(1 - rnd()) * 1.6);
      for (let k = 0; k < depth && at < options.untilMs; k++) {
        const p = page(rnd, options.siteUrl);
        hits.push({
          id: uuidFrom(rnd),
          at,
          ip: '',
          ua: visitor.device.ua,
          hit: { p: options.projectId, t: 'pageview', u: p.url, r: referrer, ti: p.title, sw: visitor.device.sw, sh: visitor.device.sh, v: visitor.id },
        });
        referrer = p.url;
        at += 10_000 + Math.floor(rnd() * 170_000);
      }
    }
    hits.sort((a, b) => a.at - b.at);
    yield hits;
  }
}

function uuidFrom(rnd: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(rnd() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
