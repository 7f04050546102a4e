/**
 * A project's counter settings that decide which hits count and under which page address
 * (specification 000, §2.6: merge subdomains, merge www, track hashes, whitelist, blacklist).
 * They are applied here, on the server, rather than in the counter: a hit sent straight to the
 * collector obeys them too, a change of settings takes effect without re-installing the code,
 * and the snippet stays within its size budget.
 */
export interface SiteRules {
  /** host of the project's site address, lower case ('example.ru', 'www.example.ru') */
  siteHost: string;
  /** www.example.ru and example.ru are one site: the page address loses its `www.` */
  mergeWww: boolean;
  /** pages of sub.example.ru count as pages of example.ru: the address takes the site's host */
  mergeSubdomains: boolean;
  /** keep the hash of a page address (otherwise it is cut off) */
  trackHashes: boolean;
  /** when set, only pages on these hosts (or their subdomains) count */
  whitelist: readonly string[] | null;
  /** pages on these hosts (or their subdomains) never count */
  blacklist: readonly string[];
}

/** The counter settings as the api stores them (the fields the rules read). */
export interface CounterSettingsInput {
  url: string;
  merge_www?: boolean | undefined;
  merge_subdomains?: boolean | undefined;
  track_hashes?: boolean | undefined;
  use_whitelist?: boolean | undefined;
  whitelisted_urls?: readonly string[] | undefined;
  blacklisted_urls?: readonly string[] | undefined;
}

/** What the rules make of a hit's page address. */
export type RuleResult = { kind: 'keep'; url: string } | { kind: 'drop'; reason: 'blacklisted' | 'not_whitelisted' };

/** The host named by a settings entry: 'https://www.example.ru/path', 'example.ru' or 'EXAMPLE.ru/'. */
export function hostOf(entry: string): string {
  const trimmed = entry.trim();
  if (trimmed === '') return '';
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`).hostname.toLowerCase();
  } catch {
    return '';
  }
}

const withoutWww = (host: string): string => host.replace(/^www\./, '');

/** Whether `host` is `listed` or one of its subdomains, with or without `www.` on either side. */
function onHost(host: string, listed: string): boolean {
  const h = withoutWww(host);
  const l = withoutWww(listed);
  return l !== '' && (h === l || h.endsWith(`.${l}`));
}

/** The rules of a project from its stored counter settings; settings not saved yet take the form defaults. */
export function siteRulesFrom(settings: CounterSettingsInput): SiteRules {
  const hosts = (entries: readonly string[] | undefined): string[] => (entries ?? []).map(hostOf).filter((h) => h !== '');
  return {
    siteHost: hostOf(settings.url),
    mergeWww: settings.merge_www ?? true,
    mergeSubdomains: settings.merge_subdomains ?? false,
    trackHashes: settings.track_hashes ?? false,
    whitelist: settings.use_whitelist ? hosts(settings.whitelisted_urls) : null,
    blacklist: hosts(settings.blacklisted_urls),
  };
}

/**
 * Decides whether a page address counts for the project and rewrites it as the settings say.
 * Addresses that are not http(s) URLs (an app's screen name) are kept as they are.
 */
export function applySiteRules(pageUrl: string, rules: SiteRules): RuleResult {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return { kind: 'keep', url: pageUrl };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'keep', url: pageUrl };
  const host = url.hostname.toLowerCase();
  if (rules.blacklist.some((listed) => onHost(host, listed))) return { kind: 'drop', reason: 'blacklisted' };
  if (rules.whitelist && !rules.whitelist.some((listed) => onHost(host, listed))) return { kind: 'drop', reason: 'not_whitelisted' };

  let changed = false;
  const site = withoutWww(rules.siteHost);
  if (rules.mergeSubdomains && site !== '' && withoutWww(host).endsWith(`.${site}`)) {
    url.hostname = rules.mergeWww ? site : rules.siteHost;
    changed = true;
  } else if (rules.mergeWww && host.startsWith('www.')) {
    url.hostname = withoutWww(host);
    changed = true;
  }
  if (!rules.trackHashes && url.hash !== '') {
    url.hash = '';
    changed = true;
  }
  return { kind: 'keep', url: changed ? url.href : pageUrl };
}

/**
 * Loads the rules of live projects by id; a project missing from the answer is unknown or
 * deleted, and its hits are not stored (a deleted counter stops collecting, as the counter
 * settings page promises).
 */
export type SiteRulesLoader = (projects: readonly number[]) => Promise<ReadonlyMap<number, SiteRules>>;

/** How long loaded rules are trusted before they are read again: a settings change takes effect within it. */
const SITE_RULES_TTL_MS = 30_000;

/**
 * The rules of the projects a batch touches, read through the loader at most once per project
 * and TTL. When the loader fails, rules read before serve on (stale, but the site's own); a
 * project never read throws, so the batch is not stored and is tried again, as for any storage
 * outage.
 */
export class SiteRulesCache {
  private readonly cached = new Map<number, { rules: SiteRules | null; until: number }>();

  constructor(
    private readonly loader: SiteRulesLoader,
    private readonly ttlMs: number = SITE_RULES_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Makes sure the rules of `projects` are loaded, fresh when the loader answers. */
  async load(projects: Iterable<number>): Promise<void> {
    const now = this.now();
    const stale = [...new Set(projects)].filter((id) => (this.cached.get(id)?.until ?? 0) <= now);
    if (stale.length === 0) return;
    let loaded: ReadonlyMap<number, SiteRules>;
    try {
      loaded = await this.loader(stale);
    } catch (error) {
      if (stale.every((id) => this.cached.has(id))) return;
      throw error;
    }
    for (const id of stale) this.cached.set(id, { rules: loaded.get(id) ?? null, until: now + this.ttlMs });
  }

  /** The rules of a project loaded by `load`, or null when it is no live project. */
  get(project: number): SiteRules | null {
    return this.cached.get(project)?.rules ?? null;
  }
}
