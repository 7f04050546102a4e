import { describe, expect, it } from 'vitest';
import type { AcceptedHit } from '@stat/schemas';
import { createAggregator } from '../aggregator.js';
import { VISIT_RETAIN_MS, VisitCutter, type Visit } from '../sessions.js';
import { EventStore } from '../storage.js';
import { chdbOfFile } from '../testing/chdb.js';
import { pageViewMaker } from '../testing/hits.js';
import { VisitRecall } from './visit-recall.js';

// Needs: chDB (in-process), one data directory for the file. Each test has visitors of its own.
const chdb = chdbOfFile('visit-recall');

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const pageView = pageViewMaker();
const hit = (visitor: string, at: number): AcceptedHit => pageView({ project: 5, visitor, at });

/** Stores hits through the aggregator, as a previous run did. */
async function storedBefore(hits: AcceptedHit[]): Promise<void> {
  await createAggregator(chdb.client).handle(hits);
}

const keys = (visitors: { project: number; visitor: string }[]): string[] => visitors.map((v) => `${v.project}:${v.visitor}`);

/** The store the aggregator uses, on the file's chDB; it also notes the visitors of each query it answers. */
class NotingStore extends EventStore {
  readonly asked = { openVisits: [] as string[][], visitCounts: [] as string[][] };

  constructor() {
    super(chdb.client);
  }

  override openVisits(visitors: { project: number; visitor: string }[], since: number): Promise<Map<string, Visit>> {
    this.asked.openVisits.push(keys(visitors));
    return super.openVisits(visitors, since);
  }

  override visitCounts(visitors: { project: number; visitor: string }[]): Promise<Map<string, number>> {
    this.asked.visitCounts.push(keys(visitors));
    return super.visitCounts(visitors);
  }
}

describe('VisitRecall on chDB', () => {
  it('asks storage only about visitors the cutter holds no visit for, a thousand a query', async () => {
    const startedAt = Date.now();
    // Visits of a previous run for a visitor of the first query and one of the second.
    await storedBefore([hit('visitor-0', startedAt - 10 * MINUTE), hit('visitor-1000', startedAt - 10 * MINUTE)]);
    const visits = new VisitCutter();
    visits.step(5, 'known-001', startedAt - MINUTE, 'pageview');
    const store = new NotingStore();
    const others = Array.from({ length: 1003 }, (_, i) => hit(`visitor-${i}`, startedAt));
    await new VisitRecall(store, visits, { restore: true, startedAt }).recall([hit('known-001', startedAt), ...others, hit('visitor-0', startedAt)]);
    const sizes = (queries: string[][]): number[] => queries.map((q) => q.length);
    expect({
      openVisits: sizes(store.asked.openVisits),
      visitCounts: sizes(store.asked.visitCounts),
      known: store.asked.openVisits.flat().includes('5:known-001'),
      restored: ['visitor-0', 'visitor-1', 'visitor-1000'].filter((v) => visits.knows(5, v)),
    }).toEqual({
      openVisits: [1000, 3],
      // The two restored hold a visit now: not counted.
      visitCounts: [1000, 1],
      known: false,
      restored: ['visitor-0', 'visitor-1000'],
    });
  });

  it('restores a visit left open by a previous run, and then counts only the visitors still unknown', async () => {
    const startedAt = Date.now();
    // 'back-0001' had three visits, the last of two page views and still open; 'new-00001' two, long closed.
    await storedBefore([
      hit('new-00001', startedAt - 48 * HOUR),
      hit('new-00001', startedAt - 24 * HOUR),
      hit('back-0001', startedAt - 5 * HOUR),
      hit('back-0001', startedAt - 4 * HOUR),
      hit('back-0001', startedAt - 10 * MINUTE),
      hit('back-0001', startedAt - 9 * MINUTE),
    ]);
    const [open] = await chdb.rows<{ id: string }>("SELECT toString(session_id) AS id FROM events WHERE visitor_id = 'back-0001' ORDER BY ts DESC LIMIT 1");
    const visits = new VisitCutter();
    const store = new NotingStore();
    await new VisitRecall(store, visits, { restore: true, startedAt }).recall([hit('back-0001', startedAt), hit('new-00001', startedAt)]);
    const back = visits.step(5, 'back-0001', startedAt, 'pageview').visit;
    const returning = visits.step(5, 'new-00001', startedAt, 'pageview').visit;
    expect({ asked: store.asked, back: [back.id, back.number, back.pageViews], returning: returning.number }).toEqual({
      asked: { openVisits: [['5:back-0001', '5:new-00001']], visitCounts: [['5:new-00001']] },
      back: [BigInt(open!.id), 3, 3],
      returning: 3,
    });
  });

  it('looks up no open visit past the previous run keeping time, nor with restoring off', async () => {
    const startedAt = Date.now();
    await storedBefore([hit('seeded-01', startedAt - 10 * MINUTE)]);
    const late = new NotingStore();
    await new VisitRecall(late, new VisitCutter(), { restore: true, startedAt }).recall([hit('late-0001', startedAt + VISIT_RETAIN_MS)]);
    const off = new NotingStore();
    const visits = new VisitCutter();
    await new VisitRecall(off, visits, { restore: false, startedAt }).recall([hit('seeded-01', startedAt)]);
    // The seeded visitor's open visit stays in storage; their count is recalled, so a new visit is their second.
    expect({ asked: [late.asked, off.asked], held: visits.knows(5, 'seeded-01'), number: visits.step(5, 'seeded-01', startedAt, 'pageview').visit.number }).toEqual({
      asked: [
        { openVisits: [], visitCounts: [['5:late-0001']] },
        { openVisits: [], visitCounts: [['5:seeded-01']] },
      ],
      held: false,
      number: 2,
    });
  });
});
