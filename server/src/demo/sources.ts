import type { DeviceKind } from './devices.js';
import { Weighted, type Random } from './random.js';
import { HOME, SECTIONS, SUBSCRIBE, pickArticle, sectionPage, type Page } from './site.js';

/** Where a visit comes from, grouped as a report would show it. */
export type SourceGroup =
  | 'search'
  | 'recommend'
  | 'aggrnews'
  | 'social'
  | 'messenger'
  | 'direct'
  | 'email'
  | 'internal'
  | 'links'
  | 'ad'
  | 'exchange'
  | 'qr';

/** What a source knows of the visit it starts. */
interface Arrival {
  random: Random;
  /** Moscow day number of the visit */
  today: number;
  country: string;
  kind: DeviceKind;
  /** the site's origin, e.g. https://demo.stat.example */
  site: string;
}

/** A source of visits: its share, what page it lands on, and the referrer and tags it brings. */
export interface Source {
  key: string;
  group: SourceGroup;
  /** percent of new visitors' visits on an average device */
  share: number;
  /** share multipliers by device kind and for returning visitors */
  factors?: Partial<Record<DeviceKind | 'returning', number>>;
  /** chance that a reader opens one more page, after each page */
  stay: number;
  landing(a: Arrival): Page;
  /** the referrer and the landing address's query (without '?') */
  entry(a: Arrival, landing: Page): { referrer: string; query: string };
}

const enc = encodeURIComponent;

/** What someone typed to find the landing page: a phrase of its section, or the site's name. */
function phraseFor(a: Arrival, landing: Page): string {
  if (landing.section >= 0) return a.random.of((SECTIONS[landing.section] ?? SECTIONS[0]!).phrases);
  return a.random.chance(0.5) ? 'демо медиа' : 'демо медиа новости';
}

const landAny = (a: Arrival): Page => {
  const r = a.random.next();
  if (r < 0.85) return pickArticle(a.random, a.today, false);
  if (r < 0.93) return sectionPage(a.random.int(SECTIONS.length));
  return HOME;
};
const landFresh = (a: Arrival): Page => pickArticle(a.random, a.today, true);
const landShared = (a: Arrival): Page => (a.random.chance(0.9) ? pickArticle(a.random, a.today, true) : HOME);
const landDirect = (a: Arrival): Page => {
  const r = a.random.next();
  if (r < 0.65) return HOME;
  if (r < 0.95) return pickArticle(a.random, a.today, false);
  return sectionPage(a.random.int(SECTIONS.length));
};
const landAd = (a: Arrival): Page => {
  const r = a.random.next();
  if (r < 0.35) return SUBSCRIBE;
  if (r < 0.8) return pickArticle(a.random, a.today, true);
  return HOME;
};

const none = { referrer: '', query: '' };
const YANDEX_REGIONS = ['213', '2', '65', '54', '43', '47', '51', '35', '39', '172'];
const CAMPAIGNS = ['podpiska_nov26', 'brand_search', 'rsya_retarget', 'ekonomika_promo'];

/** A Yandex Direct click id (a 19–20 digit number) or a myTarget one. */
function digits(random: Random, n: number): string {
  let s = String(1 + random.int(9));
  while (s.length < n) s += String(random.int(10));
  return s;
}

/** Yandex Direct's _openstat tag: 'direct.yandex.ru;campaign;ad;place' in base64url, as Direct writes it. */
function openstat(random: Random, place: string): string {
  const campaign = 40_000_000 + random.int(4) * 1_111;
  return Buffer.from(`direct.yandex.ru;${campaign};${9_000_000_000 + random.int(9_999)};${place}`).toString('base64url');
}

/** A Google Ads click id (base64url-like, as Google writes them). */
function gclid(random: Random): string {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
  let s = 'Cj0KCQiA';
  for (let i = 0; i < 80; i++) s += abc[random.int(abc.length)];
  return `${s}_BwE`;
}

function yandexHost(country: string): string {
  return country === 'KZ' ? 'yandex.kz' : country === 'BY' ? 'yandex.by' : 'yandex.ru';
}

/**
 * The sources of a Russian news site: Yandex well ahead of Google in search, Dzen and Yandex
 * News among the recommenders, VK, Telegram and OK among the social networks and messengers,
 * paid clicks from Yandex Direct (yclid), VK Ads, Google Ads (gclid), Telegram Ads and myTarget,
 * about half of them tagged with UTM. Search engines send the phrase in the referrer only now and
 * then (their referrer policy usually leaves the origin alone), as in real traffic.
 */
const SOURCES: readonly Source[] = [
  {
    key: 'yandex', group: 'search', share: 26, stay: 0.42, landing: landAny,
    entry: (a, landing) => {
      const host = yandexHost(a.country);
      const r = a.random.next();
      if (r < 0.5) return { referrer: `https://${host}/`, query: '' };
      if (r < 0.8) {
        return { referrer: `https://${host}/search/?text=${enc(phraseFor(a, landing))}&lr=${a.random.of(YANDEX_REGIONS)}`, query: '' };
      }
      if (r < 0.9) return { referrer: 'https://ya.ru/', query: '' };
      return { referrer: a.kind === 'mobile' ? 'android-app://ru.yandex.searchplugin/' : `https://${host}/`, query: '' };
    },
  },
  {
    key: 'google', group: 'search', share: 11, stay: 0.4, landing: landAny, factors: { mobile: 0.9 },
    entry: (a, landing) => {
      const r = a.random.next();
      if (r < 0.7) return { referrer: 'https://www.google.com/', query: '' };
      if (r < 0.85) return { referrer: 'https://www.google.ru/', query: '' };
      if (r < 0.95) return { referrer: `https://www.google.com/search?q=${enc(phraseFor(a, landing))}`, query: '' };
      return { referrer: a.kind === 'mobile' ? 'android-app://com.google.android.googlequicksearchbox/' : 'https://www.google.com/', query: '' };
    },
  },
  {
    key: 'mail_ru', group: 'search', share: 1.2, stay: 0.4, landing: landAny,
    entry: (a, landing) => ({ referrer: `https://go.mail.ru/search?q=${enc(phraseFor(a, landing))}&fr=main`, query: '' }),
  },
  {
    key: 'bing', group: 'search', share: 0.3, stay: 0.4, landing: landAny, factors: { mobile: 0.5 },
    entry: (a, landing) => ({ referrer: `https://www.bing.com/search?q=${enc(phraseFor(a, landing))}`, query: '' }),
  },
  {
    key: 'duckduckgo', group: 'search', share: 0.2, stay: 0.4, landing: landAny,
    entry: () => ({ referrer: 'https://duckduckgo.com/', query: '' }),
  },
  {
    key: 'dzen', group: 'recommend', share: 9, stay: 0.3, landing: landFresh, factors: { mobile: 1.4, desktop: 0.6 },
    entry: (a) => ({
      referrer: a.kind === 'mobile' && a.random.chance(0.15) ? 'android-app://ru.zen.android/' : 'https://dzen.ru/',
      query: a.random.chance(0.5) ? 'utm_referrer=https%3A%2F%2Fdzen.ru' : '',
    }),
  },
  {
    key: 'pulse', group: 'recommend', share: 1, stay: 0.3, landing: landFresh,
    entry: () => ({ referrer: 'https://pulse.mail.ru/', query: '' }),
  },
  {
    key: 'yandex_news', group: 'aggrnews', share: 3.5, stay: 0.38, landing: landFresh,
    entry: (a) => ({
      referrer: a.random.chance(0.6) ? 'https://dzen.ru/news?issue_tld=ru' : `https://dzen.ru/news/rubric/${a.random.of(['politics', 'economy', 'society', 'sport', 'computers'])}`,
      query: '',
    }),
  },
  {
    key: 'google_news', group: 'aggrnews', share: 0.5, stay: 0.38, landing: landFresh,
    entry: () => ({ referrer: 'https://news.google.com/', query: '' }),
  },
  {
    key: 'vk', group: 'social', share: 6, stay: 0.33, landing: landShared, factors: { mobile: 1.2, desktop: 0.8 },
    entry: (a) => ({
      referrer: a.kind === 'desktop' ? (a.random.chance(0.8) ? 'https://vk.com/' : 'https://vk.ru/') : 'https://m.vk.com/',
      query: a.random.chance(0.4) ? 'utm_source=vk&utm_medium=social&utm_campaign=group_post' : '',
    }),
  },
  {
    key: 'ok', group: 'social', share: 2, stay: 0.35, landing: landShared, factors: { mobile: 1.2 },
    entry: (a) => ({ referrer: a.kind === 'desktop' ? 'https://ok.ru/' : 'https://m.ok.ru/', query: '' }),
  },
  {
    key: 'pikabu', group: 'social', share: 0.4, stay: 0.3, landing: landAny,
    entry: (a) => ({ referrer: `https://pikabu.ru/story/${a.random.int(12_000_000)}`, query: '' }),
  },
  {
    key: 'telegram', group: 'messenger', share: 6, stay: 0.32, landing: landShared, factors: { mobile: 1.4, desktop: 0.5 },
    entry: (a) => {
      const r = a.random.next();
      // Telegram's in-app browser sends no referrer: those visits look direct unless tagged.
      const referrer = r < 0.45 ? 'https://t.me/' : r < 0.6 ? 'https://web.telegram.org/' : '';
      return { referrer, query: a.random.chance(0.6) ? 'utm_source=telegram&utm_medium=social&utm_campaign=channel' : '' };
    },
  },
  {
    key: 'whatsapp', group: 'messenger', share: 1, stay: 0.3, landing: landShared, factors: { mobile: 1.5, desktop: 0.4 },
    entry: (a) => {
      const r = a.random.next();
      return { referrer: r < 0.5 && a.kind === 'mobile' ? 'android-app://com.whatsapp/' : r < 0.7 ? 'https://web.whatsapp.com/' : '', query: '' };
    },
  },
  {
    key: 'max', group: 'messenger', share: 0.5, stay: 0.3, landing: landShared,
    entry: () => ({ referrer: 'https://web.max.ru/', query: '' }),
  },
  {
    key: 'viber', group: 'messenger', share: 0.3, stay: 0.3, landing: landShared,
    entry: (a) => ({ referrer: a.random.chance(0.3) ? 'https://www.viber.com/' : '', query: '' }),
  },
  {
    key: 'direct', group: 'direct', share: 17, stay: 0.6, landing: landDirect, factors: { desktop: 1.3, mobile: 0.8, returning: 1.8 },
    entry: () => none,
  },
  {
    key: 'newsletter', group: 'email', share: 1.5, stay: 0.45, landing: landFresh, factors: { returning: 2 },
    entry: (a) => ({ referrer: '', query: `utm_source=newsletter&utm_medium=email&utm_campaign=digest_${a.today}` }),
  },
  {
    key: 'internal', group: 'internal', share: 2.5, stay: 0.55, factors: { returning: 2 },
    landing: (a) => (a.random.chance(0.3) ? HOME : a.random.chance(0.7) ? pickArticle(a.random, a.today, true) : sectionPage(a.random.int(SECTIONS.length))),
    entry: (a) => ({ referrer: `${a.site}${(a.random.chance(0.5) ? HOME : pickArticle(a.random, a.today, true)).path}`, query: '' }),
  },
  {
    key: 'links', group: 'links', share: 4.5, stay: 0.45, landing: landAny, factors: { desktop: 1.4 },
    entry: (a) => ({
      referrer: a.random.of([
        'https://lenta.ru/news/', 'https://www.rbc.ru/economics/', 'https://ria.ru/', 'https://ru.wikipedia.org/wiki/',
        'https://www.banki.ru/forum/', 'https://otvet.mail.ru/question/', 'https://www.drive2.ru/l/', 'https://www.sports.ru/football/',
        'https://forum.ixbt.com/', 'https://www.kinopoisk.ru/media/',
      ]) + String(a.random.int(900_000) + 100_000),
      query: '',
    }),
  },
  {
    key: 'yandex_direct', group: 'ad', share: 3.5, stay: 0.3, landing: landAd, factors: { returning: 0.5 },
    entry: (a, landing) => {
      const r = a.random.next();
      const referrer = r < 0.5 ? `https://${yandexHost(a.country)}/` : r < 0.8 ? '' : 'https://an.yandex.ru/';
      const yclid = digits(a.random, 19 + a.random.int(2));
      const tagged = a.random.next();
      if (tagged < 0.2) return { referrer, query: `yclid=${yclid}` };
      // Campaigns tagged the old way, by Direct's own _openstat (service;campaign;ad;place, base64).
      if (tagged < 0.35) return { referrer, query: `_openstat=${openstat(a.random, a.random.chance(0.3) ? 'yandex.ru:premium' : 'yandex.ru:guarantee')}&yclid=${yclid}` };
      const tags = `utm_source=yandex&utm_medium=cpc&utm_campaign=${a.random.of(CAMPAIGNS)}&utm_content=${16_000_000 + a.random.int(9_999)}`;
      return { referrer, query: `${tags}&utm_term=${enc(phraseFor(a, landing))}&yclid=${yclid}` };
    },
  },
  {
    key: 'vk_ads', group: 'ad', share: 1, stay: 0.28, landing: landAd, factors: { returning: 0.5, mobile: 1.2 },
    entry: (a) => ({
      referrer: a.kind === 'desktop' ? 'https://vk.com/' : 'https://m.vk.com/',
      query: `utm_source=vk&utm_medium=cpc&utm_campaign=vk_lookalike&utm_content=post_${a.random.int(90) + 10}`,
    }),
  },
  {
    key: 'google_ads', group: 'ad', share: 0.5, stay: 0.3, landing: landAd, factors: { returning: 0.5 },
    entry: (a) => ({
      referrer: 'https://www.google.com/',
      query: a.random.chance(0.7) ? `utm_source=google&utm_medium=cpc&utm_campaign=brand_search&gclid=${gclid(a.random)}` : `gclid=${gclid(a.random)}`,
    }),
  },
  {
    key: 'telegram_ads', group: 'ad', share: 0.5, stay: 0.28, landing: landAd, factors: { returning: 0.5 },
    entry: (a) => ({ referrer: a.random.chance(0.5) ? 'https://t.me/' : '', query: 'utm_source=telegram&utm_medium=cpc&utm_campaign=tg_ads_channel' }),
  },
  {
    key: 'mytarget', group: 'ad', share: 0.3, stay: 0.28, landing: landAd, factors: { returning: 0.5 },
    entry: (a) => ({
      referrer: a.random.chance(0.5) ? 'https://ok.ru/' : '',
      query: `utm_source=mytarget&utm_medium=cpm&utm_campaign=mt_news&rb_clickid=${digits(a.random, 12)}`,
    }),
  },
  {
    key: 'smi2', group: 'exchange', share: 0.7, stay: 0.2, landing: landFresh,
    entry: () => ({ referrer: 'https://smi2.ru/', query: '' }),
  },
  {
    key: '24smi', group: 'exchange', share: 0.5, stay: 0.2, landing: landFresh,
    entry: () => ({ referrer: 'https://24smi.org/', query: '' }),
  },
  {
    key: 'qr', group: 'qr', share: 0.3, stay: 0.4, landing: () => SUBSCRIBE,
    entry: () => ({ referrer: '', query: 'utm_source=qr&utm_medium=offline&utm_campaign=print_nov' }),
  },
];

/** Source picks by device kind and for new and returning visitors. */
const PICKS = new Map<string, Weighted<Source>>();
for (const kind of ['mobile', 'tablet', 'desktop'] as const) {
  for (const returning of [false, true]) {
    PICKS.set(
      `${kind}:${returning}`,
      new Weighted(SOURCES.map((s) => [s, s.share * (s.factors?.[kind] ?? 1) * (returning ? (s.factors?.returning ?? 1) : 1)] as const)),
    );
  }
}

/** The source of a visit by a visitor on a device of `kind`. */
export function pickSource(random: Random, kind: DeviceKind, returning: boolean): Source {
  return (PICKS.get(`${kind}:${returning}`) as Weighted<Source>).pick(random);
}
