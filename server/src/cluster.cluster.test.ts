import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { VISITOR_USER_AGENT, launchChromium } from './testing/browser.js';
import { createProject, eventually, periodSince, summaryTotals } from './testing/api-client.js';
import { browseThreePages, startTestSite } from './testing/site.js';
import { freePort, startService, type ServiceProcess } from './testing/service.js';
import { readSamples } from '@stat/telemetry';

async function scrape(base: string): Promise<Map<string, number>> {
  const answer = await fetch(`${base}/metrics`);
  expect(answer.status).toBe(200);
  return readSamples(await answer.text());
}

/** The change of each sample from `before` to `after` (a sample absent before counts from 0). */
function delta(before: Map<string, number>, after: Map<string, number>, name: string): number {
  return (after.get(name) ?? 0) - (before.get(name) ?? 0);
}

// Needs: the real Kafka broker of infra/kafka.sh (KAFKA_BROKERS, default 127.0.0.1:9092) and
// Debian's chromium. The collector runs as its own process; the aggregator and the api share
// a second process that holds the ClickHouse data in chDB (see infra/README.md).
const brokers = process.env.KAFKA_BROKERS || '127.0.0.1:9092';
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

let browser: Browser;
let collector: ServiceProcess;
let store: ServiceProcess;
let apiUrl = '';
let collectorUrl = '';
let dataDir = '';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'stat-cluster-'));
  const apiPort = await freePort();
  const collectorPort = await freePort();
  const kafka = { KAFKA_BROKERS: brokers, KAFKA_TOPIC: `stat-hits-${run}`, KAFKA_GROUP: `stat-aggregator-${run}`, KAFKA_PARTITIONS: '3' };
  store = await startService({ ...kafka, ROLES: 'aggregator,api', DATA_DIR: dataDir, API_PORT: String(apiPort), DEMO_SEED: 'false' });
  collector = await startService({ ...kafka, ROLES: 'collector', COLLECTOR_PORT: String(collectorPort), DATA_DIR: join(dataDir, 'collector') });
  apiUrl = `http://127.0.0.1:${apiPort}`;
  collectorUrl = `http://127.0.0.1:${collectorPort}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await collector?.stop();
  await store?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('cluster mode: collector → Kafka → aggregator and api', () => {
  it('counts exactly the three page views of a real page', async () => {
    const started = Date.now();
    const { projectId, cookie } = await createProject(apiUrl);
    const site = await startTestSite({ src: `${apiUrl}/counter/counter.js`, projectId, collector: collectorUrl });
    try {
      expect(await browseThreePages(browser, site)).toEqual([]);
    } finally {
      await site.close();
    }
    const body = { ...periodSince(started), group: 'hour', metrics: ['page_views', 'visits', 'visitors'] };
    const totals = await eventually(() => summaryTotals(apiUrl, projectId, body, cookie), (t) => t[0] === 3, 30_000);
    expect(totals).toEqual([3, 1, 1]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await summaryTotals(apiUrl, projectId, body, cookie)).toEqual([3, 1, 1]);
  });

  it('counts on /metrics of each process what was sent, refused and stored, with the consumer lag of every partition', async () => {
    const { projectId } = await createProject(apiUrl);
    const [collectorBefore, storeBefore] = [await scrape(collectorUrl), await scrape(apiUrl)];
    const send = (body: string, userAgent = VISITOR_USER_AGENT) => fetch(`${collectorUrl}/hit`, { method: 'POST', headers: { 'user-agent': userAgent }, body }).then((r) => r.status);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push(await send(JSON.stringify({ p: projectId, u: `https://site.ru/m${i}`, v: `metrics${i % 8}xx` })));
    statuses.push(await send(JSON.stringify({ p: projectId, u: 'https://site.ru/bot', v: 'crawler1xx' }), 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'));
    statuses.push(await send('{"p":'), await send(JSON.stringify({ p: 0, u: 'https://site.ru/', v: 'metrics0xx' })));
    expect(statuses).toEqual([...new Array<number>(41).fill(204), 400, 400]);

    const collectorAfter = await scrape(collectorUrl);
    expect(delta(collectorBefore, collectorAfter, 'stat_hits_accepted_total')).toBe(41);
    expect(delta(collectorBefore, collectorAfter, 'stat_hits_refused_total{reason="invalid"}')).toBe(2);
    // Every acknowledged hit is stored or dropped (the crawler's), and the group has committed them all.
    const storeAfter = await eventually(
      () => scrape(apiUrl),
      (s) =>
        delta(storeBefore, s, 'stat_events_stored_total') >= 40 &&
        delta(storeBefore, s, 'stat_events_dropped_total{reason="bot"}') >= 1 &&
        [0, 1, 2].every((p) => s.get(`stat_consumer_lag{partition="${p}"}`) === 0),
      30_000,
    );
    expect(delta(storeBefore, storeAfter, 'stat_events_stored_total')).toBe(40);
    expect(delta(storeBefore, storeAfter, 'stat_events_dropped_total{reason="bot"}')).toBe(1);
    expect(delta(storeBefore, storeAfter, 'stat_aggregator_batch_size_sum')).toBe(41);
    expect([0, 1, 2].map((p) => storeAfter.get(`stat_consumer_lag{partition="${p}"}`))).toEqual([0, 0, 0]);
    // The collector alone holds no aggregator: no freshness, no lag there.
    expect(collectorAfter.has('stat_freshness_seconds')).toBe(false);
    expect([...collectorAfter.keys()].filter((k) => k.startsWith('stat_consumer_lag'))).toEqual([]);
    // Both processes reach Kafka (and the store ClickHouse and Postgres): ready.
    for (const base of [collectorUrl, apiUrl]) {
      const ready = await fetch(`${base}/ready`);
      expect({ base, status: ready.status, body: await ready.json() }).toEqual({ base, status: 200, body: { ready: true, reasons: [] } });
    }
  });

  it('a graceful stop of the collector delivers every hit it acknowledged', async () => {
    const started = Date.now();
    const { projectId, cookie } = await createProject(apiUrl);
    const hits = 200;
    for (let i = 0; i < hits; i++) {
      const response = await fetch(`${collectorUrl}/hit`, {
        method: 'POST',
        headers: { 'user-agent': VISITOR_USER_AGENT },
        body: JSON.stringify({ p: projectId, u: `https://site.ru/p${i}`, v: `visitor${i % 20}xx` }),
      });
      expect(response.status).toBe(204);
    }
    expect(await collector.stop()).toBe(0);
    const body = { ...periodSince(started), group: 'hour', metrics: ['page_views', 'visitors'] };
    const totals = await eventually(() => summaryTotals(apiUrl, projectId, body, cookie), (t) => t[0] === hits, 30_000);
    expect(totals).toEqual([hits, 20]);
  });

  it('an aggregator alone answers /health on HEALTH_PORT, with the report of its writes', async () => {
    const ownDir = mkdtempSync(join(tmpdir(), 'stat-cluster-agg-'));
    const healthPort = await freePort();
    const alone = await startService({
      KAFKA_BROKERS: brokers,
      KAFKA_TOPIC: `stat-hits-alone-${run}`,
      KAFKA_GROUP: `stat-aggregator-alone-${run}`,
      KAFKA_PARTITIONS: '1',
      ROLES: 'aggregator',
      DATA_DIR: ownDir,
      HEALTH_PORT: String(healthPort),
      DEMO_SEED: 'false',
    });
    try {
      const answer = await fetch(`http://127.0.0.1:${healthPort}/health`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ status: 'ok', reasons: [], unstored: 0, oldest_unstored_ms: null });
      expect((await fetch(`http://127.0.0.1:${healthPort}/other`)).status).toBe(404);
      expect(await (await fetch(`http://127.0.0.1:${healthPort}/live`)).json()).toEqual({ status: 'ok' });
      const ready = await fetch(`http://127.0.0.1:${healthPort}/ready`);
      expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: { ready: true, reasons: [] } });
      // Its topic has one partition and nothing in it: a lag of 0, and no hit stored yet.
      const samples = await scrape(`http://127.0.0.1:${healthPort}`);
      expect(samples.get('stat_consumer_lag{partition="0"}')).toBe(0);
      expect(samples.get('stat_events_stored_total')).toBe(0);
      expect(samples.get('stat_freshness_seconds')).toBeNaN();
    } finally {
      expect(await alone.stop()).toBe(0);
      rmSync(ownDir, { recursive: true, force: true });
    }
  });
});
