import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouse, migrateClickHouse, type AcceptedHit, type ClickHouseClient } from '@stat/schemas';
import { createAggregator } from './aggregator.js';

// Needs: chDB (in-process), one data directory for the file.
let clickhouse: ClickHouseClient;
beforeAll(async () => {
  clickhouse = createClickHouse({ kind: 'chdb', path: mkdtempSync(join(tmpdir(), 'stat-aggregator-')) });
  await migrateClickHouse(clickhouse);
});
afterAll(async () => {
  await clickhouse.close();
});

let sequence = 0;
function hit(project: number, visitor: string, at: number, url = 'https://shop.ru/'): AcceptedHit {
  sequence += 1;
  return { id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`, at, ip: '', ua: 'test', hit: { p: project, t: 'pageview', u: url, r: '', ti: '', sw: 0, sh: 0, v: visitor } };
}

async function rows<T>(query: string, params: Record<string, unknown>): Promise<T[]> {
  const result = await clickhouse.query({ query, query_params: params, format: 'JSONEachRow' });
  return result.json<T>();
}

const MINUTE = 60_000;

describe('aggregator on chDB', () => {
  it('a visit open before a restart goes on after it', async () => {
    const now = Date.now() - 10 * MINUTE;
    await createAggregator(clickhouse).handle([hit(11, 'visitor-a', now), hit(11, 'visitor-a', now + MINUTE)]);
    // A new aggregator knows nothing in memory, as after kill -9.
    await createAggregator(clickhouse).handle([hit(11, 'visitor-a', now + 5 * MINUTE)]);
    const sessions = await rows<{ n: string }>('SELECT uniqExact(session_id) AS n FROM events WHERE project_id = {p:UInt32}', { p: 11 });
    expect(Number(sessions[0]!.n)).toBe(1);
  });

  it('skips hits of a replayed Kafka batch that are already stored', async () => {
    const at = Date.now() - 5 * MINUTE;
    const first = [hit(12, 'visitor-b', at), hit(12, 'visitor-b', at + 1000)];
    const position = { topic: 't-replay', partition: 0, offsets: [0, 1] };
    await createAggregator(clickhouse).handle(first, position);
    // After a crash before the commit, the batch comes again, now with one more hit.
    const again = [...first, hit(12, 'visitor-b', at + 2000)];
    await createAggregator(clickhouse).handle(again, { ...position, offsets: [0, 1, 2] });
    const count = await rows<{ n: string }>('SELECT count() AS n FROM events WHERE project_id = {p:UInt32}', { p: 12 });
    expect(Number(count[0]!.n)).toBe(3);
  });

  it('keeps the visits table current: entry, exit, depth and duration', async () => {
    const at = Date.now() - 20 * MINUTE;
    const aggregator = createAggregator(clickhouse);
    await aggregator.handle([hit(13, 'visitor-c', at, 'https://shop.ru/a')]);
    await aggregator.handle([hit(13, 'visitor-c', at + 2 * MINUTE, 'https://shop.ru/b'), hit(13, 'visitor-c', at + 3 * MINUTE, 'https://shop.ru/c')]);
    const visits = await rows<Record<string, unknown>>(
      `SELECT sum(page_views) AS depth, argMinMerge(entry_url) AS entry, argMaxMerge(exit_url) AS exit,
              toUnixTimestamp64Milli(max(end_ts)) - toUnixTimestamp64Milli(min(start_ts)) AS duration_ms
       FROM visits WHERE project_id = {p:UInt32} GROUP BY session_id`,
      { p: 13 },
    );
    expect(visits.map((v) => ({ ...v, depth: Number(v.depth), duration_ms: Number(v.duration_ms) }))).toEqual([
      { depth: 3, entry: 'https://shop.ru/a', exit: 'https://shop.ru/c', duration_ms: 3 * MINUTE },
    ]);
  });
});
