import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, eventually, periodSince, summaryTotals } from './testing/api-client.js';
import { freePort, startService, type ServiceProcess } from './testing/service.js';
import { VISITOR_USER_AGENT } from './testing/browser.js';

// Needs: the real Kafka broker of infra/kafka.sh (KAFKA_BROKERS, default 127.0.0.1:9092).
// The collector is its own process; the aggregator and the api share a second one on chDB,
// which this test kills with SIGKILL in the middle of the stream and starts again.
const brokers = process.env.KAFKA_BROKERS || '127.0.0.1:9092';
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const kafka = { KAFKA_BROKERS: brokers, KAFKA_TOPIC: `stat-hits-eo-${run}`, KAFKA_GROUP: `stat-aggregator-eo-${run}`, KAFKA_PARTITIONS: '4' };

const HITS = 100_000;
const VISITORS = 1_000;

let collector: ServiceProcess;
let store: ServiceProcess | null = null;
let dataDir = '';
let apiPort = 0;
let collectorUrl = '';

function startStore(): Promise<ServiceProcess> {
  return startService({ ...kafka, ROLES: 'aggregator,api', DATA_DIR: dataDir, API_PORT: String(apiPort), DEMO_SEED: 'false' });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'stat-eo-'));
  apiPort = await freePort();
  const collectorPort = await freePort();
  store = await startStore();
  collector = await startService({ ...kafka, ROLES: 'collector', COLLECTOR_PORT: String(collectorPort), DATA_DIR: join(dataDir, 'collector') });
  collectorUrl = `http://127.0.0.1:${collectorPort}`;
});

afterAll(async () => {
  await collector?.stop();
  await store?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Sends hits `from`..`to`-1, many requests in flight (as many visitors' browsers would: each hit
 * waits for its group's write, a flush window under load); every one must be answered 204.
 */
async function send(projectId: number, from: number, to: number): Promise<void> {
  let next = from;
  const worker = async (): Promise<void> => {
    while (next < to) {
      const i = next++;
      const response = await fetch(`${collectorUrl}/hit`, {
        method: 'POST',
        headers: { 'user-agent': VISITOR_USER_AGENT },
        body: JSON.stringify({ p: projectId, u: `https://shop.ru/item/${i % 500}`, v: `visitor-${i % VISITORS}` }),
      });
      if (response.status !== 204) throw new Error(`hit ${i} answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: 256 }, worker));
}

describe('nothing lost, nothing counted twice', () => {
  it(`kill -9 of the aggregator during ${HITS} hits: exactly ${HITS} events and ${VISITORS} visits`, async () => {
    const started = Date.now();
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const { projectId, cookie } = await createProject(apiUrl);
    const body = { ...periodSince(started), group: 'hour', metrics: ['page_views', 'visits', 'visitors'] };
    // The stream runs on while the aggregator is killed: the collector and Kafka keep taking hits.
    const sending = send(projectId, 0, HITS);
    // Killed once it has stored a part of the stream, so it dies between or inside its writes.
    const before = await eventually(() => summaryTotals(apiUrl, projectId, body, cookie), (t) => t[0]! >= HITS / 5, 120_000);
    await store!.kill();
    store = null;
    expect(before[0]).toBeGreaterThanOrEqual(HITS / 5);
    expect(before[0]).toBeLessThan(HITS);
    await sending;
    store = await startStore();

    const totals = await eventually(() => summaryTotals(apiUrl, projectId, body, cookie), (t) => t[0]! >= HITS, 90_000);
    // Every visitor's hits came within minutes, across the kill: one visit each.
    expect(totals).toEqual([HITS, VISITORS, VISITORS]);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await summaryTotals(apiUrl, projectId, body, cookie)).toEqual([HITS, VISITORS, VISITORS]);
  }, 300_000);
});
