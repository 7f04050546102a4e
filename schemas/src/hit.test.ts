import { describe, expect, it } from 'vitest';
import { HIT_LIMITS, MAX_HIT_BYTES, PROJECT_ID_MAX, SCREEN_MAX, materialPublishedAt, validateHit } from './hit.js';

const valid = { p: 7596044, t: 'pageview', u: 'https://example.ru/a?b=1', r: 'https://yandex.ru/', ti: 'Заголовок', sw: 1920, sh: 1080, v: 'abcDEF123_-' };
/** The keys every hit has after validation, as a non-pageview hit from the counter leaves them. */
const base = { p: 7596044, u: 'https://example.ru/a?b=1', v: 'abcDEF123_-' };
const defaults = { r: '', ti: '', sw: 0, sh: 0 };
const refused = (field: string) => ({ ok: false, reason: expect.stringMatching(new RegExp(`^${field.replace('.', '\\.')}: `)) });

describe('validateHit: page views, as sent before custom events existed', () => {
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
    expect(validateHit(rest)).toMatchObject(refused('p'));
  });

  it.each([0, -1, 1.5, 4_294_967_296, 'abc'])('refuses project id %s', (p) => {
    expect(validateHit({ ...valid, p })).toMatchObject(refused('p'));
  });

  it.each(['javascript:alert(1)', 'example.ru/a', '', 'https://' + 'a'.repeat(2050)])('refuses url %s', (u) => {
    expect(validateHit({ ...valid, u })).toMatchObject(refused('u'));
  });

  it.each(['short', 'has space 123', 'x'.repeat(65), 'кириллица12'])('refuses visitor id %s', (v) => {
    expect(validateHit({ ...valid, v })).toMatchObject(refused('v'));
  });

  it('refuses an unknown event type', () => {
    expect(validateHit({ ...valid, t: 'purchase' })).toMatchObject(refused('t'));
  });

  it('refuses unknown fields, so a misspelt key is not silently lost', () => {
    expect(validateHit({ ...valid, url: 'https://x.ru' })).toMatchObject({ ok: false });
  });

  it('refuses screens larger than any screen', () => {
    expect(validateHit({ ...valid, sw: 100_001 })).toMatchObject(refused('sw'));
  });

  it.each([null, 'text', 42, []])('refuses a body that is not an object: %s', (body) => {
    expect(validateHit(body)).toMatchObject({ ok: false });
  });
});

describe('validateHit: custom events', () => {
  it('accepts an event with its class, name and parameters', () => {
    const hit = { ...base, t: 'event', ec: 'ec', en: 'purchase', ep: { sku: 'A-1', price: 990.5 } };
    expect(validateHit(hit)).toEqual({ ok: true, hit: { ...hit, ...defaults } });
  });

  it('gives an event without a class the class cv (custom events)', () => {
    expect(validateHit({ ...base, t: 'event', en: 'signup' })).toEqual({
      ok: true,
      hit: { ...base, ...defaults, t: 'event', en: 'signup', ec: 'cv' },
    });
  });

  it.each(['base', 'ub', 'media', 'ec', 'cv'])('accepts the event class %s', (ec) => {
    expect(validateHit({ ...base, t: 'event', ec, en: 'x' })).toMatchObject({ ok: true, hit: { ec } });
  });

  it.each(['rec', 'tech', 'CV', ''])('refuses the event class %s (rec and tech are the service’s own)', (ec) => {
    expect(validateHit({ ...base, t: 'event', ec, en: 'x' })).toEqual({ ok: false, reason: 'ec: must be one of base, ub, media, ec, cv' });
  });

  it('requires a name on an event', () => {
    expect(validateHit({ ...base, t: 'event', ep: { a: 1 } })).toEqual({ ok: false, reason: 'en: required on event hits' });
  });

  it.each([
    ['', 'en: must not be empty'],
    ['x'.repeat(HIT_LIMITS.eventName + 1), 'en: must be at most 128 characters'],
    ['line\nbreak', 'en: must not contain control characters'],
  ])('refuses the event name %j', (en, reason) => {
    expect(validateHit({ ...base, t: 'event', en })).toEqual({ ok: false, reason });
  });

  it('accepts parameters as JSON text, as a GET pixel carries them', () => {
    expect(validateHit({ ...base, p: '7596044', t: 'event', en: 'x', ep: '{"plan":"pro","seats":3}' })).toMatchObject({
      ok: true,
      hit: { ep: { plan: 'pro', seats: 3 } },
    });
  });

  it.each([[[1, 2]], ['not json'], [5]])('refuses parameters that are not an object: %j', (ep) => {
    expect(validateHit({ ...base, t: 'event', en: 'x', ep })).toEqual({ ok: false, reason: 'ep: must be a flat object of string or number values' });
  });

  it.each([[{ a: { b: 1 } }], [{ a: true }], [{ a: null }], [{ a: [1] }]])('refuses a parameter value that is not a string or number: %j', (ep) => {
    expect(validateHit({ ...base, t: 'event', en: 'x', ep })).toEqual({ ok: false, reason: 'ep.a: must be a string or a finite number' });
  });

  it('refuses a parameter value over the length limit', () => {
    const ep = { a: 'x'.repeat(HIT_LIMITS.paramValue + 1) };
    expect(validateHit({ ...base, t: 'event', en: 'x', ep })).toEqual({ ok: false, reason: 'ep.a: must be at most 200 characters' });
  });

  it.each(['', 'k'.repeat(HIT_LIMITS.paramKey + 1), 'tab\there'])('refuses the parameter name %j', (key) => {
    expect(validateHit({ ...base, t: 'event', en: 'x', ep: { [key]: 1 } })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/: parameter names must be 1 to 32 characters without control characters$/),
    });
  });

  it('refuses more parameters than the limit', () => {
    const ep = Object.fromEntries(Array.from({ length: HIT_LIMITS.params + 1 }, (_, i) => [`k${i}`, i]));
    expect(validateHit({ ...base, t: 'event', en: 'x', ep })).toEqual({ ok: false, reason: 'ep: at most 20 parameters' });
  });
});

describe('validateHit: fields that belong to one event type', () => {
  it.each([
    ['click', { bl: 'header-menu' }],
    ['show', { bl: 'header-menu' }],
    ['outbound', { l: 'https://partner.ru/offer?id=1' }],
    ['engagement', { d: 15_000 }],
    ['read', { sp: 80, rp: 100 }],
  ])('accepts a %s hit with its fields', (t, fields) => {
    expect(validateHit({ ...base, t, ...fields })).toEqual({ ok: true, hit: { ...base, ...defaults, t, ...fields } });
  });

  it.each([
    ['click', 'bl'],
    ['show', 'bl'],
    ['outbound', 'l'],
    ['engagement', 'd'],
    ['read', 'sp'],
  ])('requires on a %s hit the field %s', (t, field) => {
    expect(validateHit({ ...base, t })).toEqual({ ok: false, reason: `${field}: required on ${t} hits` });
  });

  it('requires both percents on a read hit', () => {
    expect(validateHit({ ...base, t: 'read', sp: 50 })).toEqual({ ok: false, reason: 'rp: required on read hits' });
  });

  it.each([
    ['pageview', { en: 'x' }, 'en'],
    ['pageview', { d: 100 }, 'd'],
    ['engagement', { d: 100, bl: 'menu' }, 'bl'],
    ['click', { bl: 'menu', ep: { a: 1 } }, 'ep'],
    ['outbound', { l: 'https://a.ru/', ec: 'cv' }, 'ec'],
    ['event', { en: 'x', sp: 10 }, 'sp'],
  ])('refuses on a %s hit a field of another type (%j)', (t, fields, field) => {
    expect(validateHit({ ...base, t, ...fields })).toEqual({ ok: false, reason: `${field}: not allowed on ${t} hits` });
  });

  it('coerces the numbers of a pixel query string', () => {
    expect(validateHit({ ...base, t: 'read', sp: '40', rp: '75' })).toMatchObject({ ok: true, hit: { sp: 40, rp: 75 } });
    expect(validateHit({ ...base, t: 'engagement', d: '1200' })).toMatchObject({ ok: true, hit: { d: 1200 } });
  });

  it.each([
    [{ bl: '' }, 'bl: must not be empty'],
    [{ bl: 'b'.repeat(HIT_LIMITS.blockName + 1) }, 'bl: must be at most 128 characters'],
    [{ bl: 'a\u0001b' }, 'bl: must not contain control characters'],
    [{ bl: 'a\u0000b' }, 'bl: must not contain NUL characters'],
  ])('refuses the block name in %j', (fields, reason) => {
    expect(validateHit({ ...base, t: 'click', ...fields })).toEqual({ ok: false, reason });
  });

  it.each(['https://partner.ru/', 'tel:+74950000000', 'mailto:a@b.ru'])('takes the clicked link %s', (l) => {
    expect(validateHit({ ...base, t: 'outbound', l })).toMatchObject({ ok: true });
  });

  it.each(['javascript:alert(1)', 'ftp://a.ru/f.zip', 'tel:', '/relative', 'https://' + 'a'.repeat(2050)])('refuses the outbound link %s', (l) => {
    expect(validateHit({ ...base, t: 'outbound', l })).toMatchObject(refused('l'));
  });

  it.each([
    [0, 'd: must be at least 1 ms'],
    [1.5, 'd: must be whole milliseconds'],
    [HIT_LIMITS.engagedMs + 1, 'd: must be at most 86400000 ms'],
    ['soon', 'd: must be whole milliseconds'],
  ])('refuses the engaged time %j', (d, reason) => {
    expect(validateHit({ ...base, t: 'engagement', d })).toEqual({ ok: false, reason });
  });

  it.each([
    [{ sp: 101, rp: 0 }, 'sp: must be 0 to 100'],
    [{ sp: 50, rp: -1 }, 'rp: must be 0 to 100'],
    [{ sp: 50.5, rp: 0 }, 'sp: must be a whole percent'],
  ])('refuses the percents %j', (fields, reason) => {
    expect(validateHit({ ...base, t: 'read', ...fields })).toEqual({ ok: false, reason });
  });
});

describe('validateHit: the user id', () => {
  it('accepts a user id on any hit', () => {
    expect(validateHit({ ...valid, uid: 'user-42' })).toEqual({ ok: true, hit: { ...valid, uid: 'user-42' } });
    expect(validateHit({ ...base, t: 'engagement', d: 10, uid: 'Пользователь 42' })).toMatchObject({ ok: true, hit: { uid: 'Пользователь 42' } });
  });

  it.each([
    ['', 'uid: must not be empty'],
    ['u'.repeat(HIT_LIMITS.userId + 1), 'uid: must be at most 128 characters'],
    ['a\nb', 'uid: must not contain control characters'],
  ])('refuses the user id %j', (uid, reason) => {
    expect(validateHit({ ...valid, uid })).toEqual({ ok: false, reason });
  });
});

describe('validateHit: size', () => {
  it('accepts a maximal hit of every type, each within the collector’s body cap', () => {
    const u = 'https://example.ru/' + 'a'.repeat(HIT_LIMITS.url - 19);
    // With the material of an article page, in Cyrillic (two bytes a character in UTF-8).
    const material = { mt: 'Т'.repeat(HIT_LIMITS.materialTitle), ma: 'А'.repeat(HIT_LIMITS.materialAuthor), mp: '2'.repeat(HIT_LIMITS.materialPublished) };
    const common = { p: PROJECT_ID_MAX, u, v: 'v'.repeat(64), uid: 'u'.repeat(HIT_LIMITS.userId), ...material };
    const ep = Object.fromEntries(
      Array.from({ length: HIT_LIMITS.params }, (_, i) => [`${i}`.padStart(HIT_LIMITS.paramKey, 'k'), 'x'.repeat(HIT_LIMITS.paramValue)]),
    );
    const hits = [
      { ...common, t: 'pageview', r: u, ti: 'T'.repeat(1024), sw: SCREEN_MAX, sh: SCREEN_MAX },
      { ...common, t: 'event', ec: 'media', en: 'e'.repeat(HIT_LIMITS.eventName), ep },
      { ...common, t: 'click', bl: 'b'.repeat(HIT_LIMITS.blockName) },
      { ...common, t: 'show', bl: 'b'.repeat(HIT_LIMITS.blockName) },
      { ...common, t: 'outbound', l: u },
      { ...common, t: 'engagement', d: HIT_LIMITS.engagedMs },
      { ...common, t: 'read', sp: 100, rp: 100 },
    ];
    for (const hit of hits) {
      expect(validateHit(hit)).toMatchObject({ ok: true });
      expect(Buffer.byteLength(JSON.stringify(hit))).toBeLessThan(MAX_HIT_BYTES);
    }
  });
});

describe('validateHit: the material of an article page', () => {
  const material = { mt: 'Как устроен город', ma: 'Анна Петрова', mp: '2026-11-20T09:30:00+03:00' };

  it('accepts a material on a page view and on the other hits of the page view', () => {
    expect(validateHit({ ...valid, ...material })).toEqual({ ok: true, hit: { ...valid, ...material } });
    expect(validateHit({ ...base, t: 'read', sp: 40, rp: 55, ...material })).toMatchObject({ ok: true, hit: material });
    expect(validateHit({ ...base, t: 'event', ec: 'base', en: 'scroll', mt: material.mt })).toMatchObject({ ok: true, hit: { mt: material.mt } });
  });

  it('keeps a published time it cannot read as text: an odd date does not cost the page view', () => {
    expect(validateHit({ ...valid, mp: 'вчера' })).toEqual({ ok: true, hit: { ...valid, mp: 'вчера' } });
  });

  it.each([
    ['mt', '', 'mt: must not be empty'],
    ['mt', 'т'.repeat(HIT_LIMITS.materialTitle + 1), 'mt: must be at most 256 characters'],
    ['mt', 'Заголовок\nв две строки', 'mt: must not contain control characters'],
    ['ma', 'а'.repeat(HIT_LIMITS.materialAuthor + 1), 'ma: must be at most 100 characters'],
    ['mp', '2'.repeat(HIT_LIMITS.materialPublished + 1), 'mp: must be at most 40 characters'],
  ])('refuses %s %j', (key, value, reason) => {
    expect(validateHit({ ...valid, [key]: value })).toEqual({ ok: false, reason });
  });
});

describe('materialPublishedAt', () => {
  it.each([
    ['2026-11-20T09:30:00+03:00', Date.UTC(2026, 10, 20, 6, 30) / 1000],
    ['2026-11-20T06:30:00Z', Date.UTC(2026, 10, 20, 6, 30) / 1000],
    ['2026-11-20T06:30:00.250z', Date.UTC(2026, 10, 20, 6, 30) / 1000],
    ['2026-11-20T01:30-0500', Date.UTC(2026, 10, 20, 6, 30) / 1000],
    // No offset: Moscow time, as the reports'.
    ['2026-11-20 09:30', Date.UTC(2026, 10, 20, 6, 30) / 1000],
    ['2026-11-20', Date.UTC(2026, 10, 19, 21, 0) / 1000],
  ])('reads %s', (text, seconds) => {
    expect(materialPublishedAt(text)).toBe(seconds);
  });

  it.each([undefined, '', 'вчера', '20.11.2026', '2026-02-30', '2026-11-20T24:00', '1969-12-31T00:00Z'])('gives 0 (unknown) for %j', (text) => {
    expect(materialPublishedAt(text)).toBe(0);
  });
});
