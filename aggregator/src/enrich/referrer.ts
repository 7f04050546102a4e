import { join } from 'node:path';
import { TextDecoder } from 'node:util';
import { getDomain, getPublicSuffix } from 'tldts';
import { DATA_DIR } from './data-dir.js';
import { loadReferrerTables, type HostRule, type Marker, type ReferrerTables, type SystemDef, type TableTrafficType } from './referrer-tables.js';
import { pageFacts, type PageFacts } from './url.js';

/**
 * Where a visit came from. direct: no referrer; internal: from the site itself; link: from any
 * other site; the rest from the tables of `aggregator/data/referrers/` (ad and qr are decided by
 * the page address's tags before the referrer is looked at).
 */
import type { TrafficType } from '@stat/schemas';
;

/**
 * The source dimensions of a hit. Every *_system field is a system id from the tables ('yandex',
 * 'vk', 'telegram', …; their names come from `referrerCatalog`), filled only for its own traffic
 * type; ad_system and qr_system fall back to the utm_source (or the _openstat service) when no
 * table entry names the system. traffic_system is the system of any type, the referrer's domain
 * for link, '' for direct and internal.
 */
export interface ReferrerInfo {
  traffic_type: TrafficType;
  traffic_system: string;
  search_system: string;
  /** lower-cased, spaces collapsed; '' when the engine hides it (Google, Yandex over https) */
  search_phrase: string;
  social_network: string;
  message_system: string;
  recom_system: string;
  aggrnews_system: string;
  exchange_system: string;
  ad_system: string;
  qr_system: string;
  /** the referrer's host without 'www.' (an Android app's package for android-app:// referrers) */
  referer_domain: string;
  /** the referrer's path, without its query */
  referer_path: string;
}

/** A system of the tables, for titles in reports. */
export interface CatalogEntry {
  traffic_type: TrafficType;
  id: string;
  name: string;
}

export interface ReferrerClassifier {
  classifyReferrer(referrer: string, pageUrl: string, siteHost?: string): ReferrerInfo;
  /** The same, with the page address already taken apart (enrichHit parses it once). */
  classifyFacts(referrer: string, page: PageFacts, siteHost?: string): ReferrerInfo;
  catalog(): CatalogEntry[];
}

const SYSTEM_FIELD: Readonly<Record<TableTrafficType, keyof ReferrerInfo>> = {
  search: 'search_system',
  social: 'social_network',
  messenger: 'message_system',
  recommend: 'recom_system',
  aggrnews: 'aggrnews_system',
  exchange: 'exchange_system',
  ad: 'ad_system',
  qr: 'qr_system',
};

interface Referrer {
  /** index keys from the most specific to the least */
  keys: string[];
  domain: string;
  path: string;
  /** registrable domain, for the internal check */
  site: string;
  search: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const cp1251 = ((): TextDecoder | null => {
  try {
    return new TextDecoder('windows-1251');
  } catch {
    return null; // a Node built without full ICU
  }
})();

/** Decodes a query value: percent-escapes as UTF-8, else as windows-1251 (old Russian engines and forms). */
function decodeQueryValue(raw: string): string {
  const text = raw.replace(/\+/g, ' ');
  if (!text.includes('%')) return text;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x25 && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      const code = text.codePointAt(i) ?? ch;
      bytes.push(...Buffer.from(String.fromCodePoint(code), 'utf8'));
      if (code > 0xffff) i++;
    }
  }
  const buffer = Uint8Array.from(bytes);
  try {
    return utf8.decode(buffer);
  } catch {
    return cp1251 === null ? new TextDecoder().decode(buffer) : cp1251.decode(buffer);
  }
}

/** The first non-empty value among the named parameters of a query string ('?a=1&b=2'). */
function queryValue(search: string, names: readonly string[]): string {
  const pairs = search.replace(/^\?/, '').split('&');
  for (const name of names) {
    for (const pair of pairs) {
      const eq = pair.indexOf('=');
      const key = eq === -1 ? pair : pair.slice(0, eq);
      if (key !== name) continue;
      const value = decodeQueryValue(eq === -1 ? '' : pair.slice(eq + 1));
      if (value.trim() !== '') return value;
    }
  }
  return '';
}

function searchPhrase(search: string, names: readonly string[]): string {
  const phrase = queryValue(search, names).replace(/\s+/g, ' ').trim().toLowerCase();
  // Google's /url redirect carries the target address in q, not a phrase.
  return /^https?:\/\//.test(phrase) ? '' : phrase;
}

/** Index keys of a host: itself, its 'google.*' form, then the '*.' forms of it and its parents. */
function hostKeys(host: string): string[] {
  const suffix = getPublicSuffix(host);
  const virtual = suffix !== null && host.length > suffix.length && host.endsWith(`.${suffix}`) ? `${host.slice(0, -suffix.length)}*` : '';
  const keys = virtual === '' ? [host] : [host, virtual];
  const labels = host.split('.');
  const vlabels = virtual === '' ? [] : virtual.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    keys.push(`*.${labels.slice(i).join('.')}`);
    if (i < vlabels.length - 1) keys.push(`*.${vlabels.slice(i).join('.')}`);
  }
  return keys;
}

function registrable(host: string): string {
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

function parseReferrer(referrer: string): Referrer | null {
  if (referrer.startsWith('android-app://')) {
    const app = (referrer.slice('android-app://'.length).split('/', 1)[0] ?? '').toLowerCase();
    return app === '' ? null : { keys: [`android-app:${app}`], domain: app, path: '', site: app, search: '' };
  }
  let url: URL;
  try {
    url = new URL(referrer);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  let host = url.hostname.replace(/\.$/, '');
  if (host.startsWith('www.')) host = host.slice(4);
  return { keys: hostKeys(host), domain: host, path: url.pathname, site: registrable(host), search: url.search };
}

function pathMatches(path: string, prefix: string): boolean {
  return prefix === '' || path === prefix || path.startsWith(`${prefix}/`) || (prefix.endsWith('/') && path.startsWith(prefix));
}

function findRule(tables: ReferrerTables, ref: Referrer): HostRule | undefined {
  for (const key of ref.keys) {
    const rules = tables.hosts.get(key);
    const rule = rules?.find((r) => pathMatches(ref.path, r.path));
    if (rule !== undefined) return rule;
  }
  return undefined;
}

function markerMatches(marker: Marker, params: ReadonlyMap<string, string>): boolean {
  const value = params.get(marker.param);
  return value !== undefined && (marker.values === null || marker.values.has(value.trim().toLowerCase()));
}

function siteOf(siteHost: string | undefined, pageHost: string): string {
  let host = (siteHost ?? '').trim().toLowerCase();
  if (host.includes('://')) {
    try {
      host = new URL(host).hostname;
    } catch {
      host = '';
    }
  }
  host = host.split('/', 1)[0] ?? '';
  if (host === '') host = pageHost;
  return host === '' ? '' : registrable(host.replace(/^www\./, ''));
}

/**
 * Whether a referrer host (as referer_domain holds it: lower-case, without 'www.') is on the
 * site: the registrable domain of the project's site host, or of the page's host without one.
 * The test the classifier makes for internal traffic, for those who hold only the enrichment.
 */
export function isOwnSite(referrerDomain: string, pageHost: string, siteHost?: string): boolean {
  const site = siteOf(siteHost, pageHost.toLowerCase());
  return site !== '' && referrerDomain !== '' && registrable(referrerDomain) === site;
}

function result(type: TrafficType, system: string, ref: Referrer | null, phrase = ''): ReferrerInfo {
  const info: ReferrerInfo = {
    traffic_type: type,
    traffic_system: type === 'link' ? (ref?.domain ?? '') : system,
    search_system: '',
    search_phrase: phrase,
    social_network: '',
    message_system: '',
    recom_system: '',
    aggrnews_system: '',
    exchange_system: '',
    ad_system: '',
    qr_system: '',
    referer_domain: ref?.domain ?? '',
    referer_path: ref?.path ?? '',
  };
  if (type !== 'direct' && type !== 'internal' && type !== 'link') (info[SYSTEM_FIELD[type]] as string) = system;
  return info;
}

/** Builds a classifier over the tables in `dir` (default `aggregator/data/referrers`), read and indexed once. */
export function createReferrerClassifier(options: { dir?: string } = {}): ReferrerClassifier {
  const tables = loadReferrerTables(options.dir ?? join(DATA_DIR, 'referrers'));

  const classifyFacts = (referrer: string, page: PageFacts, siteHost?: string): ReferrerInfo => {
    const raw = referrer.trim();
    const ref = raw === '' ? null : parseReferrer(raw);
    const rule = ref === null ? undefined : findRule(tables, ref);

    // Tagged page addresses first: a paid click is advertising whichever page it came through.
    const source = page.info.utm_source.toLowerCase();
    const service = page.info.openstat_service.toLowerCase();
    for (const cls of tables.markerClasses) {
      const clicked = cls.systems.find((s) => s.markers.some((m) => markerMatches(m, page.params)));
      if (clicked !== undefined) return result(cls.type, clicked.id, ref);
      if (!cls.markers.some((m) => markerMatches(m, page.params))) continue;
      const named: SystemDef | undefined =
        cls.systems.find((s) => (source !== '' && s.sources.has(source)) || (service !== '' && s.sources.has(service))) ??
        (rule?.system.type === cls.type ? rule.system : undefined);
      return result(cls.type, named?.id ?? (source || service), ref);
    }

    if (raw === '') return result('direct', '', null);
    if (ref === null) return result('link', '', null);
    const site = siteOf(siteHost, page.host);
    if (site !== '' && ref.site === site) return result('internal', '', ref);
    if (rule === undefined) return result('link', '', ref);
    const phrase = rule.system.type === 'search' ? searchPhrase(ref.search, rule.system.query) : '';
    return result(rule.system.type, rule.system.id, ref, phrase);
  };

  return {
    classifyFacts,
    classifyReferrer: (referrer, pageUrl, siteHost) => classifyFacts(referrer, pageFacts(pageUrl), siteHost),
    catalog: () => tables.systems.map((s) => ({ traffic_type: s.type, id: s.id, name: s.name })),
  };
}

let shared: ReferrerClassifier | null = null;

/** The process-wide classifier over the shipped tables, built on first use. */
export function sharedReferrerClassifier(): ReferrerClassifier {
  shared ??= createReferrerClassifier();
  return shared;
}

/**
 * Classifies where a visit came from. siteHost is the project's site ('example.ru', 'www.example.ru'
 * or an address); without it the page's own host stands in. A referrer on the same registrable
 * domain (eTLD+1, so www., m. and other subdomains merge; github.io-style hosts stay apart) is internal.
 */
export function classifyReferrer(referrer: string, pageUrl: string, siteHost?: string): ReferrerInfo {
  return sharedReferrerClassifier().classifyReferrer(referrer, pageUrl, siteHost);
}

/** Every system of the tables with its type and Russian name. */
export function referrerCatalog(): CatalogEntry[] {
  return sharedReferrerClassifier().catalog();
}
