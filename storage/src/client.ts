import { createClient, type ClickHouseClient, type ClickHouseClientConfigOptions } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';

/** Where the ClickHouse data lives: a server over HTTP, or chDB in this process. */
export type ClickHouseTarget =
  | { kind: 'http'; url: string; username?: string; password?: string; database?: string }
  | { kind: 'chdb'; path: string };

/**
 * The one ClickHouse client of the project. Both targets give the same
 * `@clickhouse/client` interface, so no code above this knows which it talks to.
 */
export function createClickHouse(target: ClickHouseTarget): ClickHouseClient {
  if (target.kind === 'chdb') {
    // chdb types its connection against @clickhouse/client-common, which the client
    // now bundles under its own path; the shapes are the same, the declarations are twins.
    const connection = createChdbConnection({ path: target.path }) as unknown as ClickHouseClientConfigOptions['connection'];
    return createClient({ connection });
  }
  return createClient({
    url: target.url,
    username: target.username ?? 'default',
    password: target.password ?? '',
    database: target.database ?? 'default',
    request_timeout: 30_000,
  });
}

export type { ClickHouseClient };
