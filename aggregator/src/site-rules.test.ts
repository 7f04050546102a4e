import { describe, expect, it } from 'vitest';
import { applySiteRules, hostOf, SiteRulesCache, siteRulesFrom, type SiteRules } from './site-rules.js';

const base: SiteRules = siteRulesFrom({ url: 'https://shop.ru' });

describe('hostOf', () => {
  it.each([
    ['https://www.Shop.ru/path?q=1', 'www.shop.ru'],
    ['shop.ru', 'shop.ru'],
    ['shop.ru/catalog/', 'shop.ru'],
    ['  http://магазин.рф ', 'xn--80aairftm.xn--p1ai'],
    ['', ''],
    ['http://', ''],
  ])('%s → %s', (entry, host) => {
    expect(hostOf(entry)).toBe(host);
  });
});

describe('siteRulesFrom', () => {
  it('takes the form defaults for settings never saved: www merged, nothing else', () => {
    expect(base).toEqual({ siteHost: 'shop.ru', mergeWww: true, mergeSubdomains: false, trackHashes: false, whitelist: null, blacklist: [] });
  });

  it('reads the whitelist only when it is on, and hosts from both lists', () => {
    const rules = siteRulesFrom({
      url: 'https://shop.ru',
      use_whitelist: true,
      whitelisted_urls: ['https://shop.ru', 'm.shop.ru/'],
      blacklisted_urls: ['copy-shop.com', 'not a url at all'],
    });
    expect(rules.whitelist).toEqual(['shop.ru', 'm.shop.ru']);
    expect(rules.blacklist).toEqual(['copy-shop.com']);
    expect(siteRulesFrom({ url: 'https://shop.ru', use_whitelist: false, whitelisted_urls: ['shop.ru'] }).whitelist).toBeNull();
  });
});

describe('applySiteRules', () => {
  it('merges www by default: the page address loses its www.', () => {
    expect(applySiteRules('https://www.shop.ru/a?b=1', base)).toEqual({ kind: 'keep', url: 'https://shop.ru/a?b=1' });
    expect(applySiteRules('https://www.shop.ru/a', { ...base, mergeWww: false })).toEqual({ kind: 'keep', url: 'https://www.shop.ru/a' });
  });

  it('keeps subdomains apart unless merge subdomains is on, then counts them under the site', () => {
    expect(applySiteRules('https://m.shop.ru/a', base)).toEqual({ kind: 'keep', url: 'https://m.shop.ru/a' });
    const merged = { ...base, mergeSubdomains: true };
    expect(applySiteRules('https://m.shop.ru/a', merged)).toEqual({ kind: 'keep', url: 'https://shop.ru/a' });
    expect(applySiteRules('https://www.m.shop.ru/a', merged)).toEqual({ kind: 'keep', url: 'https://shop.ru/a' });
    // Without www merging, the site's own host (as registered) stands in.
    const www = { ...siteRulesFrom({ url: 'https://www.shop.ru' }), mergeSubdomains: true, mergeWww: false };
    expect(applySiteRules('https://m.shop.ru/a', www)).toEqual({ kind: 'keep', url: 'https://www.shop.ru/a' });
    // Another site that merely ends the same way is not a subdomain.
    expect(applySiteRules('https://myshop.ru/a', merged)).toEqual({ kind: 'keep', url: 'https://myshop.ru/a' });
  });

  it('cuts the hash off unless hashes are tracked', () => {
    expect(applySiteRules('https://shop.ru/#/cart', base)).toEqual({ kind: 'keep', url: 'https://shop.ru/' });
    expect(applySiteRules('https://shop.ru/#/cart', { ...base, trackHashes: true })).toEqual({ kind: 'keep', url: 'https://shop.ru/#/cart' });
  });

  it('drops pages on a blacklisted host or its subdomains', () => {
    const rules = { ...base, blacklist: ['copy-shop.com'] };
    expect(applySiteRules('https://copy-shop.com/a', rules)).toEqual({ kind: 'drop', reason: 'blacklisted' });
    expect(applySiteRules('https://www.copy-shop.com/a', rules)).toEqual({ kind: 'drop', reason: 'blacklisted' });
    expect(applySiteRules('https://cdn.copy-shop.com/a', rules)).toEqual({ kind: 'drop', reason: 'blacklisted' });
    expect(applySiteRules('https://shop.ru/a', rules)).toEqual({ kind: 'keep', url: 'https://shop.ru/a' });
  });

  it('with a whitelist, counts only pages on its hosts', () => {
    const rules = { ...base, whitelist: ['shop.ru'] };
    expect(applySiteRules('https://shop.ru/a', rules).kind).toBe('keep');
    expect(applySiteRules('https://www.shop.ru/a', rules).kind).toBe('keep');
    expect(applySiteRules('https://m.shop.ru/a', rules).kind).toBe('keep');
    expect(applySiteRules('https://evil.example/a', rules)).toEqual({ kind: 'drop', reason: 'not_whitelisted' });
    expect(applySiteRules('https://evil.example/a', { ...base, whitelist: [] })).toEqual({ kind: 'drop', reason: 'not_whitelisted' });
  });

  it('leaves addresses that are not http(s) URLs alone', () => {
    const rules = { ...base, whitelist: ['shop.ru'] };
    expect(applySiteRules('app://main-screen', rules)).toEqual({ kind: 'keep', url: 'app://main-screen' });
    expect(applySiteRules('not a url', rules)).toEqual({ kind: 'keep', url: 'not a url' });
  });
});

describe('SiteRulesCache', () => {
  it('reads each project once per TTL, only the stale ones, and remembers projects without rules', async () => {
    let now = 1_000;
    const asked: number[][] = [];
    const cache = new SiteRulesCache(
      async (ids) => {
        asked.push([...ids]);
        return new Map(ids.filter((id) => id !== 2).map((id) => [id, base]));
      },
      30_000,
      () => now,
    );
    await cache.load([1, 2, 1]);
    await cache.load([1, 2]);
    expect(asked).toEqual([[1, 2]]);
    expect(cache.get(1)).toEqual(base);
    expect(cache.get(2)).toBeNull();
    now += 30_000;
    await cache.load([1, 3]);
    expect(asked).toEqual([[1, 2], [1, 3]]);
  });

  it('throws when the loader fails for a project never read, so the batch is tried again', async () => {
    const cache = new SiteRulesCache(async () => {
      throw new Error('connection refused');
    });
    await expect(cache.load([1])).rejects.toThrow('connection refused');
    expect(cache.get(1)).toBeNull();
  });

  it('serves the rules read before while the loader fails, and reads them again when it answers', async () => {
    let now = 1_000;
    let down = false;
    let rules = base;
    const cache = new SiteRulesCache(
      async (ids) => {
        if (down) throw new Error('connection refused');
        return new Map(ids.map((id) => [id, rules]));
      },
      30_000,
      () => now,
    );
    await cache.load([1]);
    down = true;
    now += 60_000;
    await cache.load([1]);
    expect(cache.get(1)).toEqual(base);
    // A project never read cannot be served from memory.
    await expect(cache.load([1, 2])).rejects.toThrow('connection refused');
    down = false;
    rules = { ...base, mergeWww: false };
    await cache.load([1, 2]);
    expect(cache.get(1)?.mergeWww).toBe(false);
    expect(cache.get(2)?.mergeWww).toBe(false);
  });
});
