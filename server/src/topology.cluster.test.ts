import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISITOR_USER_AGENT } from './testing/browser.js';
import { createProject, eventually, periodSince, summaryTotals } from './testing/api-client.js';
import { freePort, startService, type ServiceProcess } from './testing/service.js';

// The topology of infra/docker-compose.yml without Docker, on loopback: two collectors and two api
// processes. Needs the real Kafka, PostgreSQL and Redis of infra/up.sh (KAFKA_BROKERS,
// DATABASE_URL, REDIS_URL, defaults as there). One difference, and why: no current ClickHouse
// server can run here (infra/README.md), so the process that holds the ClickHouse data (chDB) runs
// the aggregator and the first api; the second api process shares Postgres and Redis with it (the
// accounts, projects and sessions) but has a ClickHouse of its own, so no report is read from it.
const brokers = process.env.KAFKA_BROKERS || '127.0.0.1:9092';
const databaseUrl = process.env.DATABASE_URL || 'postgres://stat:stat@127.0.0.1:5432/stat';
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

const processes: ServiceProcess[] = [];
const dirs: string[] = [];
let api1 = '';
let api2 = '';
const collectors: string[] = [];

async function start(env: Record<string, string>): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'stat-topology-'));
  dirs.push(dataDir);
  const started = await startService({ DATA_DIR: dataDir, DEMO_SEED: 'false', DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, ...env });
  processes.push(started);
  return started;
}

beforeAll(async () => {
  const kafka = { KAFKA_BROKERS: brokers, KAFKA_TOPIC: `stat-hits-topology-${run}`, KAFKA_GROUP: `stat-aggregator-topology-${run}`, KAFKA_PARTITIONS: '2' };
  const [apiPort1, apiPort2, collectorPort1, collectorPort2] = [await freePort(), await freePort(), await freePort(), await freePort()];
  await start({ ...kafka, ROLES: 'aggregator,api', API_PORT: String(apiPort1) });
  // After the first: the Postgres migrations are applied once.
  await start({ ROLES: 'api', API_PORT: String(apiPort2) });
  await Promise.all([start({ ...kafka, ROLES: 'collector', COLLECTOR_PORT: String(collectorPort1) }), start({ ...kafka, ROLES: 'collector', COLLECTOR_PORT: String(collectorPort2) })]);
  api1 = `http://127.0.0.1:${apiPort1}`;
  api2 = `http://127.0.0.1:${apiPort2}`;
  collectors.push(`http://127.0.0.1:${collectorPort1}`, `http://127.0.0.1:${collectorPort2}`);
});

afterAll(async () => {
  // Collectors first, so that what they acknowledged reaches the aggregator.
  for (const p of processes.reverse()) await p.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const project = (apiUrl: string, projectId: number, cookie: string): Promise<Response> =>
  fetch(`${apiUrl}/top100/api/v1.0/project/${projectId}`, { headers: { cookie, 'x-requested-with': 'XMLHttpRequest' } });

describe('two collectors and two api processes (the compose topology on loopback)', () => {
  it('stores every hit, whichever collector took it', async () => {
    const started = Date.now();
    const { projectId, cookie } = await createProject(api1);
    // 30 page views of 6 visitors, alternating between the collectors as a proxy would.
    for (let i = 0; i < 30; i++) {
      const response = await fetch(`${collectors[i % 2]}/hit`, {
        method: 'POST',
        headers: { 'user-agent': VISITOR_USER_AGENT },
        body: JSON.stringify({ p: projectId, u: `https://site.ru/p${i}`, v: `visitor${i % 6}xx` }),
      });
      expect(response.status).toBe(204);
    }
    const body = { ...periodSince(started), group: 'hour', metrics: ['page_views', 'visitors'] };
    expect(await eventually(() => summaryTotals(api1, projectId, body, cookie), (t) => t[0] === 30, 30_000)).toEqual([30, 6]);
  });

  it('shares accounts, projects and sessions between the api processes', async () => {
    const { projectId, cookie } = await createProject(api1);
    // Made on the first, seen on the second with the same login.
    expect((await project(api2, projectId, cookie)).status).toBe(200);
    // «Выйти на всех устройствах» on the second ends the session on the first too (the session
    // generation is in Redis, not in one process's memory).
    const ended = await fetch(`${api2}/top100/api/v1.0/user/current/logout_all`, {
      method: 'POST',
      headers: { cookie, 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(ended.status).toBe(204);
    expect((await project(api1, projectId, cookie)).status).toBe(401);
    expect((await project(api2, projectId, cookie)).status).toBe(401);
  });
});
