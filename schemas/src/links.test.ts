import { describe, expect, it } from 'vitest';
import { linkEventName } from './links.js';

describe('the event name of a clicked link', () => {
  it.each([
    ['https://partner.ru/offer', 'outbound'],
    ['https://partner.ru/catalog.html', 'outbound'],
    ['https://shop.ru/files/price.pdf', 'download'],
    ['https://shop.ru/files/PRICE.XLSX?v=2#top', 'download'],
    ['https://cdn.ru/app.apk', 'download'],
    ['https://shop.ru/pdf', 'outbound'],
    ['tel:+74950000000', 'tel'],
    ['TEL:+74950000000', 'tel'],
    ['mailto:shop@shop.ru', 'mailto'],
  ])('%s is %s', (link, name) => {
    expect(linkEventName(link)).toBe(name);
  });
});
