import { readdir, readFile } from 'node:fs/promises';
import type { ClickHouseClient } from '@clickhouse/client';
import { CLICKHOUSE_MIGRATIONS_DIR } from '@stat/schemas/migrations';

export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

/**
 * Reads `NNNN_name.sql` files in version order; a file may hold several statements. By default
 * the contract's folder, `schemas/migrations/clickhouse/`.
 */
export async function loadMigrations(dir: URL = CLICKHOUSE_MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const sql = await readFile(new URL(file, dir), 'utf8');
    migrations.push({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      statements: splitStatements(sql),
    });
  }
  return migrations;
}

/** Splits on semicolons that end a line; comments are dropped so they never form a statement. */
export function splitStatements(sql: string): string[] {
  const withoutComments = sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n');
  return withoutComments
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * Applies every migration not yet recorded in `schema_migrations`, in order, and records each.
 * Returns the versions applied now. Statements are written to be idempotent (IF NOT EXISTS),
 * so a crash between a statement and its record is repaired by the next run.
 *
 * A version recorded under another name than its file's refuses the start before anything runs:
 * the data directory holds another build's migration of that number (a development build's,
 * since replaced), and skipping the file by its number alone would leave its tables missing.
 */
export async function migrateClickHouse(client: ClickHouseClient, dir?: URL): Promise<number[]> {
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS schema_migrations
            (version UInt32, name String, applied_at DateTime DEFAULT now())
            ENGINE = MergeTree ORDER BY version`,
  });
  const done = await client.query({ query: 'SELECT version, name FROM schema_migrations', format: 'JSONEachRow' });
  const applied = new Map((await done.json<{ version: number; name: string }>()).map((r) => [Number(r.version), r.name]));
  const migrations = await loadMigrations(dir);
  for (const { version, name } of migrations) {
    const recorded = applied.get(version);
    if (recorded !== undefined && recorded !== name) {
      throw new Error(`ClickHouse migration ${version} was applied here as "${recorded}", but this build's ${version} is "${name}": the data directory comes from another build; nothing was changed`);
    }
  }
  const ran: number[] = [];
  let database: string | undefined;
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    for (const statement of migration.statements) {
      // `{database}` names the database migrated: a mutation reads other tables only by their
      // full name (its background run has no current database).
      if (statement.includes(DATABASE_TOKEN)) database ??= await currentDatabase(client);
      await client.command({ query: database === undefined ? statement : statement.replaceAll(DATABASE_TOKEN, database) });
    }
    await client.insert({
      table: 'schema_migrations',
      values: [{ version: migration.version, name: migration.name }],
      format: 'JSONEachRow',
    });
    ran.push(migration.version);
  }
  return ran;
}

/** Where a migration's statement names the database it runs in (see migrateClickHouse). */
export const DATABASE_TOKEN = '{database}';

async function currentDatabase(client: ClickHouseClient): Promise<string> {
  const result = await client.query({ query: 'SELECT currentDatabase() AS name', format: 'JSONEachRow' });
  const [row] = await result.json<{ name: string }>();
  if (row === undefined || !/^\w+$/.test(row.name)) throw new Error(`ClickHouse names its database ${JSON.stringify(row?.name)}: not a name a migration can write`);
  return row.name;
}
