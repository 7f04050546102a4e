import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startService, type ServiceProcess } from '../../server/src/testing/service.js';
import { openPostgres } from './db/postgres.js';
import { ApiClient } from './testing/client.js';
import { uniqueEmail, useProjectIds } from './testing/harness.js';

// Needs: the real PostgreSQL and Redis of infra/up.sh. Two api processes of the built service
// (`node server/dist/main.js`, ROLES=api) configured as an operator would, with DATABASE_URL
// and REDIS_URL: one database (a schema of this run) and one session and rate-limit store.
const databaseUrl = process.env.DATABASE_URL || 'postgres://stat:stat@127.0.0.1:5432/stat';
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const schema = `svc_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const dirs: string[] = [];
const services: ServiceProcess[] = [];
let a = '';
let b = '';

beforeAll(async () => {
  const db = await openPostgres(databaseUrl, { schema });
  await db.close();
  const url = `${databaseUrl}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const start = async (): Promise<string> => {
    const dir = mkdtempSync(join(tmpdir(), 'stat-api-cluster-'));
    dirs.push(dir);
    const port = await freePort();
    // TRUST_PROXY: a test may come from an address of its own (X-Forwarded-For), since the
    // per-address counters in Redis outlive a run by their 15 minutes.
    services.push(
      await startService({ ROLES: 'api', DATA_DIR: dir, API_PORT: String(port), DATABASE_URL: url, REDIS_URL: redisUrl, KAFKA_BROKERS: '', TRUST_PROXY: 'true' }),
    );
    return `http://127.0.0.1:${port}`;
  };
  a = await start();
  b = await start();
  // After the services migrated the schema: this file's own range of project ids.
  const migrated = await openPostgres(databaseUrl, { schema });
  await useProjectIds(migrated, 'service.cluster.test.ts');
  await migrated.close();
});

afterAll(async () => {
  for (const service of services) await service.stop();
  const db = await openPostgres(databaseUrl);
  await db.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await db.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The same cookies, sent to the other process. */
function at(base: string, from: ApiClient): ApiClient {
  const client = new ApiClient(base);
  for (const [k, v] of from.cookies) client.cookies.set(k, v);
  return client;
}

describe('two api processes on PostgreSQL and Redis', () => {
  it('are both ready (ClickHouse, PostgreSQL and Redis answer their probes) and each counts its own answers', async () => {
    for (const base of [a, b]) {
      const ready = await fetch(`${base}/ready`);
      expect({ base, status: ready.status, body: await ready.json() }).toEqual({ base, status: 200, body: { ready: true, reasons: [] } });
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toContain('stat_http_requests_total{route="/ready",method="GET",status="200"} 1');
    }
  });

  it('share accounts, projects and sessions: logged in on one, known on the other; logout ends both', async () => {
    const onA = new ApiClient(a);
    const email = uniqueEmail('svc');
    await onA.register(email);
    const onB = at(b, onA);
    expect((await onB.get('/api/v1.0/user/current')).json.result.email).toBe(email);
    const created = await onB.post('/api/v1.0/project', { url: 'https://two-processes.example', title: 'Два процесса', agree: true });
    expect(created.status).toBe(200);
    const id = created.json.result.project_id;
    expect(id).toBeGreaterThanOrEqual(8_500_000);
    expect((await onA.get(`/api/v1.0/project/${id}`)).json.result.title).toBe('Два процесса');
    expect((await onA.post('/logout')).status).toBe(204);
    expect((await onB.get('/api/v1.0/user/current')).status).toBe(401);
    expect((await onB.post('/api/v1.0/auth/refresh')).status).toBe(401);
  });

  it('count failed logins together: ten on one process, the eleventh on the other is 429', async () => {
    const email = uniqueEmail('svc-brute');
    await new ApiClient(a).register(email);
    for (let i = 0; i < 10; i++) expect((await new ApiClient(i % 2 ? a : b).login(email, `wrong ${i}`)).status).toBe(401);
    const blocked = await new ApiClient(b).login(email);
    expect(blocked.status).toBe(429);
  });

  it('count 80 parallel wrong passwords together: exactly 10 are checked, on either process', async () => {
    const email = uniqueEmail('svc-parallel');
    // An address of this run alone: 81 attempts would use up most of 127.0.0.1's 100.
    const address = `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
    await new ApiClient(a, '/top100', address).register(email);
    const answers = await Promise.all(Array.from({ length: 80 }, (_, i) => new ApiClient(i % 2 ? a : b, '/top100', address).login(email, `guess ${i}`)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(70);
  });

  it('keep the demo project readable by anyone, from the migrations both ran', async () => {
    for (const base of [a, b]) {
      const demo = await new ApiClient(base).get('/api/v1.0/project/7596044');
      expect(demo.status).toBe(200);
      expect(demo.json.result.can_edit_project).toBe(false);
    }
  });
});
