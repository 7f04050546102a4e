import { describe, expect, it } from 'vitest';
import { VISIT_RETAIN_MS, VISIT_TIMEOUT_MS, VisitCutter } from './sessions.js';

const MINUTE = 60_000;
const t0 = Date.parse('2026-11-21T10:00:00Z');

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
    expect([click.visit.id, click.visit.pageViews, click.bounceDelta]).toEqual([visit, 1, 0]);
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
