import { describe, expect, it } from 'vitest';
import { BRAND, parseSiteUrl, PRODUCT_NAME, projectPageTitle, SITE_URL_MAX } from './site.js';

describe('the browser title of a project page (spec 001 §2)', () => {
  const product = BRAND ? `${PRODUCT_NAME} от ${BRAND}` : PRODUCT_NAME;

  it('reads: page title, site url, the product, project id', () => {
    expect(projectPageTitle('Целевые события', 'demo.stat.example', 7596044)).toBe(`Целевые события – demo.stat.example – ${product} – 7596044`);
    expect(projectPageTitle('Посещаемость', 'example.com', '8000003')).toBe(`Посещаемость – example.com – ${product} – 8000003`);
  });

  it('leaves out a part not known', () => {
    expect(projectPageTitle('Воронки', '', 123)).toBe(`Воронки – ${product} – 123`);
    expect(projectPageTitle('Воронки', '', '')).toBe(`Воронки – ${product}`);
  });

  it('this build has no brand of its own: the product is «Статистика»', () => {
    expect(product).toBe('Статистика');
  });
});

describe('a site address (spec 000 §5)', () => {
  it.each([
    ['https://example.ru', 'https://example.ru/'],
    ['http://www.example.ru/path?q=1', 'http://www.example.ru/path?q=1'],
    ['  https://example.ru  ', 'https://example.ru/'],
    ['https://сайт.рф', 'https://xn--80aswg.xn--p1ai/'],
    ['https://sub.example.com:8080/a', 'https://sub.example.com:8080/a'],
  ])('%j is taken as %j', (raw, href) => {
    expect(parseSiteUrl(raw)?.href).toBe(href);
  });

  it.each([
    '',
    '   ',
    'example.ru',
    'ftp://example.ru',
    'https://localhost',
    'https://127.0.0.1',
    'https://[::1]',
    'https://example',
    'https://example.r',
    'https://example.123',
    'https://user:pw@example.ru',
    'https://exa mple.ru',
    'https://-example.ru',
  ])('%j is refused', (raw) => {
    expect(parseSiteUrl(raw)).toBeNull();
  });

  it('is refused when not a string', () => {
    for (const raw of [undefined, null, 42, ['https://example.ru'], { href: 'https://example.ru' }]) expect(parseSiteUrl(raw)).toBeNull();
  });

  it(`takes ${SITE_URL_MAX} characters, counting the blanks around, and no more`, () => {
    const root = 'https://example.ru/';
    const ofLength = (length: number) => root + 'a'.repeat(length - root.length);
    expect(parseSiteUrl(ofLength(SITE_URL_MAX))?.href).toBe(ofLength(SITE_URL_MAX));
    expect(parseSiteUrl(ofLength(SITE_URL_MAX + 1))).toBeNull();
    expect(parseSiteUrl(` ${ofLength(SITE_URL_MAX)}`)).toBeNull();
  });
});
