import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createClickHouse } from './client.js';
import { loadMigrations, migrateClickHouse, splitStatements } from './migrate.js';

describe('splitStatements', () => {
  it('splits on semicolons ending a line and drops comment lines', () => {
    expect(splitStatements('-- a comment; with a semicolon\nCREATE TABLE a (x UInt8) ENGINE = Memory;\n\nSELECT 1;\n')).toEqual([
      'CREATE TABLE a (x UInt8) ENGINE = Memory',
      'SELECT 1',
    ]);
  });

  it('keeps a semicolon inside a line', () => {
    expect(splitStatements("SELECT ';' AS s")).toEqual(["SELECT ';' AS s"]);
  });
});

describe('migrations on chDB', () => {
  it('are numbered from 1 without gaps', async () => {
    const versions = (await loadMigrations()).map((m) => m.version);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
  });

  // Needs: chDB (in-process). One data directory per process, so this is the only chDB test here.
  it('apply once, are recorded, and create the events table with SAMPLE BY', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stat-migrate-'));
    const client = createClickHouse({ kind: 'chdb', path: dir });
    try {
      const all = (await loadMigrations()).map((m) => m.version);
      expect(await migrateClickHouse(client)).toEqual(all);
      expect(await migrateClickHouse(client)).toEqual([]);
      const table = await client.query({ query: "SELECT sampling_key, sorting_key FROM system.tables WHERE database = currentDatabase() AND name = 'events'", format: 'JSONEachRow' });
      expect(await table.json()).toEqual([{ sampling_key: 'visitor_hash', sorting_key: 'project_id, event_date, visitor_hash, ts' }]);
    } finally {
      await client.close();
    }
  });

  it('a folder of new migrations applies only those', async () => {
    const migrations = mkdtempSync(join(tmpdir(), 'stat-migrations-'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(migrations, '0001_a.sql'), 'CREATE TABLE IF NOT EXISTS m_a (x UInt8) ENGINE = Memory;\n');
    writeFileSync(join(migrations, 'notes.txt'), 'not a migration');
    const loaded = await loadMigrations(pathToFileURL(migrations + '/'));
    expect(loaded).toEqual([{ version: 1, name: 'a', statements: ['CREATE TABLE IF NOT EXISTS m_a (x UInt8) ENGINE = Memory'] }]);
  });
});
