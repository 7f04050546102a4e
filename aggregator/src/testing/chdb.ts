import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createClickHouse, migrateClickHouse, type ClickHouseClient } from '@stat/storage';

/** The chDB of one test file, and the two reads its tests make of it. */
export interface FileChdb {
  /** The client, from the file's first `beforeAll` on. */
  readonly client: ClickHouseClient;
  /** A query's rows (JSONEachRow). */
  rows<T>(query: string, params?: Record<string, unknown>): Promise<T[]>;
  /** The column `n` of a query's first row as a number, 0 when there is no row. */
  count(query: string, params?: Record<string, unknown>): Promise<number>;
}

/**
 * A chDB (in-process) of the test file's own: created in a new data directory `stat-<name>-…` and
 * migrated before the file's tests, closed after them. Called at the top of the file, so that its
 * `beforeAll` comes before the file's own.
 */
export function chdbOfFile(name: string): FileChdb {
  let client: ClickHouseClient | undefined;
  beforeAll(async () => {
    client = createClickHouse({ kind: 'chdb', path: mkdtempSync(join(tmpdir(), `stat-${name}-`)) });
    await migrateClickHouse(client);
  });
  afterAll(async () => {
    await client?.close();
  });
  const opened = (): ClickHouseClient => {
    if (client === undefined) throw new Error(`the chDB of ${name} is made in the file's beforeAll`);
    return client;
  };
  const rows = async <T>(query: string, params: Record<string, unknown> = {}): Promise<T[]> => {
    const result = await opened().query({ query, query_params: params, format: 'JSONEachRow' });
    return result.json<T>();
  };
  return {
    get client() {
      return opened();
    },
    rows,
    count: async (query, params) => {
      const [row] = await rows<{ n: string | number }>(query, params);
      return Number(row?.n ?? 0);
    },
  };
}
