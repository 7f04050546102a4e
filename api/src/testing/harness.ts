import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClickHouse, migrateClickHouse, type ClickHouseClient } from '@stat/schemas';
import type { Db, DbTarget } from '../db/db.js';
import { startApi } from '../main.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Where a test api keeps its metadata and shared keys. */
export interface TestBackends {
  postgres: DbTarget;
  redisUrl?: string;
  redisPrefix?: string;
}

/** The api started in this process, with its own chDB and database, for one test file. */
export interface TestApi {
  url: string;
  db: Db;
  clickhouse: ClickHouseClient;
  backends: string;
  close(): Promise<void>;
}

export const PGLITE_MEMORY: TestBackends = { postgres: { kind: 'pglite', dataDir: 'memory://' } };

/**
 * Starts the api in-process on a free port: chDB in a fresh directory (migrated), and the
 * given Postgres and Redis (PGlite in memory and memory keys by default). The built web app
 * and snippet must exist (`npm run build`).
 */
export async function startTestApi(backends: TestBackends = PGLITE_MEMORY): Promise<TestApi> {
  const dir = mkdtempSync(join(tmpdir(), 'stat-api-test-'));
  const clickhouse = createClickHouse({ kind: 'chdb', path: join(dir, 'clickhouse') });
  await migrateClickHouse(clickhouse);
  const api = await startApi(
    {
      host: '127.0.0.1',
      port: 0,
      prefix: 'top100',
      webDir: join(repoRoot, 'web/dist'),
      snippetDir: join(repoRoot, 'counter-snippet/dist'),
      postgres: backends.postgres,
      redisUrl: backends.redisUrl,
      redisPrefix: backends.redisPrefix,
      publicUrl: 'http://stat.test',
      collectorPublicUrl: 'http://collector.stat.test',
    },
    clickhouse,
  );
  return {
    url: api.url,
    db: api.db,
    clickhouse,
    backends: `${backends.postgres.kind}${backends.redisUrl ? ' + redis' : ''}`,
    close: async () => {
      await api.close();
      await clickhouse.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** An e-mail nobody used in this run. */
export function uniqueEmail(tag = 'user'): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${counter}-${Math.floor(Math.random() * 1e6)}@example.com`;
}
