import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouse, type ClickHouseClient } from '@stat/storage';
import { writeSplitting, type WriteOutcome } from './write.js';

// Needs: chDB (in-process), one data directory for the file; a closed 127.0.0.1 port for the outage.
let clickhouse: ClickHouseClient;
let closed: ClickHouseClient;
beforeAll(async () => {
  clickhouse = createClickHouse({ kind: 'chdb', path: mkdtempSync(join(tmpdir(), 'stat-write-')) });
  await clickhouse.command({ query: 'CREATE TABLE items (n UInt32, label String, CONSTRAINT poison CHECK label != \'poison\') ENGINE = MergeTree ORDER BY n' });
  // A port that was free a moment ago: nothing listens there, so connections are refused.
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
  closed = createClickHouse({ kind: 'http', url: `http://127.0.0.1:${port}` });
});
afterAll(async () => {
  await clickhouse.close();
  await closed.close();
});

interface Item {
  n: number;
  label: string;
}
const items = (from: number, labels: string[]): Item[] => labels.map((label, i) => ({ n: from + i, label }));

/** Inserts into `items` and records each insert's size. */
function inserter(client: ClickHouseClient, sizes: number[]) {
  return async (batch: readonly Item[]): Promise<void> => {
    sizes.push(batch.length);
    await client.insert({ table: 'items', values: batch.map((i) => [i.n, i.label]), format: 'JSONCompactEachRow', columns: ['n', 'label'] });
  };
}

/** Records what the write reports, in order. */
function recorder(): { log: string[]; outcome: WriteOutcome<Item> } {
  const log: string[] = [];
  return {
    log,
    outcome: {
      stored: (batch) => void log.push(`stored ${batch.map((i) => i.n).join(',')}`),
      refused: async (item, reason) => void log.push(`refused ${item.n}: ${reason.replace(/\(\w{8}-[\w-]+\) /, '')}`),
    },
  };
}

async function storedNumbers(from: number, to: number): Promise<number[]> {
  const result = await clickhouse.query({ query: 'SELECT n FROM items WHERE n BETWEEN {from:UInt32} AND {to:UInt32} ORDER BY n', query_params: { from, to }, format: 'JSONEachRow' });
  return (await result.json<{ n: number }>()).map((r) => r.n);
}

const REFUSAL = "Constraint `poison` for table default.items is violated at row 1. Expression: (label != 'poison'). Column values: label = 'poison'.";

describe('writeSplitting on chDB', () => {
  it('stores a batch ClickHouse takes in one insert', async () => {
    const sizes: number[] = [];
    const { log, outcome } = recorder();
    await writeSplitting(items(100, ['a', 'b', 'c']), inserter(clickhouse, sizes), outcome);
    expect({ sizes, log, stored: await storedNumbers(100, 199) }).toEqual({ sizes: [3], log: ['stored 100,101,102'], stored: [100, 101, 102] });
  });

  it('splits a batch ClickHouse refuses down to the refused row, in order, and stores the others once', async () => {
    const sizes: number[] = [];
    const { log, outcome } = recorder();
    await writeSplitting(items(200, ['a', 'b', 'c', 'poison', 'e']), inserter(clickhouse, sizes), outcome);
    expect({ sizes, log, stored: await storedNumbers(200, 299) }).toEqual({
      sizes: [5, 3, 2, 1, 1],
      log: ['stored 200,201,202', `refused 203: ${REFUSAL}`, 'stored 204'],
      stored: [200, 201, 202, 204],
    });
  });

  it('sets aside every refused row of a batch', async () => {
    const sizes: number[] = [];
    const { log, outcome } = recorder();
    await writeSplitting(items(300, ['poison', 'b', 'poison']), inserter(clickhouse, sizes), outcome);
    expect({ log, stored: await storedNumbers(300, 399) }).toEqual({
      log: [`refused 300: ${REFUSAL}`, 'stored 301', `refused 302: ${REFUSAL}`],
      stored: [301],
    });
  });

  it('throws an outage, and sets nothing aside', async () => {
    const { log, outcome } = recorder();
    await expect(writeSplitting(items(400, ['a', 'b']), inserter(closed, []), outcome)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(log).toEqual([]);
  });

  it('throws an outage met in the middle of a split, after what it stored', async () => {
    const sizes: number[] = [];
    const { log, outcome } = recorder();
    const chdb = inserter(clickhouse, sizes);
    const down = inserter(closed, sizes);
    // ClickHouse refuses the whole batch, takes the first half, then goes away.
    let calls = 0;
    const insert = (batch: readonly Item[]): Promise<void> => (++calls <= 2 ? chdb(batch) : down(batch));
    await expect(writeSplitting(items(500, ['a', 'b', 'poison', 'd']), insert, outcome)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect({ sizes, log, stored: await storedNumbers(500, 599) }).toEqual({ sizes: [4, 2, 2], log: ['stored 500,501'], stored: [500, 501] });
  });
});
