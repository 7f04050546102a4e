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
 */
export async function migrateClickHouse(client: ClickHouseClient, dir?: URL): Promise<number[]> {
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS schema_migrations
            (version UInt32, name String, applied_at DateTime DEFAULT now())
            ENGINE = MergeTree ORDER BY version`,
  });
  const done = await client.query({ query: 'SELECT version FROM schema_migrations', format: 'JSONEachRow' });
  const applied = new Set((await done.json<{ version: number }>()).map((r) => Number(r.version)));
  const ran: number[] = [];
  for (const migration of await loadMigrations(dir)) {
    if (applied.has(migration.version)) continue;
    for (const statement of migration.statements) await client.command({ query: statement });
    await client.insert({
      table: 'schema_migrations',
      values: [{ version: migration.version, name: migration.name }],
      format: 'JSONEachRow',
    });
    ran.push(migration.version);
  }
  return ran;
}
