import { describe, expect, it } from 'vitest';
import { NO_CAMPAIGN } from '../testing/enrichment.js';
import { parseUrl, type UrlInfo } from './url.js';

describe('parseUrl', () => {
  it('a plain page', () => {
    expect(parseUrl('https://shop.example.ru/catalog/phones')).toEqual<UrlInfo>({
      url: 'https://shop.example.ru/catalog/phones',
      url_no_args: 'https://shop.example.ru/catalog/phones',
      url_args_key: '',
      page_format: 'Web',
      ...NO_CAMPAIGN,
    });
  });

  it('arguments: url_no_args drops them and the fragment, url_args_key lists the names sorted and once', () => {
    expect(parseUrl('https://example.ru/list?page=2&id=7&page=3#top')).toEqual<UrlInfo>({
      url: 'https://example.ru/list?page=2&id=7&page=3#top',
      url_no_args: 'https://example.ru/list',
      url_args_key: 'id&page',
      page_format: 'Web',
      ...NO_CAMPAIGN,
    });
  });

  it('a hash route stays in url_no_args, without its own query', () => {
    expect(parseUrl('https://app.example.ru/?lang=ru#/orders/15?tab=items')).toMatchObject({
      url_no_args: 'https://app.example.ru/#/orders/15',
      url_args_key: 'lang',
    });
  });

  it('a port stays in url_no_args', () => {
    expect(parseUrl('http://localhost:8080/a?b=1').url_no_args).toBe('http://localhost:8080/a');
  });

  it('UTM tags, decoded', () => {
    expect(
      parseUrl('https://example.ru/?utm_source=yandex&utm_medium=cpc&utm_campaign=%D0%BB%D0%B5%D1%82%D0%BE-2025&utm_content=banner+1&utm_term=%D0%BA%D1%83%D0%BF%D0%B8%D1%82%D1%8C%20%D1%81%D0%BB%D0%BE%D0%BD%D0%B0'),
    ).toEqual<UrlInfo>({
      url: 'https://example.ru/?utm_source=yandex&utm_medium=cpc&utm_campaign=%D0%BB%D0%B5%D1%82%D0%BE-2025&utm_content=banner+1&utm_term=%D0%BA%D1%83%D0%BF%D0%B8%D1%82%D1%8C%20%D1%81%D0%BB%D0%BE%D0%BD%D0%B0',
      url_no_args: 'https://example.ru/',
      url_args_key: 'utm_campaign&utm_content&utm_medium&utm_source&utm_term',
      page_format: 'Web',
      ...NO_CAMPAIGN,
      utm_source: 'yandex',
      utm_medium: 'cpc',
      utm_campaign: 'лето-2025',
      utm_content: 'banner 1',
      utm_term: 'купить слона',
    });
  });

  it('UTM parameter names in capitals count too', () => {
    expect(parseUrl('https://example.ru/?UTM_SOURCE=vk&Utm_Medium=social')).toMatchObject({ utm_source: 'vk', utm_medium: 'social' });
  });

  it('_openstat in base64', () => {
    const value = Buffer.from('direct.yandex.ru;12345;67890;search').toString('base64');
    expect(parseUrl(`https://example.ru/?_openstat=${value}`)).toMatchObject({
      openstat_service: 'direct.yandex.ru',
      openstat_campaign: '12345',
      openstat_ad: '67890',
      openstat_source: 'search',
    });
  });

  it('_openstat in base64 with a "+" that arrived unescaped (read as a space) and no padding', () => {
    const value = Buffer.from('market.yandex.ru;кампания;объявление;место').toString('base64').replace(/=+$/, '');
    expect(value).toContain('+');
    expect(parseUrl(`https://example.ru/?_openstat=${value}`)).toMatchObject({
      openstat_service: 'market.yandex.ru',
      openstat_campaign: 'кампания',
      openstat_ad: 'объявление',
      openstat_source: 'место',
    });
  });

  it('_openstat in plain text', () => {
    expect(parseUrl('https://example.ru/?_openstat=begun.ru;5;77;partner-site')).toMatchObject({
      openstat_service: 'begun.ru',
      openstat_campaign: '5',
      openstat_ad: '77',
      openstat_source: 'partner-site',
    });
  });

  it('_openstat that is neither is ignored', () => {
    expect(parseUrl('https://example.ru/?_openstat=%FF%FE').openstat_service).toBe('');
    expect(parseUrl('https://example.ru/?_openstat=aGVsbG8').openstat_service).toBe('');
  });

  it('AMP by an /amp/ segment, a .amp file, amp=1, a bare ?amp, an amp. host and the AMP cache', () => {
    expect(
      [
        'https://example.ru/news/123/amp/',
        'https://example.ru/amp/news/123',
        'https://example.ru/news/123.amp',
        'https://example.ru/news/123.amp.html',
        'https://example.ru/news/123?amp=1',
        'https://example.ru/news/123?amp',
        'https://amp.example.ru/news/123',
        'https://example-ru.cdn.ampproject.org/c/s/example.ru/news/123',
      ].map((u) => parseUrl(u).page_format),
    ).toEqual(['AMP', 'AMP', 'AMP', 'AMP', 'AMP', 'AMP', 'AMP', 'AMP']);
  });

  it('"amp" inside a word or amp=0 is not AMP', () => {
    expect(['https://example.ru/campus/lamp', 'https://example.ru/x?amp=0', 'https://example.ru/ampere'].map((u) => parseUrl(u).page_format)).toEqual(['Web', 'Web', 'Web']);
  });

  it('Turbo by turbopages.org and yandex.ru/turbo', () => {
    expect(['https://example-ru.turbopages.org/example.ru/s/news/123', 'https://yandex.ru/turbo/example.ru/s/news/123', 'https://yandex.ru/turbo?text=https%3A%2F%2Fexample.ru%2Fnews'].map((u) => parseUrl(u).page_format)).toEqual(['Turbo', 'Turbo', 'Turbo']);
  });

  it('an address that does not parse keeps url and the part before ?', () => {
    expect(parseUrl('not a url?x=1')).toEqual<UrlInfo>({ url: 'not a url?x=1', url_no_args: 'not a url', url_args_key: '', page_format: 'Web', ...NO_CAMPAIGN });
  });
});
