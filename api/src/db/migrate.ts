import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type { Db, Sql } from './db.js';

/** The folder of numbered, append-only migration files, beside src/ and dist/. */
const MIGRATIONS_DIR = new URL('../../migrations/postgres/', import.meta.url);

/** Any constant shared by every process of this service; two api processes migrate one at a time. */
const MIGRATION_LOCK = 7_596_044;

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
  /** sha256 of the file: an applied migration whose file changed is refused at start. */
  checksum: string;
}

/** Reads `NNNN_name.sql` files in version order. */
export async function loadPgMigrations(dir: URL = MIGRATIONS_DIR): Promise<PgMigration[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort();
  const migrations: PgMigration[] = [];
  for (const file of files) {
    const sql = await readFile(new URL(file, dir), 'utf8');
    const version = Number(file.slice(0, 4));
    if (migrations.some((m) => m.version === version)) throw new Error(`two migrations with version ${version}`);
    migrations.push({ version, name: file.slice(5, -4), sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return migrations;
}

/**
 * Applies every migration not yet recorded in `schema_migrations`, in order, each in its own
 * transaction together with its record (Postgres DDL is transactional: a crash leaves a
 * migration either applied and recorded, or neither). An advisory lock makes concurrent
 * starts of several api processes take turns. Returns the versions applied now.
 */
export async function migratePostgres(db: Db, dir?: URL): Promise<number[]> {
  const migrations = await loadPgMigrations(dir);
  await db.transaction(async (tx) => {
    await lock(tx);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      checksum   text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now())`);
  });
  const ran: number[] = [];
  for (const migration of migrations) {
    const applied = await db.transaction(async (tx) => {
      await lock(tx);
      const [done] = await tx.query<{ checksum: string }>('SELECT checksum FROM schema_migrations WHERE version = $1', [migration.version]);
      if (done) {
        if (done.checksum !== migration.checksum) {
          throw new Error(`migration ${String(migration.version).padStart(4, '0')}_${migration.name} changed after it was applied; add a new migration instead`);
        }
        return false;
      }
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
      return true;
    });
    if (applied) ran.push(migration.version);
  }
  return ran;
}

async function lock(tx: Sql): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
}
