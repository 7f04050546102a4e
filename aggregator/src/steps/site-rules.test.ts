import { describe, expect, it } from 'vitest';
import type { AcceptedHit } from '@stat/schemas';
import { siteRulesFrom } from '../site-rules.js';
import { applySiteRulesStep } from './site-rules.js';

const hit = (project: number, url: string): AcceptedHit => ({
  id: '00000000-0000-4000-8000-000000000001',
  at: 1_700_000_000_000,
  ip: '',
  ua: '',
  hit: { p: project, t: 'pageview', u: url, r: '', ti: '', sw: 0, sh: 0, v: 'visitor-1' },
});

const garden = siteRulesFrom({ url: 'https://www.garden.ru', blacklisted_urls: ['m.garden.ru'], use_whitelist: true, whitelisted_urls: ['garden.ru'] });
const step = applySiteRulesStep((project) => (project === 31 ? garden : null));

describe('applySiteRulesStep', () => {
  it('lets every hit through as it came when no settings are read', () => {
    const h = hit(99, 'https://www.any.ru/#x');
    expect(applySiteRulesStep(null)(h)).toEqual({ ok: { accepted: h, siteHost: undefined } });
  });

  it('drops a hit of an unknown or deleted project', () => {
    expect(step(hit(32, 'https://garden.ru/'))).toEqual({ drop: 'no_project' });
  });

  it('drops a page of a blacklisted host', () => {
    expect(step(hit(31, 'https://m.garden.ru/roses'))).toEqual({ drop: 'blacklisted' });
  });

  it('drops a page of a host off the whitelist', () => {
    expect(step(hit(31, 'https://stolen-copy.example/roses'))).toEqual({ drop: 'not_whitelisted' });
  });

  it("rewrites the page address as the settings say and gives the site's host", () => {
    const h = hit(31, 'https://www.garden.ru/roses#top');
    expect(step(h)).toEqual({ ok: { accepted: { ...h, hit: { ...h.hit, u: 'https://garden.ru/roses' } }, siteHost: 'www.garden.ru' } });
  });

  it('keeps the very hit when the address needs no change', () => {
    const h = hit(31, 'https://garden.ru/tulips');
    const result = step(h);
    expect('ok' in result && result.ok.accepted).toBe(h);
  });
});
