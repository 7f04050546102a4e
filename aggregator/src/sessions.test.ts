import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOUNCE_MS, VISIT_RETAIN_MS, VISIT_TIMEOUT_MS, VisitCutter, type HitRole, type Visit, type VisitStep } from './sessions.js';
import { visitSource } from './testing/enrichment.js';

const SECOND = 1000;
const MINUTE = 60_000;
const t0 = Date.parse('2026-11-21T10:00:00Z');

const DIRECT = visitSource();
const YANDEX = visitSource({ traffic_type: 'search', traffic_system: 'yandex', search_system: 'yandex' });

/** A step without its visit's id, whose values depend on nothing but the hash. */
const withoutId = (step: VisitStep): Omit<VisitStep, 'visit'> & { visit: Omit<Visit, 'id'> } => {
  const { id, ...visit } = step.visit;
  void id;
  return { ...step, visit };
};

describe('VisitCutter', () => {
  it('keeps hits within 30 minutes of each other in one visit', () => {
    const cutter = new VisitCutter();
    const first = cutter.visitOf(1, 'visitor1', t0).id;
    expect(cutter.visitOf(1, 'visitor1', t0 + 29 * MINUTE).id).toBe(first);
    expect(cutter.visitOf(1, 'visitor1', t0 + 58 * MINUTE).id).toBe(first);
  });

  it('starts a new visit after more than 30 minutes of silence', () => {
    const cutter = new VisitCutter();
    const first = cutter.visitOf(1, 'visitor1', t0).id;
    expect(cutter.visitOf(1, 'visitor1', t0 + VISIT_TIMEOUT_MS + 1).id).not.toBe(first);
  });

  it('keeps visitors and projects apart', () => {
    const cutter = new VisitCutter();
    const a = cutter.visitOf(1, 'visitor1', t0).id;
    expect(cutter.visitOf(1, 'visitor2', t0).id).not.toBe(a);
    expect(cutter.visitOf(2, 'visitor1', t0).id).not.toBe(a);
  });

  it('gives the same ids when the same stream is cut again', () => {
    const cut = (): bigint[] => {
      const cutter = new VisitCutter();
      return [t0, t0 + MINUTE, t0 + 2 * VISIT_TIMEOUT_MS].map((t) => cutter.visitOf(1, 'v', t).id);
    };
    expect(cut()).toEqual(cut());
  });

  it("numbers a visitor's visits from 1, per project", () => {
    const cutter = new VisitCutter();
    const numbers = [t0, t0 + MINUTE, t0 + 2 * VISIT_TIMEOUT_MS, t0 + 4 * VISIT_TIMEOUT_MS].map((t) => cutter.visitOf(1, 'v', t).number);
    expect(numbers).toEqual([1, 1, 2, 3]);
    expect(cutter.visitOf(2, 'v', t0).number).toBe(1);
  });

  it('numbers a returning visitor after the visits recalled from storage, and only for the next batch', () => {
    const cutter = new VisitCutter();
    cutter.recallVisits(1, 'returning', 4);
    expect(cutter.visitOf(1, 'returning', t0).number).toBe(5);
    expect(cutter.visitOf(1, 'returning', t0 + 2 * VISIT_TIMEOUT_MS).number).toBe(6);
    cutter.recallVisits(1, 'recalled-then-swept', 7);
    cutter.sweep(t0);
    expect(cutter.visitOf(1, 'recalled-then-swept', t0).number).toBe(1);
  });

  it('forgets visits past keeping when swept', () => {
    const cutter = new VisitCutter();
    cutter.visitOf(1, 'old', t0);
    cutter.visitOf(1, 'recent', t0 + 20 * MINUTE);
    cutter.sweep(t0 + VISIT_RETAIN_MS + 10 * MINUTE);
    expect(cutter.size).toBe(1);
  });

  it('gives a late report (engaged time, reading depth) to its visit without lengthening it', () => {
    const cutter = new VisitCutter();
    const visit = cutter.step(1, 'v', t0, 'pageview').visit.id;
    const late = cutter.step(1, 'v', t0 + 45 * MINUTE, 'report');
    expect([late.visit.id, late.durationDelta, late.bounceDelta, late.visit.pageViews]).toEqual([visit, 0, 0, 1]);
    // The visit still ended 30 minutes after its page view: the next page view opens a new one.
    expect(cutter.step(1, 'v', t0 + 46 * MINUTE, 'pageview').visit.id).not.toBe(visit);
  });

  it('lets an action keep a visit alive without counting as a page view', () => {
    const cutter = new VisitCutter();
    const visit = cutter.step(1, 'v', t0, 'pageview').visit.id;
    const click = cutter.step(1, 'v', t0 + 20 * MINUTE, 'action');
    // 20 minutes on, the visit has lasted 15 s or more: no longer a bounce.
    expect([click.visit.id, click.visit.pageViews, click.bounceDelta]).toEqual([visit, 1, -1]);
    expect(cutter.step(1, 'v', t0 + 45 * MINUTE, 'pageview').visit.id).toBe(visit);
  });

  it('marks the first page view of a visit as a bounce and the second as undoing it', () => {
    const cutter = new VisitCutter();
    const steps = [0, 1, 2].map((m) => cutter.step(1, 'v', t0 + m * MINUTE, 'pageview'));
    expect(steps.map((s) => [s.eventNumber, s.bounceDelta, s.durationDelta])).toEqual([
      [1, 1, 0],
      [2, -1, MINUTE],
      [3, 0, MINUTE],
    ]);
  });

  it('undoes the steps of a batch that failed to store', () => {
    const cutter = new VisitCutter();
    cutter.step(1, 'v', t0, 'pageview');
    cutter.begin();
    cutter.step(1, 'v', t0 + MINUTE, 'pageview');
    cutter.step(1, 'w', t0 + MINUTE, 'pageview');
    cutter.rollback();
    expect(cutter.knows(1, 'w')).toBe(false);
    expect(cutter.step(1, 'v', t0 + MINUTE, 'pageview').eventNumber).toBe(2);
  });
});

describe('VisitCutter: a page view from another source starts a new visit', () => {
  it('starts the next visit at a search click after a direct entry: a new id, number +1, its own source', () => {
    const cutter = new VisitCutter();
    const first = cutter.step(1, 'v', t0, 'pageview', { source: DIRECT });
    const search = cutter.step(1, 'v', t0 + MINUTE, 'pageview', { source: YANDEX });
    expect(search.visit.id).not.toBe(first.visit.id);
    expect(withoutId(search)).toEqual({
      visit: { number: 2, startAt: t0 + MINUTE, lastAt: t0 + MINUTE, events: 1, pageViews: 1, engagedMs: 0, bounce: true, source: YANDEX },
      eventNumber: 1,
      bounceDelta: 1,
      durationDelta: 0,
    });
  });

  it('keeps the visit for a direct entry after a search click', () => {
    const cutter = new VisitCutter();
    const first = cutter.step(1, 'v', t0, 'pageview', { source: YANDEX });
    const direct = cutter.step(1, 'v', t0 + MINUTE, 'pageview', { source: DIRECT });
    expect([direct.visit.id === first.visit.id, direct.visit.number, direct.eventNumber, direct.visit.source]).toEqual([true, 1, 2, YANDEX]);
  });

  it('keeps the visit for internal navigation, even to a page tagged as an ad', () => {
    const cutter = new VisitCutter();
    const first = cutter.step(1, 'v', t0, 'pageview', { source: YANDEX });
    const banner = visitSource({ traffic_type: 'ad', traffic_system: 'promo', ad_system: 'promo', utm_source: 'promo', utm_medium: 'banner' });
    const internal = cutter.step(1, 'v', t0 + MINUTE, 'pageview', { source: banner, internal: true });
    expect([internal.visit.id === first.visit.id, internal.eventNumber, internal.visit.source]).toEqual([true, 2, YANDEX]);
  });

  it('cuts only at page views: an action or report classified elsewhere stays in its visit', () => {
    const cutter = new VisitCutter();
    const first = cutter.step(1, 'v', t0, 'pageview', { source: DIRECT });
    const steps = (['action', 'report'] as const).map((role, i) => cutter.step(1, 'v', t0 + (i + 1) * SECOND, role, { source: YANDEX }));
    expect(steps.map((s) => [s.visit.id === first.visit.id, s.eventNumber])).toEqual([
      [true, 2],
      [true, 3],
    ]);
  });

  it('cuts on the time-out alone when the hits carry no source', () => {
    const cutter = new VisitCutter();
    cutter.step(1, 'v', t0, 'pageview', { source: DIRECT });
    expect(cutter.step(1, 'v', t0 + MINUTE, 'pageview').eventNumber).toBe(2);
  });

  it('gives visits cut in the same millisecond different ids, and the same ids when the stream is cut again', () => {
    const ad = visitSource({ traffic_type: 'ad', traffic_system: 'yandex_direct', ad_system: 'yandex_direct' });
    const cut = (): bigint[] => {
      const cutter = new VisitCutter();
      return [DIRECT, YANDEX, ad].map((s) => cutter.step(1, 'v', t0, 'pageview', { source: s }).visit.id);
    };
    const ids = cut();
    expect(new Set(ids).size).toBe(3);
    expect(cut()).toEqual(ids);
  });

  it('undoes a cut by source with the rest of a batch that failed to store', () => {
    const cutter = new VisitCutter();
    const first = cutter.step(1, 'v', t0, 'pageview', { source: DIRECT });
    cutter.begin();
    const cut = cutter.step(1, 'v', t0 + MINUTE, 'pageview', { source: YANDEX });
    cutter.rollback();
    const again = cutter.step(1, 'v', t0 + MINUTE, 'pageview', { source: YANDEX });
    expect([again.visit.id === cut.visit.id, again.visit.id === first.visit.id, again.visit.number]).toEqual([true, false, 2]);
  });
});

describe('VisitCutter: bounces', () => {
  /** The bounce deltas of hits of one visitor at `t0 + ms`, with their roles and engaged time. */
  const deltas = (hits: [number, HitRole, number?][]): number[] => {
    const cutter = new VisitCutter();
    return hits.map(([ms, role, engagedMs]) => cutter.step(1, 'v', t0 + ms, role, { engagedMs }).bounceDelta);
  };

  it('undoes the bounce of a visit at its second page view', () => {
    expect(deltas([[0, 'pageview'], [3 * SECOND, 'pageview'], [4 * SECOND, 'pageview']])).toEqual([1, -1, 0]);
  });

  it('undoes the bounce at an action 15 s after the visit began', () => {
    expect(deltas([[0, 'pageview'], [BOUNCE_MS, 'action'], [BOUNCE_MS + SECOND, 'action']])).toEqual([1, -1, 0]);
  });

  it('keeps the bounce after an action 14 s after the visit began', () => {
    expect(deltas([[0, 'pageview'], [5 * SECOND, 'action'], [14 * SECOND, 'action']])).toEqual([1, 0, 0]);
  });

  it('undoes the bounce when engagement reports add up to 15 s, however late they come', () => {
    expect(deltas([[0, 'pageview'], [10 * SECOND, 'report', 10 * SECOND], [45 * MINUTE, 'report', 5 * SECOND], [46 * MINUTE, 'report', 5 * SECOND]])).toEqual([1, 0, -1, 0]);
  });

  it('keeps the bounce with 14 s of engagement reported', () => {
    expect(deltas([[0, 'pageview'], [14 * SECOND, 'report', 14 * SECOND], [14 * SECOND, 'report', 0]])).toEqual([1, 0, 0]);
  });

  it('never undoes a bounce twice: a second page view after 15 s of engagement changes nothing', () => {
    expect(deltas([[0, 'pageview'], [20 * SECOND, 'report', 20 * SECOND], [MINUTE, 'pageview']])).toEqual([1, -1, 0]);
  });

  it('makes no bounce of a visit whose first page view comes 15 s after its first hit', () => {
    expect(deltas([[0, 'action'], [BOUNCE_MS, 'pageview']])).toEqual([0, 0]);
  });

  it('goes on from the bounce stored for a restored visit, undoing it once', () => {
    const cutter = new VisitCutter();
    const stored: Visit = { id: 7n, number: 1, startAt: t0, lastAt: t0, events: 1, pageViews: 1, engagedMs: 0, bounce: true, source: DIRECT };
    cutter.restore(1, 'v', stored);
    const steps = [cutter.step(1, 'v', t0 + 2 * SECOND, 'action'), cutter.step(1, 'v', t0 + MINUTE, 'pageview'), cutter.step(1, 'v', t0 + 2 * MINUTE, 'pageview')];
    expect(steps.map((s) => [s.visit.id, s.eventNumber, s.bounceDelta])).toEqual([
      [7n, 2, 0],
      [7n, 3, -1],
      [7n, 4, 0],
    ]);
  });

  it('sums the deltas of any visit to 1 for a bounce and 0 otherwise, never passing through another value', () => {
    const sources = [DIRECT, YANDEX, visitSource({ utm_source: 'mail', utm_campaign: 'spring' }), visitSource({ utm_source: 'mail', utm_campaign: 'autumn' })];
    const hit = fc.record({
      gapMs: fc.oneof(fc.integer({ min: 0, max: 20 * SECOND }), fc.integer({ min: 0, max: 40 * MINUTE })),
      role: fc.constantFrom<HitRole>('pageview', 'pageview', 'action', 'report'),
      engagedMs: fc.integer({ min: 0, max: 20 * SECOND }),
      source: fc.integer({ min: 0, max: sources.length - 1 }),
      internal: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(hit, { maxLength: 40 }), (hits) => {
        const cutter = new VisitCutter();
        const visits = new Map<bigint, { deltas: number[]; start: number; last: number; pageViews: number; engagedMs: number }>();
        let at = t0;
        for (const h of hits) {
          at += h.gapMs;
          const engagedMs = h.role === 'report' ? h.engagedMs : 0;
          const step = cutter.step(1, 'v', at, h.role, { source: sources[h.source], internal: h.internal, engagedMs });
          const v = visits.get(step.visit.id) ?? { deltas: [], start: at, last: at, pageViews: 0, engagedMs: 0 };
          v.deltas.push(step.bounceDelta);
          if (h.role !== 'report') v.last = at;
          if (h.role === 'pageview') v.pageViews += 1;
          v.engagedMs += engagedMs;
          visits.set(step.visit.id, v);
        }
        for (const v of visits.values()) {
          const sums = v.deltas.map((_, i) => v.deltas.slice(0, i + 1).reduce((a, b) => a + b, 0));
          const bounce = v.pageViews === 1 && v.last - v.start < BOUNCE_MS && v.engagedMs < BOUNCE_MS ? 1 : 0;
          expect({
            sumsOutside01: sums.filter((s) => s !== 0 && s !== 1).length,
            ups: v.deltas.filter((d) => d === 1).length <= 1,
            downs: v.deltas.filter((d) => d === -1).length <= 1,
            sum: sums[sums.length - 1],
          }).toEqual({ sumsOutside01: 0, ups: true, downs: true, sum: bounce });
        }
      }),
      { numRuns: 500, seed: 20261121 },
    );
  });
});
