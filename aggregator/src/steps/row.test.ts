import { describe, expect, it } from 'vitest';
import { EVENT_COLUMNS, type AcceptedHit } from '@stat/schemas';
import { createEnricher, type Enrichment } from '../enrich/index.js';
import { paramsOf } from '../rows.js';
import { VisitCutter } from '../sessions.js';
import { toRowStep } from './row.js';
import { cutVisitStep } from './visits.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const accepted: AcceptedHit = {
  id: '00000000-0000-4000-8000-000000000001',
  at: Date.UTC(2025, 0, 31, 22, 30),
  ip: '77.88.55.88',
  ua: CHROME,
  hit: { p: 5, t: 'event', ec: 'ec', en: 'buy', ep: { sku: 'A-1', price: 990 }, u: 'https://shop.ru/item', r: '', ti: 'Item', sw: 1920, sh: 1080, v: 'visitor-1', uid: 'user-7' },
};

function visited() {
  const enriched = createEnricher().enrichHit(accepted);
  if (enriched.kind !== 'ok') throw new Error('a browser is enriched');
  const result = cutVisitStep(new VisitCutter())({ accepted, enrichment: enriched.enrichment });
  if (!('ok' in result)) throw new Error('a visit step never drops');
  return { hit: result.ok, enrichment: enriched.enrichment };
}

describe('toRowStep', () => {
  it("writes the hit's facts, its visit and its place on the bus into its row", () => {
    const { hit, enrichment } = visited();
    const result = toRowStep(hit, { topic: 'hits', partition: 2, offset: 41 });
    if (!('ok' in result)) throw new Error('a row step never drops');
    const { session_id, ...row } = result.ok;
    expect(session_id).toBe(hit.step.visit.id.toString());
    const rest = Object.fromEntries(Object.entries(row).filter(([key]) => !(key in enrichment)));
    expect(rest).toEqual({
      // the UUID's last 16 hex digits, 8000000000000001, as one number: 2^63 + 1
      event_key: '9223372036854775809',
      project_id: 5,
      event_type: 'event',
      event_class: 'ec',
      event_name: 'buy',
      event_params: { sku: 'A-1', price: '990' },
      user_id: 'user-7',
      block_name: '',
      link_url: '',
      engaged_ms: 0,
      scroll_percent: 0,
      read_percent: 0,
      ts: '2025-01-31 22:30:00.000',
      event_date: '2025-02-01',
      visitor_id: 'visitor-1',
      session_start: '2025-01-31 22:30:00.000',
      session_number: 1,
      event_number: 1,
      bounce_delta: 0,
      duration_delta: 0,
      referrer: '',
      title: 'Item',
      media_title: '',
      author_name: '',
      published_datetime: 0,
      screen_width: 1920,
      screen_height: 1080,
      user_agent: CHROME,
      bus_topic: 'hits',
      bus_partition: 2,
      bus_offset: 41,
    });
    expect(Object.fromEntries(Object.entries(row).filter(([key]) => key in enrichment))).toEqual({ ...(enrichment as Partial<Enrichment>), url: 'https://shop.ru/item' });
  });

  it("writes an article page's material: its title, author and published time in UTC", () => {
    const material = { mt: 'Как устроен город', ma: 'Анна Петрова', mp: '2026-11-20T09:30:00+03:00' };
    const enriched = createEnricher().enrichHit({ ...accepted, hit: { ...accepted.hit, ...material } });
    if (enriched.kind !== 'ok') throw new Error('a browser is enriched');
    const step = cutVisitStep(new VisitCutter())({ accepted: { ...accepted, hit: { ...accepted.hit, ...material } }, enrichment: enriched.enrichment });
    if (!('ok' in step)) throw new Error('a visit step never drops');
    const result = toRowStep(step.ok, undefined);
    expect('ok' in result && [result.ok.media_title, result.ok.author_name, result.ok.published_datetime]).toEqual([
      'Как устроен город',
      'Анна Петрова',
      Date.UTC(2026, 10, 20, 6, 30) / 1000,
    ]);
  });

  it('writes a hit of the in-process bus at no place', () => {
    const result = toRowStep(visited().hit, undefined);
    expect('ok' in result && [result.ok.bus_topic, result.ok.bus_partition, result.ok.bus_offset]).toEqual(['', -1, -1]);
  });

  it('gives a value to every column', () => {
    const result = toRowStep(visited().hit, undefined);
    expect('ok' in result && Object.keys(result.ok).sort()).toEqual([...EVENT_COLUMNS].sort());
  });
});

describe('paramsOf', () => {
  it('keeps a parameter named __proto__ as a key, not as the prototype', () => {
    const ep = JSON.parse('{"__proto__": "x", "a": 1}') as Record<string, string | number>;
    const params = paramsOf({ ...accepted.hit, ep });
    expect([Object.entries(params), Object.getPrototypeOf(params) === Object.prototype, JSON.stringify(params)]).toEqual([
      [
        ['__proto__', 'x'],
        ['a', '1'],
      ],
      true,
      '{"__proto__":"x","a":"1"}',
    ]);
  });
});
