import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouse, migrateClickHouse, type ClickHouseClient } from '@stat/storage';
import { KafkaConsumer, committedMessages, type KafkaBusConfig } from '@stat/bus';
import { createAggregator } from '@stat/aggregator';
import { eventually } from './testing/api-client.js';
import { VISITOR_USER_AGENT } from './testing/browser.js';
import { freePort, startService, type ServiceProcess } from './testing/service.js';

// Needs: the real Kafka broker of infra/kafka.sh (KAFKA_BROKERS, default 127.0.0.1:9092), which
// the second test stops and starts again with that script. The collector is its own process;
// this test process is the store: it holds the ClickHouse data (chDB) and runs the aggregator,
// so that it can make ClickHouse refuse writes (DETACH TABLE) for as long as it wants.
const brokers = process.env.KAFKA_BROKERS || '127.0.0.1:9092';
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const bus: KafkaBusConfig = { brokers: brokers.split(','), topic: `stat-hits-out-${run}`, partitions: 3, clientId: 'outage-test' };
const group = `stat-aggregator-out-${run}`;
const kafkaScript = fileURLToPath(new URL('../../infra/kafka.sh', import.meta.url));
const OUTAGE_MS = 30_000;

let clickhouse: ClickHouseClient;
let consumer: KafkaConsumer;
let collector: ServiceProcess;
let collectorUrl = '';
let dataDir = '';
const log: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'stat-outage-'));
  clickhouse = createClickHouse({ kind: 'chdb', path: dataDir });
  await migrateClickHouse(clickhouse);
  const aggregator = createAggregator(clickhouse, { retryMs: 200, maxRetryMs: 2000, log: (m) => log.push(m) });
  consumer = new KafkaConsumer(bus, group);
  await consumer.start(aggregator.handle);
  const port = await freePort();
  collector = await startService({
    ROLES: 'collector',
    DATA_DIR: join(dataDir, 'collector'),
    COLLECTOR_PORT: String(port),
    KAFKA_BROKERS: brokers,
    KAFKA_TOPIC: bus.topic,
    KAFKA_PARTITIONS: String(bus.partitions),
  });
  collectorUrl = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await collector?.stop();
  await consumer?.stop();
  await clickhouse?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Sends hits and returns how many were acknowledged (204); 503 means "not taken, send again". */
async function send(projectId: number, count: number): Promise<number> {
  let acknowledged = 0;
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${collectorUrl}/hit`, {
      method: 'POST',
      headers: { 'user-agent': VISITOR_USER_AGENT },
      body: JSON.stringify({ p: projectId, u: `https://news.ru/a${i % 50}`, v: `reader-${i % 100}` }),
    });
    if (response.status === 204) acknowledged += 1;
    else expect(response.status).toBe(503);
  }
  return acknowledged;
}

/** The collector process's GET /ready. */
async function readiness(): Promise<{ status: number; body: { ready: boolean; reasons: string[] } }> {
  const answer = await fetch(`${collectorUrl}/ready`);
  return { status: answer.status, body: (await answer.json()) as { ready: boolean; reasons: string[] } };
}

async function stored(projectId: number): Promise<{ events: number; distinct: number }> {
  const result = await clickhouse.query({
    query: 'SELECT count() AS events, uniqExact(event_key) AS distinct FROM events WHERE project_id = {p:UInt32}',
    query_params: { p: projectId },
    format: 'JSONEachRow',
  });
  const [row] = await result.json<{ events: string; distinct: string }>();
  return { events: Number(row?.events ?? 0), distinct: Number(row?.distinct ?? 0) };
}

describe('outages', () => {
  it('ClickHouse refusing writes for 30 s: the aggregator waits, commits nothing, then stores every hit once', async () => {
    const projectId = 800_000_000 + Math.floor(Math.random() * 1_000_000);
    const before = await send(projectId, 500);
    await eventually(() => stored(projectId), (s) => s.events === before, 60_000);
    const committedBefore = await eventually(() => committedMessages(bus, group), (n) => n >= before, 30_000);

    await clickhouse.command({ query: 'DETACH TABLE events' });
    const during = await send(projectId, 1000);
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    // Nothing was written, so nothing was committed: the bus still holds every hit of the outage.
    expect(await committedMessages(bus, group)).toBe(committedBefore);
    expect(log.some((line) => line.includes('retrying'))).toBe(true);
    await clickhouse.command({ query: 'ATTACH TABLE events' });

    const total = before + during;
    expect(await eventually(() => stored(projectId), (s) => s.events >= total, 90_000)).toEqual({ events: total, distinct: total });
  }, 240_000);

  it('Kafka stopped for 30 s: every acknowledged hit arrives once, none is answered 204 and lost', async () => {
    const projectId = 810_000_000 + Math.floor(Math.random() * 1_000_000);
    const before = await send(projectId, 300);
    await eventually(() => stored(projectId), (s) => s.events === before, 60_000);

    expect(await readiness()).toEqual({ status: 200, body: { ready: true, reasons: [] } });
    execFileSync('bash', [kafkaScript, 'stop'], { stdio: 'inherit' });
    let during = 0;
    try {
      const until = Date.now() + OUTAGE_MS;
      while (Date.now() < until) during += await send(projectId, 50);
      // The collector is not ready while Kafka is away, and says so.
      const down = await eventually(readiness, (r) => r.status === 503);
      expect(down.body.ready).toBe(false);
      expect(down.body.reasons.filter((r) => r.startsWith('Kafka unreachable: '))).toHaveLength(1);
    } finally {
      execFileSync('bash', [kafkaScript, 'start'], { stdio: 'inherit' });
    }
    const total = before + during;
    expect(await eventually(() => stored(projectId), (s) => s.events >= total, 150_000)).toEqual({ events: total, distinct: total });
    expect(await eventually(readiness, (r) => r.status === 200, 60_000)).toEqual({ status: 200, body: { ready: true, reasons: [] } });
  }, 360_000);

  it('a collector started while Kafka is away answers 204 from its hit log, and Kafka has every hit once it is back', async () => {
    const projectId = 820_000_000 + Math.floor(Math.random() * 1_000_000);
    execFileSync('bash', [kafkaScript, 'stop'], { stdio: 'inherit' });
    let late: ServiceProcess | null = null;
    try {
      const port = await freePort();
      late = await startService({
        ROLES: 'collector',
        DATA_DIR: join(dataDir, 'late-collector'),
        COLLECTOR_PORT: String(port),
        KAFKA_BROKERS: brokers,
        KAFKA_TOPIC: bus.topic,
        KAFKA_PARTITIONS: String(bus.partitions),
      });
      expect(late.output()).toContain('Kafka cannot be reached');
      const statuses: number[] = [];
      for (let i = 0; i < 100; i++) {
        const response = await fetch(`http://127.0.0.1:${port}/hit`, {
          method: 'POST',
          headers: { 'user-agent': VISITOR_USER_AGENT },
          body: JSON.stringify({ p: projectId, u: `https://news.ru/late${i % 10}`, v: `late-reader-${i % 20}` }),
        });
        statuses.push(response.status);
      }
      expect(statuses).toEqual(new Array(100).fill(204));
    } finally {
      execFileSync('bash', [kafkaScript, 'start'], { stdio: 'inherit' });
    }
    try {
      expect(await eventually(() => stored(projectId), (s) => s.events >= 100, 150_000)).toEqual({ events: 100, distinct: 100 });
    } finally {
      await late?.stop();
    }
  }, 360_000);
});
