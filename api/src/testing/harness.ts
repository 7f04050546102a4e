import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClickHouse, migrateClickHouse, type ClickHouseClient } from '@stat/schemas';
import type { Db, DbTarget } from '../db/db.js';
import { startApi } from '../main.js';
import { isPublicAddress, PageFetcher } from '../net/safe-fetch.js';

/**
 * The address a test site listens on to play a public site: the api under test treats it as
 * public, and every other loopback address as what it is. (All of 127/8 is this machine.)
 */
export const PRETEND_PUBLIC = '127.0.0.2';

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
  /** Names the api's outbound fetches resolve (nothing else resolves; no real DNS). */
  hosts: Map<string, string[]>;
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
  const hosts = new Map<string, string[]>();
  const fetcher = new PageFetcher(
    async (host) => {
      const found = hosts.get(host);
      if (!found) throw new Error(`ENOTFOUND ${host}`);
      return found;
    },
    (address) => isPublicAddress(address) || address === PRETEND_PUBLIC,
  );
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
      ratingSchedule: false,
      // Fixture users come from addresses of their own (X-Forwarded-For), as people do: a whole
      // run registers more accounts than the limit of one address allows.
      trustProxy: true,
      fetcher,
    },
    clickhouse,
  );
  return {
    url: api.url,
    db: api.db,
    clickhouse,
    backends: `${backends.postgres.kind}${backends.redisUrl ? ' + redis' : ''}`,
    hosts,
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
