import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouse, migrateClickHouse, type ClickHouseClient } from '@stat/storage';
import { KafkaConsumer, type KafkaBusConfig } from '@stat/bus';
import { createAggregator } from '@stat/aggregator';
import { VISITOR_USER_AGENT } from './testing/browser.js';
import { countStored } from './testing/hit-property.js';
import { freePort, startService, type ServiceProcess } from './testing/service.js';

// Needs: the real Kafka broker of infra/kafka.sh (KAFKA_BROKERS, default 127.0.0.1:9092). The
// collector is its own process, killed with SIGKILL in the middle of a stream and started again
// on its data directory; this test process is the store (chDB and the aggregator, consuming the
// real topic), so that it reads every hit's events by its marker.
const brokers = process.env.KAFKA_BROKERS || '127.0.0.1:9092';
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const bus: KafkaBusConfig = { brokers: brokers.split(','), topic: `stat-hits-crash-${run}`, partitions: 3, clientId: 'crash-test' };

let clickhouse: ClickHouseClient;
let consumer: KafkaConsumer;
let storeDir = '';
const dirs: string[] = [];
const collectors: ServiceProcess[] = [];

beforeAll(async () => {
  storeDir = mkdtempSync(join(tmpdir(), 'stat-crash-store-'));
  clickhouse = createClickHouse({ kind: 'chdb', path: storeDir });
  await migrateClickHouse(clickhouse);
  consumer = new KafkaConsumer(bus, `stat-aggregator-crash-${run}`);
  await consumer.start(createAggregator(clickhouse, { retryMs: 200, maxRetryMs: 2_000 }).handle);
});

afterAll(async () => {
  for (const c of collectors) await c.kill();
  await consumer?.stop();
  await clickhouse?.close();
  for (const dir of [storeDir, ...dirs]) if (dir) rmSync(dir, { recursive: true, force: true });
});

async function startCollector(dataDir: string): Promise<{ process: ServiceProcess; url: string }> {
  const port = await freePort();
  const started = await startService({ ROLES: 'collector', DATA_DIR: dataDir, COLLECTOR_PORT: String(port), KAFKA_BROKERS: brokers, KAFKA_TOPIC: bus.topic, KAFKA_PARTITIONS: String(bus.partitions) });
  collectors.push(started);
  return { process: started, url: `http://127.0.0.1:${port}` };
}

describe('cluster mode: a crash of the collector loses no hit it answered 204', () => {
  it.each([20261129, 31337])('kill -9 of the collector in the middle of a stream (seed %i): every hit answered 204 reaches storage exactly once', async (seed) => {
    const [killAfter] = fc.sample(fc.integer({ min: 100, max: 2_000 }), { seed, numRuns: 1 });
    const projectId = 820_000_000 + (seed % 1_000_000);
    const dataDir = mkdtempSync(join(tmpdir(), 'stat-crash-collector-'));
    dirs.push(dataDir);
    const first = await startCollector(dataDir);
    const outcomes: { marker: string; status: number | null }[] = [];
    let next = 0;
    let acknowledged = 0;
    let killed = false;
    const worker = async (): Promise<void> => {
      while (next < 5_000) {
        const marker = `kc-${seed}-${String(next++).padStart(5, '0')}`;
        let status: number | null = null;
        try {
          const response = await fetch(`${first.url}/hit`, {
            method: 'POST',
            headers: { 'user-agent': VISITOR_USER_AGENT },
            body: JSON.stringify({ p: projectId, u: `https://news.ru/${marker}`, v: marker }),
          });
          status = response.status;
        } catch {
          // The process died with the request in flight: no answer.
        }
        outcomes.push({ marker, status });
        if (status === 204 && ++acknowledged >= killAfter! && !killed) {
          killed = true;
          first.process.child.kill('SIGKILL');
        }
        if (killed && status === null) return;
      }
    };
    await Promise.all(Array.from({ length: 40 }, worker));
    await first.process.kill();
    const answered = outcomes.filter((o) => o.status === 204).map((o) => o.marker);
    expect(answered.length).toBeGreaterThanOrEqual(killAfter!);
    expect(outcomes.some((o) => o.status === null)).toBe(true);

    // The collector comes back on its data directory: what its log holds for Kafka goes there.
    const second = await startCollector(dataDir);
    const markers = outcomes.map((o) => o.marker);
    const deadline = Date.now() + 90_000;
    let stored = await countStored(clickhouse, markers);
    while (answered.some((m) => stored.get(m)!.events === 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      stored = await countStored(clickhouse, markers);
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    stored = await countStored(clickhouse, markers);
    expect(answered.filter((m) => stored.get(m)!.events !== 1), 'answered 204, not stored exactly once').toEqual([]);
    expect(markers.filter((m) => stored.get(m)!.events > 1), 'stored twice').toEqual([]);
    expect(await second.process.stop()).toBe(0);
  }, 240_000);
});
