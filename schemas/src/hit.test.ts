import { describe, expect, it } from 'vitest';
import { validateHit } from './hit.js';

const valid = { p: 7596044, t: 'pageview', u: 'https://example.ru/a?b=1', r: 'https://yandex.ru/', ti: 'Заголовок', sw: 1920, sh: 1080, v: 'abcDEF123_-' };

describe('validateHit', () => {
  it('accepts a full beacon hit as sent', () => {
    expect(validateHit(valid)).toEqual({ ok: true, hit: valid });
  });

  it('fills defaults for the optional fields', () => {
    expect(validateHit({ p: 1, u: 'http://a.ru/', v: 'abcdefgh' })).toEqual({
      ok: true,
      hit: { p: 1, t: 'pageview', u: 'http://a.ru/', r: '', ti: '', sw: 0, sh: 0, v: 'abcdefgh' },
    });
  });

  it('coerces the strings of a pixel query string to numbers', () => {
    const result = validateHit({ ...valid, p: '7596044', sw: '390', sh: '844' });
    expect(result).toEqual({ ok: true, hit: { ...valid, sw: 390, sh: 844 } });
  });

  it('refuses a missing project with the field named', () => {
    const { p: _p, ...rest } = valid;
    expect(validateHit(rest)).toMatchObject({ ok: false, reason: expect.stringMatching(/^p: /) });
  });

  it.each([0, -1, 1.5, 4_294_967_296, 'abc'])('refuses project id %s', (p) => {
    expect(validateHit({ ...valid, p })).toMatchObject({ ok: false, reason: expect.stringMatching(/^p: /) });
  });

  it.each(['javascript:alert(1)', 'example.ru/a', '', 'https://' + 'a'.repeat(2050)])('refuses url %s', (u) => {
    expect(validateHit({ ...valid, u })).toMatchObject({ ok: false, reason: expect.stringMatching(/^u: /) });
  });

  it.each(['short', 'has space 123', 'x'.repeat(65), 'кириллица12'])('refuses visitor id %s', (v) => {
    expect(validateHit({ ...valid, v })).toMatchObject({ ok: false, reason: expect.stringMatching(/^v: /) });
  });

  it('refuses an unknown event type', () => {
    expect(validateHit({ ...valid, t: 'purchase' })).toMatchObject({ ok: false, reason: expect.stringMatching(/^t: /) });
  });

  it('refuses unknown fields, so a misspelt key is not silently lost', () => {
    expect(validateHit({ ...valid, url: 'https://x.ru' })).toMatchObject({ ok: false });
  });

  it('refuses screens larger than any screen', () => {
    expect(validateHit({ ...valid, sw: 100_001 })).toMatchObject({ ok: false, reason: expect.stringMatching(/^sw: /) });
  });

  it.each([null, 'text', 42, []])('refuses a body that is not an object: %s', (body) => {
    expect(validateHit(body)).toMatchObject({ ok: false });
  });
});
