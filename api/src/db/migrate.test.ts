import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db.js';
import { loadPgMigrations, migratePostgres } from './migrate.js';
import { openPglite } from './pglite.js';

// Needs: nothing (PGlite in memory).
let db: Db;
beforeAll(async () => {
  db = await openPglite('memory://');
});
afterAll(async () => {
  await db.close();
});

/** A database and a folder of migration files of the test's own, for `work`; the folder removed after. */
async function withOwnMigrations(work: (other: Db, dir: string, url: URL) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'stat-pg-migrations-'));
  try {
    const other = await openPglite('memory://');
    await work(other, dir, pathToFileURL(`${dir}/`));
    await other.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('Postgres migrations', () => {
  it('apply in order once, recorded with their checksums; a second run applies nothing', async () => {
    const all = await loadPgMigrations();
    expect(all.map((m) => m.version)).toEqual([...all.map((m) => m.version)].sort((a, b) => a - b));
    expect(await migratePostgres(db)).toEqual(all.map((m) => m.version));
    expect(await migratePostgres(db)).toEqual([]);
    const recorded = await db.query<{ version: number; checksum: string }>('SELECT version, checksum FROM schema_migrations ORDER BY version');
    expect(recorded).toEqual(all.map((m) => ({ version: m.version, checksum: m.checksum })));
  });

  it('seed the roles of the specification and the demo project', async () => {
    const roles = await db.query<{ id: number; name: string }>('SELECT id, name FROM roles ORDER BY id');
    expect(roles.map((r) => `${r.id} ${r.name}`)).toEqual([
      '1 ADMIN', '2 SUPPORT', '3 ANALYST', '4 MANAGER', '5 COUNTER_OWNER', '6 COUNTER_READONLY', '7 USER',
    ]);
    const [demo] = await db.query<{ id: number }>('SELECT id FROM projects WHERE id = $1', [7596044]);
    expect(demo).toEqual({ id: 7596044 });
  });

  it('refuse to start when an applied migration file changed', () =>
    withOwnMigrations(async (other, dir, url) => {
      writeFileSync(join(dir, '0001_t.sql'), 'CREATE TABLE t (a int);');
      expect(await migratePostgres(other, url)).toEqual([1]);
      writeFileSync(join(dir, '0001_t.sql'), 'CREATE TABLE t (a int, b int);');
      await expect(migratePostgres(other, url)).rejects.toThrow(/0001_t changed after it was applied/);
    }));

  it('roll a failing migration back whole, unrecorded', () =>
    withOwnMigrations(async (other, dir, url) => {
      writeFileSync(join(dir, '0001_bad.sql'), 'CREATE TABLE good (a int);\nCREATE TABLE bad (a no_such_type);');
      await expect(migratePostgres(other, url)).rejects.toThrow(/no_such_type/);
      expect(await other.query("SELECT 1 FROM pg_tables WHERE tablename = 'good'")).toEqual([]);
      expect(await other.query('SELECT version FROM schema_migrations')).toEqual([]);
    }));

  it('give int8 as numbers and roll a failed transaction back', async () => {
    expect(await db.query('SELECT count(*) AS n, 5::bigint AS b')).toEqual([{ n: 1, b: 5 }]);
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO users (email) VALUES ('tx@example.com')");
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await db.query("SELECT id FROM users WHERE email = 'tx@example.com'")).toEqual([]);
  });
});
