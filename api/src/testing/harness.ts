import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { createClickHouse, migrateClickHouse, type ClickHouseClient } from '@stat/storage';
import type { Logger } from '@stat/telemetry';
import type { Db, DbTarget } from '../db/db.js';
import { startApi, type RouteEntry } from '../main.js';
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

/**
 * The first project id of each test file that starts an api or a service of its own: every
 * file creates its projects in a range of 100 000 ids that no other file uses (the sequence
 * is moved there at start), so traffic written for one file's project can never be counted in
 * another's, whatever shares a store. 8 000 000 to 8 099 999 stay with the migration's own
 * start, which the shared service of the global setup (server/src/testing) and the web and
 * server tests that create projects through it use. A new file takes the next free range here.
 */
const PROJECT_ID_RANGES = {
  'api.test.ts': 8_100_000,
  'api.cluster.test.ts': 8_200_000,
  'fuzz.test.ts': 8_300_000,
  'headers.test.ts': 8_400_000,
  'service.cluster.test.ts': 8_500_000,
  'saved-filters.test.ts': 8_600_000,
  'eventbase-latency.test.ts': 8_700_000,
  'openapi.test.ts': 8_800_000,
  'constructor.api.test.ts': 9_400_000,
  'constructor-templates.test.ts': 9_500_000,
  'realtime.api.test.ts': 8_900_000,
  'export.api.test.ts': 9_600_000,
  'conversions.test.ts': 9_200_000,
  'goals.test.ts': 9_100_000,
  'funnels.test.ts': 9_000_000,
  'store-not-ready.test.ts': 9_700_000,
  'csv.api.test.ts': 9_800_000,
  'static.test.ts': 9_900_000,
} as const satisfies Record<string, number>;
export type TestFile = keyof typeof PROJECT_ID_RANGES;

/** Moves the project id sequence of `db` to the range of `file`. */
export async function useProjectIds(db: Db, file: TestFile): Promise<void> {
  await db.query("SELECT setval('project_ids', $1, false)", [PROJECT_ID_RANGES[file]]);
}

/** The api started in this process, with its own chDB and database, for one test file. */
export interface TestApi {
  url: string;
  db: Db;
  clickhouse: ClickHouseClient;
  backends: string;
  /** Names the api's outbound fetches resolve (nothing else resolves; no real DNS). */
  hosts: Map<string, string[]>;
  /** Every route the api registered (from its router, not a list kept by hand). */
  routes: readonly RouteEntry[];
  /** Fixes the api's clock at `ms` (null: the real time again). */
  setNow(ms: number | null): void;
  close(): Promise<void>;
}

export interface TestApiOptions {
  /** The test file: where its project ids start (PROJECT_ID_RANGES). */
  file: TestFile;
  /** Report calls one address may make per minute (default: the api's). */
  reportRequestsPerMinute?: number;
  /** Goals one user may create a minute (default: the api's). */
  goalCreationsPerMinute?: number;
  /** Whether the demo project is being filled (default: never). */
  demoState?: () => { filling: boolean };
  /** The api's logger (default: the api's, warnings and errors on stdout). */
  logger?: Logger;
}

const PGLITE_MEMORY: TestBackends = { postgres: { kind: 'pglite', dataDir: 'memory://' } };

/**
 * Starts the api in-process on a free port: chDB in a fresh directory (migrated), and the
 * given Postgres and Redis (PGlite in memory and memory keys by default). The built web app
 * and snippet must exist (`npm run build`).
 */
export async function startTestApi(options: TestApiOptions, backends: TestBackends = PGLITE_MEMORY): Promise<TestApi> {
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
  let fixedNow: number | null = null;
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
      clock: () => fixedNow ?? Date.now(),
      ...(options.reportRequestsPerMinute === undefined ? {} : { reportRequestsPerMinute: options.reportRequestsPerMinute }),
      ...(options.goalCreationsPerMinute === undefined ? {} : { goalCreationsPerMinute: options.goalCreationsPerMinute }),
      ...(options.demoState === undefined ? {} : { demoState: options.demoState }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    },
    clickhouse,
  );
  await useProjectIds(api.db, options.file);
  return {
    url: api.url,
    routes: api.routes,
    setNow: (ms) => {
      fixedNow = ms;
    },
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

/**
 * The api of a test file, as {@link startTestApi} starts it: started before the file's tests
 * (then handed to `ready`, which keeps it and prepares what the tests share), closed after
 * them. Called at the top of a test file: it is that file's beforeAll and afterAll.
 */
export function useTestApi(options: TestApiOptions, ready: (api: TestApi) => void | Promise<void>, backends: TestBackends = PGLITE_MEMORY): void {
  let api: TestApi | undefined;
  beforeAll(async () => {
    api = await startTestApi(options, backends);
    await ready(api);
  });
  afterAll(async () => {
    await api?.close();
  });
}

let counter = 0;
/** An e-mail nobody used in this run. */
export function uniqueEmail(tag = 'user'): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}-${counter}-${Math.floor(Math.random() * 1e6)}@example.com`;
}
