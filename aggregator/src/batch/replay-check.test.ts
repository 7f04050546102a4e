import { describe, expect, it } from 'vitest';
import type { AcceptedHit } from '@stat/schemas';
import { createAggregator } from '../aggregator.js';
import { EventStore } from '../storage.js';
import { chdbOfFile } from '../testing/chdb.js';
import { pageViewMaker } from '../testing/hits.js';
import { readBatch } from './messages.js';
import { SliceRebuilder } from './rebuild-slices.js';
import { ReplayCheck, type Replayable } from './replay-check.js';

// Needs: chDB (in-process), one data directory for the file. Each test has a topic of its own.
const chdb = chdbOfFile('replay-check');

const at = Date.now() - 10 * 60_000;
const pageView = pageViewMaker();
let sent = 0;

/** A hit of a project (5 unless told) by one visitor, a second after the one before. */
function hit(project = 5): AcceptedHit {
  sent += 1;
  return pageView({ project, visitor: 'replayed-01', at: at + sent * 1000 });
}

/** The check as the aggregator composes it, on the file's chDB. */
const checkOnChdb = (): ReplayCheck => new ReplayCheck(new EventStore(chdb.client), (tokens) => new SliceRebuilder(chdb.client).rebuild(tokens));

/** Stores messages at their offsets of a partition through the aggregator, as a previous run did. */
async function store(topic: string, partition: number, bodies: unknown[], offsets: number[]): Promise<void> {
  await createAggregator(chdb.client).handle(bodies, { topic, partition, offsets });
}

/** The offsets of the items, -1 for a message of the in-process bus. */
const offsetsOf = (items: Iterable<Replayable>): number[] => [...items].map((i) => i.place?.offset ?? -1).sort((a, b) => a - b);

describe('ReplayCheck on chDB', () => {
  it('finds stored what is at or below the recorded offset, and what the events hold above it', async () => {
    const bodies = [hit(), 'not json', hit(), hit(), hit(), 'not json either'];
    await store('t-recorded', 0, bodies.slice(0, 3), [0, 1, 2]);
    // The process died after the events' part of offset 3 was written and before its offsets' part.
    await chdb.client.command({ query: 'DETACH TABLE ingest_offsets_mv' });
    try {
      await store('t-recorded', 0, [bodies[3]], [3]);
    } finally {
      await chdb.client.command({ query: 'ATTACH TABLE ingest_offsets_mv' });
    }
    const check = checkOnChdb();
    const stored = await check.storedAmong(readBatch(bodies, { topic: 't-recorded', partition: 0, offsets: [0, 1, 2, 3, 4, 5] }), false);
    expect(offsetsOf(stored)).toEqual([0, 1, 2, 3]);
  });

  it('trusts its own recorded offset for a partition it stored a batch of, until a try fails', async () => {
    const bodies = [hit(), hit(), hit()];
    // Offsets 5 and 6 this process stored; 7 a try that failed after its insert landed.
    await store('t-trusted', 0, bodies, [5, 6, 7]);
    const check = checkOnChdb();
    const messages = readBatch(bodies, { topic: 't-trusted', partition: 0, offsets: [5, 6, 7] });
    check.handled([messages[0]!.place, messages[1]!.place]);
    const first = await check.storedAmong(messages.slice(1), false);
    const afterFailedTry = await check.storedAmong(messages.slice(2), true);
    expect({ first: offsetsOf(first), afterFailedTry: offsetsOf(afterFailedTry) }).toEqual({ first: [6], afterFailedTry: [7] });
  });

  it('reads each partition apart, and nothing for messages of the in-process bus', async () => {
    const bodies = [hit(), hit(), hit()];
    await store('t-apart', 1, [bodies[1]], [20]);
    const [inProcess] = readBatch([bodies[1]], undefined);
    const [onZero] = readBatch([bodies[0]], { topic: 't-apart', partition: 0, offsets: [10] });
    const onOne = readBatch(bodies.slice(1), { topic: 't-apart', partition: 1, offsets: [20, 21] });
    const stored = await checkOnChdb().storedAmong([onZero!, onOne[0]!, inProcess!, onOne[1]!], false);
    expect(offsetsOf(stored)).toEqual([20]);
  });

  /** The page views of a project as its events and as the hour rollup and visits hold them. */
  async function pageViews(project: number): Promise<{ events: number; rollup: number; visits: number }> {
    const read = (query: string): Promise<number> => chdb.count(query, { project });
    return {
      events: await read("SELECT count() AS n FROM events WHERE project_id = {project:UInt32} AND event_type = 'pageview'"),
      rollup: await read('SELECT sum(page_views) AS n FROM rollup_hour WHERE project_id = {project:UInt32}'),
      visits: await read('SELECT sum(page_views) AS n FROM visits WHERE project_id = {project:UInt32}'),
    };
  }

  it('completes an insert a crash cut short (its events and offsets stored, a rollup not) before it counts as stored', async () => {
    const bodies = [hit(61), hit(61), hit(61)];
    await store('t-half', 0, bodies.slice(0, 1), [0]);
    // The process died after the events' and the offsets' parts of 1 and 2 were written, before the hour rollup's.
    await chdb.client.command({ query: 'DETACH TABLE rollup_hour_mv' });
    try {
      await store('t-half', 0, bodies.slice(1), [1, 2]);
    } finally {
      await chdb.client.command({ query: 'ATTACH TABLE rollup_hour_mv' });
    }
    const half = await pageViews(61);
    const stored = await checkOnChdb().storedAmong(readBatch(bodies.slice(1), { topic: 't-half', partition: 0, offsets: [1, 2] }), false);
    expect({ half, stored: offsetsOf(stored), after: await pageViews(61) }).toEqual({
      half: { events: 3, rollup: 1, visits: 3 },
      stored: [1, 2],
      after: { events: 3, rollup: 3, visits: 3 },
    });
  });

  it('an insert that was whole, found again by a new process, is counted once', async () => {
    const bodies = [hit(62), hit(62)];
    await store('t-whole', 0, bodies, [0, 1]);
    const stored = await checkOnChdb().storedAmong(readBatch(bodies, { topic: 't-whole', partition: 0, offsets: [0, 1] }), false);
    expect({ stored: offsetsOf(stored), after: await pageViews(62) }).toEqual({ stored: [0, 1], after: { events: 2, rollup: 2, visits: 2 } });
  });
});
