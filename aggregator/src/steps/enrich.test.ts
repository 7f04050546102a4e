import { describe, expect, it } from 'vitest';
import type { AcceptedHit } from '@stat/schemas';
import { createEnricher } from '../enrich/index.js';
import { enrichStep } from './enrich.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const hit = (url: string, referrer: string, ua = CHROME): AcceptedHit => ({
  id: '00000000-0000-4000-8000-000000000001',
  at: 1_700_000_000_000,
  ip: '77.88.55.88',
  ua,
  hit: { p: 5, t: 'pageview', u: url, r: referrer, ti: '', sw: 0, sh: 0, v: 'visitor-1' },
});
const enricher = createEnricher();
const step = enrichStep(enricher);

describe('enrichStep', () => {
  it("adds the enricher's dimensions to the hit", () => {
    const accepted = hit('https://shop.ru/?utm_source=mail', 'https://yandex.ru/search/?text=shop');
    const expected = enricher.enrichHit(accepted);
    expect(expected.kind).toBe('ok');
    expect(step({ accepted, siteHost: undefined })).toEqual({ ok: { accepted, enrichment: expected.kind === 'ok' ? expected.enrichment : null } });
  });

  it("takes the project's site host to tell internal traffic", () => {
    const accepted = hit('https://garden.ru/tulips', 'https://www.garden.ru/roses');
    const result = step({ accepted, siteHost: 'www.garden.ru' });
    expect('ok' in result && [result.ok.enrichment.traffic_type, result.ok.enrichment.referer_domain]).toEqual(['internal', 'garden.ru']);
  });

  it('drops a crawler the enricher knows', () => {
    const accepted = hit('https://shop.ru/', '', 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)');
    expect(step({ accepted, siteHost: undefined })).toEqual({ drop: 'bot' });
  });
});
