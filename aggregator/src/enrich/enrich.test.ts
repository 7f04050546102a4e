import type { AcceptedHit } from '@stat/schemas';
import { describe, expect, it } from 'vitest';
import { agentInfo, NO_CAMPAIGN, referrerInfo } from '../testing/enrichment.js';
import { createEnricher, enrichHit, ENRICHMENT_COLUMN_TYPES, type Enrichment } from './enrich.js';
import type { GeoLocator } from './geo.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.127 Safari/537.36';
const WEBVIEW = 'Mozilla/5.0 (Linux; Android 13; 2201117TY Build/TKQ1.221114.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/125.0.6422.165 Mobile Safari/537.36';

function accepted(fields: { u?: string; r?: string; ua?: string; ip?: string }): AcceptedHit {
  return {
    id: '0190f0c6-8f5e-7cc1-9a0e-3f0f3a4b5c6d',
    at: Date.UTC(2025, 5, 1, 9, 30),
    ip: fields.ip ?? '95.165.1.1',
    ua: fields.ua ?? CHROME,
    hit: { p: 7596044, t: 'pageview', u: fields.u ?? 'https://example.ru/', r: fields.r ?? '', ti: 'Главная', sw: 1920, sh: 1080, v: 'abcdefgh12345678' },
  };
}

describe('enrichHit', () => {
  it('a person from Moscow who searched Yandex: every field', () => {
    expect(
      enrichHit(
        accepted({
          u: 'https://www.example.ru/catalog/phones?page=2&utm_source=yandex&utm_medium=organic',
          r: 'https://yandex.ru/search/?text=%D1%82%D0%B5%D0%BB%D0%B5%D1%84%D0%BE%D0%BD%D1%8B&lr=213',
        }),
      ),
    ).toEqual({
      kind: 'ok',
      enrichment: {
        ...agentInfo(['Chrome', '126', '0'], ['Windows', '10', ''], ['desktop', '', '']),
        geo_country: 2017370,
        geo_area: 524894,
        geo_city: 524901,
        ...referrerInfo({ traffic_type: 'search', traffic_system: 'yandex', search_system: 'yandex', search_phrase: 'телефоны', referer_domain: 'yandex.ru', referer_path: '/search/' }),
        url: 'https://www.example.ru/catalog/phones?page=2&utm_source=yandex&utm_medium=organic',
        url_no_args: 'https://www.example.ru/catalog/phones',
        url_args_key: 'page&utm_medium&utm_source',
        page_format: 'Web',
        ...NO_CAMPAIGN,
        utm_source: 'yandex',
        utm_medium: 'organic',
      } satisfies Enrichment,
    });
  });

  it('Googlebot is dropped as a bot', () => {
    expect(enrichHit(accepted({ ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }))).toEqual({ kind: 'drop', reason: 'bot' });
  });

  it('YandexBot and curl are dropped', () => {
    expect([enrichHit(accepted({ ua: 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)' })), enrichHit(accepted({ ua: 'curl/8.5.0' }))]).toEqual([
      { kind: 'drop', reason: 'bot' },
      { kind: 'drop', reason: 'bot' },
    ]);
  });

  it('an empty user agent is dropped as a bot', () => {
    expect(enrichHit(accepted({ ua: '' }))).toEqual({ kind: 'drop', reason: 'bot' });
  });

  it('a page shown in an Android WebView is Web-view', () => {
    const result = enrichHit(accepted({ ua: WEBVIEW, r: 'android-app://org.telegram.messenger/' }));
    expect(result.kind === 'ok' && [result.enrichment.page_format, result.enrichment.traffic_type, result.enrichment.device_type]).toEqual(['Web-view', 'messenger', 'mobile']);
  });

  it('an AMP page stays AMP in a WebView', () => {
    const result = enrichHit(accepted({ ua: WEBVIEW, u: 'https://example.ru/news/1/amp/' }));
    expect(result.kind === 'ok' && result.enrichment.page_format).toBe('AMP');
  });

  it('a loopback client is unknown geography, not an error', () => {
    const result = enrichHit(accepted({ ip: '127.0.0.1' }));
    expect(result.kind === 'ok' && [result.enrichment.geo_country, result.enrichment.geo_area, result.enrichment.geo_city]).toEqual([0, 0, 0]);
  });

  it('the project site host decides internal traffic', () => {
    const hit = accepted({ u: 'https://example-ru.turbopages.org/example.ru/s/news/1', r: 'https://www.example.ru/news' });
    const [withSite, withoutSite] = [enrichHit(hit, 'example.ru'), enrichHit(hit)];
    expect([withSite.kind === 'ok' && withSite.enrichment.traffic_type, withoutSite.kind === 'ok' && withoutSite.enrichment.traffic_type]).toEqual(['internal', 'link']);
  });

  it('takes its geo locator from the caller', () => {
    const geo: GeoLocator = {
      locate: () => ({ geo_country: 1, geo_area: 2, geo_city: 3 }),
      geoName: () => undefined,
      load: () => Promise.reject(new Error('unused')),
      stats: () => null,
      dictionary: () => {
        throw new Error('unused');
      },
    };
    const result = createEnricher({ geo }).enrichHit(accepted({}));
    expect(result.kind === 'ok' && [result.enrichment.geo_country, result.enrichment.geo_area, result.enrichment.geo_city]).toEqual([1, 2, 3]);
  });

  it('never keeps the client address', () => {
    const result = enrichHit(accepted({ ip: '77.88.55.88' }));
    expect(JSON.stringify(result)).not.toContain('77.88.55.88');
  });
});

describe('ENRICHMENT_COLUMN_TYPES', () => {
  it('has a type for exactly the fields of an enrichment', () => {
    const result = enrichHit(accepted({}));
    expect(result.kind === 'ok' && Object.keys(result.enrichment).sort()).toEqual(Object.keys(ENRICHMENT_COLUMN_TYPES).sort());
  });
});
