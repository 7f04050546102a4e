import { describe, expect, it } from 'vitest';
import type { AcceptedHit } from '@stat/schemas';
import { createAggregator } from '../aggregator.js';
import { EventStore } from '../storage.js';
import { chdbOfFile } from '../testing/chdb.js';
import { pageViewMaker } from '../testing/hits.js';
import { readBatch } from './messages.js';
import { ResentCheck } from './resent-check.js';

// Needs: chDB (in-process), one data directory for the file. Each test has a project and topic of its own.
const chdb = chdbOfFile('resent-check');

const at = Date.now() - 10 * 60_000;
const pageView = pageViewMaker('9000');
let sent = 0;

/** A page view of a project by one visitor, a second after the one before. */
function hit(project: number): AcceptedHit {
  sent += 1;
  return pageView({ project, visitor: `resent-${project}`, at: at + sent * 1000, url: `https://shop.ru/${sent}` });
}

/** The same hit as the collector sends it on from its log. */
const resent = (h: AcceptedHit): AcceptedHit => ({ ...h, resent: true });

const pageViews = (project: number): Promise<number> => chdb.count('SELECT count() AS n FROM events WHERE project_id = {project:UInt32}', { project });

describe('ResentCheck on chDB', () => {
  it('leaves out a resent hit whose id is stored (at another offset) and keeps one that is not stored', async () => {
    const [stored, lost] = [hit(71), hit(71)];
    await createAggregator(chdb.client).handle([stored], { topic: 't-resent', partition: 0, offsets: [0] });
    const batch = readBatch([resent(stored!), resent(lost!)], { topic: 't-resent', partition: 0, offsets: [7, 8] });
    const copies = await new ResentCheck(new EventStore(chdb.client)).copiesAmong(batch);
    expect([...copies].map((m) => m.place?.offset)).toEqual([7]);
  });

  it('leaves out a resent hit whose first send is earlier in the same batch', async () => {
    const h = hit(72);
    const batch = readBatch([h, hit(72), resent(h)], { topic: 't-together', partition: 0, offsets: [0, 1, 2] });
    const copies = await new ResentCheck(new EventStore(chdb.client)).copiesAmong(batch);
    expect([...copies].map((m) => m.place?.offset)).toEqual([2]);
  });

  it('through the aggregator: a hit Kafka got twice, in two batches, is one event; a copy in the same batch too', async () => {
    const [a, b] = [hit(73), hit(73)];
    const aggregator = createAggregator(chdb.client);
    await aggregator.handle([a, b], { topic: 't-twice', partition: 0, offsets: [0, 1] });
    // The send of b timed out after Kafka stored it: the collector sent b again from its log, with a new hit c behind it.
    const c = hit(73);
    await aggregator.handle([resent(b!), resent(c), resent(c)], { topic: 't-twice', partition: 0, offsets: [2, 3, 4] });
    expect({ events: await pageViews(73), skipped: aggregator.stats.skippedReplays }).toEqual({ events: 3, skipped: 2 });
  });
});
