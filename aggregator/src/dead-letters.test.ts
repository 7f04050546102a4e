import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventKeyOf, type AcceptedHit, type DeadLetter, type DeadLetterPublisher } from '@stat/schemas';
import { createClickHouse } from '@stat/storage';
import { createAggregator } from './aggregator.js';
import { chdbOfFile } from './testing/chdb.js';
import { pageViewMaker } from './testing/hits.js';

// Needs: chDB (in-process), one data directory for the file, with a CHECK constraint of its own
// on events so that ClickHouse refuses a row that passes the schema; a closed 127.0.0.1 port.
// Project ids 41 to 49 are this file's.
const chdb = chdbOfFile('dead-letters');
let closedUrl = '';
beforeAll(async () => {
  await chdb.client.command({ query: "ALTER TABLE events ADD CONSTRAINT poison CHECK title != 'poison'" });
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
  closedUrl = `http://127.0.0.1:${port}`;
});

const MINUTE = 60_000;
const pageView = pageViewMaker('8000', 4100);
const hit = (project: number, visitor: string, at: number, title?: string): AcceptedHit => pageView({ project, visitor, at, title });

/** The events of a project: each key and how often it is stored. */
async function events(project: number): Promise<{ event_key: string; n: number }[]> {
  const stored = await chdb.rows<{ event_key: string; n: string | number }>(
    'SELECT toString(event_key) AS event_key, count() AS n FROM events WHERE project_id = {p:UInt32} GROUP BY event_key ORDER BY event_key',
    { p: project },
  );
  return stored.map((r) => ({ event_key: r.event_key, n: Number(r.n) }));
}

/** The dead letters whose raw text holds `marker`, as dead_hits holds them (one per message). */
async function deadHits(marker: string, since: number): Promise<Record<string, unknown>[]> {
  return chdb.rows(
    `SELECT project_id, event_id, event_date, reason, raw, set_aside_at >= fromUnixTimestamp64Milli({since:Int64}) AS recent
     FROM dead_hits FINAL WHERE position(raw, {marker:String}) > 0 ORDER BY raw`,
    { marker, since },
  );
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const REFUSAL = /^Constraint `poison` for table default\.events \([\w-]+\) is violated at row 1\. Expression: \(title != 'poison'\)\. Column values: title = 'poison'\.$/;

describe('dead letters on chDB', () => {
  it('splits a batch with a row ClickHouse refuses: the others stored once, the refused one in dead_hits with its reason and raw body', async () => {
    const since = Date.now();
    const at = Date.now() - 10 * MINUTE;
    const batch = [hit(41, 'visitor-41a', at), hit(41, 'visitor-41a', at + 1000), hit(41, 'visitor-41b', at + 2000, 'poison'), hit(41, 'visitor-41b', at + 3000)];
    const aggregator = createAggregator(chdb.client, { retryMs: 10 });
    await aggregator.handle(batch, { topic: 't-poison', partition: 0, offsets: [0, 1, 2, 3] });
    expect(aggregator.stats).toEqual({ stored: 3, droppedBots: 0, droppedByRules: 0, droppedNoProject: 0, skippedReplays: 0, deadLettered: 1 });
    expect(await events(41)).toEqual([batch[0], batch[1], batch[3]].map((h) => ({ event_key: eventKeyOf(h!.id), n: 1 })));
    expect(await deadHits(batch[2]!.id, since)).toEqual([
      { project_id: 41, event_id: batch[2]!.id, event_date: expect.any(String), reason: expect.stringMatching(REFUSAL), raw: JSON.stringify(batch[2]), recent: 1 },
    ]);
    // The visits built from the events count the stored hits once too.
    const visits = await chdb.rows<{ visitor_id: string; pv: string | number }>(
      'SELECT visitor_id, sum(page_views) AS pv FROM visits WHERE project_id = 41 GROUP BY visitor_id ORDER BY visitor_id',
    );
    expect(visits.map((v) => [v.visitor_id, Number(v.pv)])).toEqual([
      ['visitor-41a', 2],
      ['visitor-41b', 1],
    ]);
    // The partition's stored offset covers the batch: replayed, nothing is written twice.
    const again = createAggregator(chdb.client);
    await again.handle(batch, { topic: 't-poison', partition: 0, offsets: [0, 1, 2, 3] });
    expect(again.stats).toEqual({ stored: 0, droppedBots: 0, droppedByRules: 0, droppedNoProject: 0, skippedReplays: 4, deadLettered: 0 });
  });

  it('sets aside the refused last row of a batch so that a replay writes it once', async () => {
    const since = Date.now();
    const at = Date.now() - 10 * MINUTE;
    const batch = [hit(42, 'visitor-42a', at), hit(42, 'visitor-42a', at + 1000, 'poison')];
    await createAggregator(chdb.client).handle(batch, { topic: 't-poison', partition: 1, offsets: [7, 8] });
    // Offset 8 is above the stored offset (7): a replay sees it again, and sets it aside again.
    const again = createAggregator(chdb.client);
    await again.handle(batch, { topic: 't-poison', partition: 1, offsets: [7, 8] });
    expect(again.stats).toEqual({ stored: 0, droppedBots: 0, droppedByRules: 0, droppedNoProject: 0, skippedReplays: 1, deadLettered: 1 });
    expect({ events: await events(42), dead: (await deadHits(batch[1]!.id, since)).length }).toEqual({ events: [{ event_key: eventKeyOf(batch[0]!.id), n: 1 }], dead: 1 });
  });

  it('sets aside messages that are no accepted hit with their reasons, stores the valid ones of the batch, and a later batch', async () => {
    const since = Date.now();
    const at = Date.now() - 10 * MINUTE;
    const valid = hit(43, 'visitor-43a', at);
    const validText = hit(43, 'visitor-43a', at + 1000);
    const oldCollector = hit(43, 'visitor-43b', at);
    const bigProject = { ...oldCollector, hit: { ...oldCollector.hit, p: 2_147_483_648 } };
    const surrogate = hit(43, 'visitor-43c', at);
    // Kafka's text, as JSON writes a lone surrogate: the escape, six ASCII characters.
    const surrogateText = JSON.stringify({ ...surrogate, hit: { ...surrogate.hit, ti: 'x\ud800y' } });
    const lone = hit(43, 'visitor-43d', at);
    // The in-process bus's object, with the lone surrogate itself.
    const loneObject = { ...lone, hit: { ...lone.hit, ti: 'x\udc00y' } };
    const notJson = `not json ${valid.id}`;
    // A message without a time of its own is dated the Moscow day it is set aside: between these two.
    const moscowToday = async () => (await chdb.rows<{ d: string }>("SELECT toString(toDate(now(), 'Europe/Moscow')) AS d"))[0]!.d;
    const dayBefore = await moscowToday();
    const aggregator = createAggregator(chdb.client);
    await aggregator.handle([valid, bigProject, surrogateText, notJson, loneObject, JSON.stringify(validText)], {
      topic: 't-bad',
      partition: 0,
      offsets: [0, 1, 2, 3, 4, 5],
    });
    expect(aggregator.stats).toEqual({ stored: 2, droppedBots: 0, droppedByRules: 0, droppedNoProject: 0, skippedReplays: 0, deadLettered: 4 });
    expect(await events(43)).toEqual([valid, validText].map((h) => ({ event_key: eventKeyOf(h.id), n: 1 })));
    const day = (await chdb.rows<{ d: string }>('SELECT toString(toDate(fromUnixTimestamp64Milli({at:Int64}), \'Europe/Moscow\')) AS d', { at }))[0]!.d;
    const dayAfter = await moscowToday();
    const letters = [
      ...(await deadHits(oldCollector.id, since)),
      ...(await deadHits(surrogate.id, since)),
      ...(await deadHits(lone.id, since)),
      ...(await deadHits(notJson, since)),
    ];
    expect(letters).toEqual([
      { project_id: 0, event_id: oldCollector.id, event_date: day, reason: 'hit.p: must be at most 2147483647', raw: JSON.stringify(bigProject), recent: 1 },
      { project_id: 43, event_id: surrogate.id, event_date: day, reason: 'hit.ti: must be well-formed Unicode (a lone surrogate)', raw: surrogateText, recent: 1 },
      { project_id: 43, event_id: lone.id, event_date: day, reason: 'hit.ti: must be well-formed Unicode (a lone surrogate)', raw: JSON.stringify(loneObject), recent: 1 },
      { project_id: 0, event_id: '', event_date: expect.toSatisfy((d: string) => d === dayBefore || d === dayAfter), reason: 'body: not valid JSON', raw: notJson, recent: 1 },
    ]);
    expect(JSON.stringify(loneObject)).toContain('x\\udc00y');
    const later = hit(43, 'visitor-43a', at + 2000);
    await aggregator.handle([JSON.stringify(later)], { topic: 't-bad', partition: 0, offsets: [6] });
    expect(await events(43)).toEqual([valid, validText, later].map((h) => ({ event_key: eventKeyOf(h.id), n: 1 })));
  });

  it('writes dead letters once however often a batch comes (a replay from before the offsets moved)', async () => {
    const since = Date.now();
    const bad = `not json either ${since}`;
    const batch = [bad, hit(44, 'visitor-44a', Date.now() - MINUTE)];
    // The in-process bus gives no offsets: the same batch handled twice is stored twice, but
    // its dead letters are keyed by the message.
    await createAggregator(chdb.client).handle([bad]);
    await createAggregator(chdb.client).handle(batch, { topic: 't-again', partition: 0, offsets: [0, 1] });
    expect(await deadHits(bad, since)).toEqual([{ project_id: 0, event_id: '', event_date: expect.any(String), reason: 'body: not valid JSON', raw: bad, recent: 1 }]);
  });

  it('hands dead letters to the publisher too, and tries a batch again when the publisher fails', async () => {
    const published: DeadLetter[] = [];
    let failures = 1;
    const publisher: DeadLetterPublisher = {
      publish: async (letters) => {
        if (failures-- > 0) throw new Error('broker not available');
        published.push(...letters);
      },
      close: async () => undefined,
    };
    const log: string[] = [];
    const aggregator = createAggregator(chdb.client, { deadLetters: publisher, retryMs: 10, log: (m) => log.push(m) });
    const before = Date.now();
    const poison = hit(45, 'visitor-45a', Date.now() - MINUTE, 'poison');
    await aggregator.handle([hit(45, 'visitor-45a', Date.now() - 2 * MINUTE), poison]);
    expect(published).toEqual([{ reason: expect.stringMatching(REFUSAL), raw: JSON.stringify(poison), eventId: poison.id, projectId: 45, at: expect.any(Number) }]);
    expect(published[0]!.at).toBeGreaterThanOrEqual(before);
    expect(log).toEqual(['aggregator: write of 2 messages failed, retrying in 10 ms: Error: broker not available']);
    expect({ stats: aggregator.stats, events: (await events(45)).length, dead: (await deadHits(poison.id, before)).length }).toEqual({
      stats: { stored: 1, droppedBots: 0, droppedByRules: 0, droppedNoProject: 0, skippedReplays: 0, deadLettered: 1 },
      events: 1,
      dead: 1,
    });
  });

  it('tries again, never setting aside, while a table is missing, and stores the batch once it is back', async () => {
    const at = Date.now() - 5 * MINUTE;
    const log: string[] = [];
    const aggregator = createAggregator(chdb.client, { retryMs: 20, maxRetryMs: 50, log: (m) => log.push(m) });
    await chdb.client.command({ query: 'DETACH TABLE events' });
    const batch = [hit(46, 'visitor-46a', at), hit(46, 'visitor-46a', at + 1000)];
    const handled = aggregator.handle(batch);
    await until(() => log.length >= 3);
    expect(aggregator.health()).toEqual({ failing: expect.stringContaining('events'), failingSince: expect.any(Number), oldestUnstoredAt: at });
    await chdb.client.command({ query: 'ATTACH TABLE events' });
    await handled;
    expect({ health: aggregator.health(), stats: aggregator.stats, events: (await events(46)).length }).toEqual({
      health: { failing: null, failingSince: null, oldestUnstoredAt: null },
      stats: { stored: 2, droppedBots: 0, droppedByRules: 0, droppedNoProject: 0, skippedReplays: 0, deadLettered: 0 },
      events: 2,
    });
  });

  it('tries an outage again, shows it in health, and rejects within a second of stop()', async () => {
    const down = createClickHouse({ kind: 'http', url: closedUrl });
    try {
      const log: string[] = [];
      const aggregator = createAggregator(down, { retryMs: 100, maxRetryMs: 10_000, log: (m) => log.push(m) });
      expect(aggregator.health()).toEqual({ failing: null, failingSince: null, oldestUnstoredAt: null });
      const at = Date.now() - MINUTE;
      const started = Date.now();
      const handled = aggregator.handle([hit(47, 'visitor-47a', at + 500), hit(47, 'visitor-47a', at), 'not json'], { topic: 't-down', partition: 0, offsets: [0, 1, 2] });
      // Tried five times by now, and waiting 1.6 s for the sixth: stop() must not wait for it.
      await until(() => log.length >= 5, 10_000);
      expect(log.map((m) => m.replace(/: Error: .*$/, ''))).toEqual(
        [100, 200, 400, 800, 1600].map((ms) => `aggregator: write of 3 messages failed, retrying in ${ms} ms`),
      );
      const health = aggregator.health();
      expect(health).toEqual({ failing: `connect ECONNREFUSED ${closedUrl.slice('http://'.length)}`, failingSince: expect.any(Number), oldestUnstoredAt: at });
      expect(health.failingSince).toBeGreaterThanOrEqual(started);
      const stopping = Date.now();
      aggregator.stop();
      await expect(handled).rejects.toThrow('aggregator stopped');
      expect(Date.now() - stopping).toBeLessThan(200);
      expect(aggregator.stats).toEqual({ stored: 0, droppedBots: 0, droppedByRules: 0, droppedNoProject: 0, skippedReplays: 0, deadLettered: 0 });
      expect(aggregator.health()).toEqual({ failing: health.failing, failingSince: health.failingSince, oldestUnstoredAt: null });
      // After stop, a batch is tried once: it fails at once rather than waiting.
      const tries = log.length;
      await expect(aggregator.handle([hit(47, 'visitor-47b', at)])).rejects.toThrow('aggregator stopped');
      expect(log.length).toBe(tries);
    } finally {
      await down.close();
    }
  });

  it('stores a batch handed over after stop() when the first try succeeds', async () => {
    const aggregator = createAggregator(chdb.client);
    aggregator.stop();
    await aggregator.handle([hit(48, 'visitor-48a', Date.now() - MINUTE)]);
    expect({ stored: aggregator.stats.stored, events: (await events(48)).length }).toEqual({ stored: 1, events: 1 });
  });
});
