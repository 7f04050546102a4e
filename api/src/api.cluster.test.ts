import { afterAll, beforeAll } from 'vitest';
import { startTestApi, type TestApi } from './testing/harness.js';
import { apiSuites } from './testing/suites.js';

// Needs: the real PostgreSQL and Redis of infra/up.sh (DATABASE_URL, default
// postgres://stat:stat@127.0.0.1:5432/stat; REDIS_URL, default redis://127.0.0.1:6379).
// The same suites as api.test.ts, in a schema and a Redis key prefix of this run alone.
const databaseUrl = process.env.DATABASE_URL || 'postgres://stat:stat@127.0.0.1:5432/stat';
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const schema = `test_${run}`;

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ file: 'api.cluster.test.ts' }, { postgres: { kind: 'postgres', url: databaseUrl, schema }, redisUrl, redisPrefix: `stat-test-${run}:` });
});
afterAll(async () => {
  await api?.db.exec(`DROP SCHEMA ${schema} CASCADE`);
  await api?.close();
});

apiSuites(() => api);
