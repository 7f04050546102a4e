import { describe, expect, it } from 'vitest';
import { HIT_TYPES, type AcceptedHit, type HitType } from '@stat/schemas';
import type { Enrichment } from '../enrich/index.js';
import { VisitCutter } from '../sessions.js';
import { sourceOf } from '../source.js';
import { cutVisitStep, roleOf } from './visits.js';

const MINUTE = 60_000;
const hit = (at: number, t: HitType = 'pageview'): AcceptedHit => ({
  id: '00000000-0000-4000-8000-000000000001',
  at,
  ip: '',
  ua: '',
  hit: { p: 5, t, u: 'https://shop.ru/', r: '', ti: '', sw: 0, sh: 0, v: 'visitor-1', ...(t === 'engagement' ? { d: 1000 } : {}) },
});
const enrichment = (traffic: string): Enrichment => ({ ...({} as Enrichment), traffic_type: traffic as Enrichment['traffic_type'], utm_source: traffic });

describe('roleOf', () => {
  it('names what each hit type is to its visit', () => {
    expect(Object.fromEntries(HIT_TYPES.map((t) => [t, roleOf(t)]))).toEqual({
      pageview: 'pageview',
      event: 'action',
      click: 'action',
      show: 'action',
      outbound: 'action',
      engagement: 'report',
      read: 'report',
    });
  });
});

describe('cutVisitStep', () => {
  it("puts a visitor's hits in one visit, numbered, with the first hit's source", () => {
    const cut = cutVisitStep(new VisitCutter());
    const first = cut({ accepted: hit(0), enrichment: enrichment('search') });
    const second = cut({ accepted: hit(MINUTE), enrichment: enrichment('direct') });
    if (!('ok' in first) || !('ok' in second)) throw new Error('a visit step never drops');
    expect(second.ok.step.visit.id).toBe(first.ok.step.visit.id);
    expect({ ...second.ok.step, visit: { ...second.ok.step.visit, id: 0n } }).toEqual({
      visit: { id: 0n, number: 1, startAt: 0, lastAt: MINUTE, events: 2, pageViews: 2, source: sourceOf(enrichment('search')) },
      eventNumber: 2,
      bounceDelta: -1,
      durationDelta: MINUTE,
    });
  });

  it('starts a new visit after the time-out', () => {
    const cut = cutVisitStep(new VisitCutter());
    cut({ accepted: hit(0), enrichment: enrichment('search') });
    const later = cut({ accepted: hit(31 * MINUTE), enrichment: enrichment('direct') });
    expect('ok' in later && [later.ok.step.visit.number, later.ok.step.eventNumber, later.ok.step.visit.source?.traffic_type]).toEqual([2, 1, 'direct']);
  });

  it('keeps the enriched hit it was given', () => {
    const cut = cutVisitStep(new VisitCutter());
    const input = { accepted: hit(0, 'engagement'), enrichment: enrichment('search') };
    const result = cut(input);
    expect('ok' in result && { accepted: result.ok.accepted, enrichment: result.ok.enrichment }).toEqual(input);
  });
});
