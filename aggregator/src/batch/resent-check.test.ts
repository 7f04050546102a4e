import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcceptedHit } from '@stat/schemas';
import { createClickHouse, migrateClickHouse, type ClickHouseClient } from '@stat/storage';
import { createAggregator } from '../aggregator.js';
import { EventStore } from '../storage.js';
import { readBatch } from './messages.js';
import { ResentCheck } from './resent-check.js';

// Needs: chDB (in-process), one data directory for the file. Each test has a project and topic of its own.
let clickhouse: ClickHouseClient;
beforeAll(async () => {
  clickhouse = createClickHouse({ kind: 'chdb', path: mkdtempSync(join(tmpdir(), 'stat-resent-check-')) });
  await migrateClickHouse(clickhouse);
});
afterAll(async () => {
  await clickhouse.close();
});

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const at = Date.now() - 10 * 60_000;
let sequence = 0;

/** A page view of a project by one visitor, a second after the one before. */
function hit(project: number): AcceptedHit {
  sequence += 1;
  const id = `00000000-0000-4000-9000-${String(sequence).padStart(12, '0')}`;
  return { id, at: at + sequence * 1000, ip: '77.88.55.88', ua: CHROME, hit: { p: project, t: 'pageview', u: `https://shop.ru/${sequence}`, r: '', ti: '', sw: 0, sh: 0, v: `resent-${project}` } };
}

/** The same hit as the collector sends it on from its log. */
const resent = (h: AcceptedHit): AcceptedHit => ({ ...h, resent: true });

async function pageViews(project: number): Promise<number> {
  const result = await clickhouse.query({ query: 'SELECT count() AS n FROM events WHERE project_id = {project:UInt32}', query_params: { project }, format: 'JSONEachRow' });
  const [row] = await result.json<{ n: string | number }>();
  return Number(row?.n ?? 0);
}

describe('ResentCheck on chDB', () => {
  it('leaves out a resent hit whose id is stored (at another offset) and keeps one that is not stored', async () => {
    const [stored, lost] = [hit(71), hit(71)];
    await createAggregator(clickhouse).handle([stored], { topic: 't-resent', partition: 0, offsets: [0] });
    const batch = readBatch([resent(stored!), resent(lost!)], { topic: 't-resent', partition: 0, offsets: [7, 8] });
    const copies = await new ResentCheck(new EventStore(clickhouse)).copiesAmong(batch);
    expect([...copies].map((m) => m.place?.offset)).toEqual([7]);
  });

  it('leaves out a resent hit whose first send is earlier in the same batch', async () => {
    const h = hit(72);
    const batch = readBatch([h, hit(72), resent(h)], { topic: 't-together', partition: 0, offsets: [0, 1, 2] });
    const copies = await new ResentCheck(new EventStore(clickhouse)).copiesAmong(batch);
    expect([...copies].map((m) => m.place?.offset)).toEqual([2]);
  });

  it('through the aggregator: a hit Kafka got twice, in two batches, is one event; a copy in the same batch too', async () => {
    const [a, b] = [hit(73), hit(73)];
    const aggregator = createAggregator(clickhouse);
    await aggregator.handle([a, b], { topic: 't-twice', partition: 0, offsets: [0, 1] });
    // The send of b timed out after Kafka stored it: the collector sent b again from its log, with a new hit c behind it.
    const c = hit(73);
    await aggregator.handle([resent(b!), resent(c), resent(c)], { topic: 't-twice', partition: 0, offsets: [2, 3, 4] });
    expect({ events: await pageViews(73), skipped: aggregator.stats.skippedReplays }).toEqual({ events: 3, skipped: 2 });
  });
});
