import { createClient, type ClickHouseClient, type ClickHouseClientConfigOptions } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';

/** Where the ClickHouse data lives: a server over HTTP, or chDB in this process. */
export type ClickHouseTarget =
  | { kind: 'http'; url: string; username?: string; password?: string; database?: string }
  | { kind: 'chdb'; path: string };

/**
 * Settings of every request unless the request sets its own. Insert deduplication is off: the
 * tables that keep a deduplication window (migration 0026) would otherwise drop an insert whose
 * rows, or whose rollup rows, equal an earlier one's. Only the aggregator's inserts into events
 * turn it on, each with a token of its own (aggregator/src/storage.ts). A setting, not a session
 * state: chDB applies a request's settings with SET, which later requests of the session keep
 * unless they set them again, as every request does with these.
 */
const DEFAULT_SETTINGS = { insert_deduplicate: 0 } as const;

/**
 * The one ClickHouse client of the project. Both targets give the same
 * `@clickhouse/client` interface, so no code above this knows which it talks to.
 */
export function createClickHouse(target: ClickHouseTarget): ClickHouseClient {
  if (target.kind === 'chdb') {
    // chdb types its connection against @clickhouse/client-common, which the client
    // now bundles under its own path; the shapes are the same, the declarations are twins.
    const connection = createChdbConnection({ path: target.path }) as unknown as ClickHouseClientConfigOptions['connection'];
    return createClient({ connection, clickhouse_settings: DEFAULT_SETTINGS });
  }
  return createClient({
    clickhouse_settings: DEFAULT_SETTINGS,
    url: target.url,
    username: target.username ?? 'default',
    password: target.password ?? '',
    database: target.database ?? 'default',
    request_timeout: 30_000,
  });
}

export type { ClickHouseClient };
