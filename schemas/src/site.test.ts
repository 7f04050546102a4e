import { describe, expect, it } from 'vitest';
import { BRAND, PRODUCT_NAME, projectPageTitle } from './site.js';

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
