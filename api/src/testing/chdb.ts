import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createClickHouse, migrateClickHouse, type ClickHouseClient } from '@stat/storage';
import { DictionaryRepository, ReportAnswers, ReportEngine, Sampling } from '../engine/index.js';

/**
 * A ClickHouse of the test file's own, as the tests of the compiled SQL read it: chDB in a fresh
 * temporary folder, migrated, its events table holding `events`, before the file's tests (then
 * handed to `ready`); closed and removed after them. Called at the top of a test file: it is
 * that file's beforeAll and afterAll.
 */
export function useChdb(name: string, events: () => readonly object[], ready: (clickhouse: ClickHouseClient) => void | Promise<void>): void {
  let dir: string;
  let clickhouse: ClickHouseClient;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `stat-${name}-`));
    clickhouse = createClickHouse({ kind: 'chdb', path: join(dir, 'clickhouse') });
    await migrateClickHouse(clickhouse);
    const rows = events();
    if (rows.length > 0) await clickhouse.insert({ table: 'events', values: [...rows], format: 'JSONEachRow' });
    await ready(clickhouse);
  });
  afterAll(async () => {
    await clickhouse.close();
    rmSync(dir, { recursive: true, force: true });
  });
}

/** The report answers over `clickhouse` at the time `now`, sampling as a request asks (no minimum of events). */
export function answersOver(clickhouse: ClickHouseClient, now: number, engine = new ReportEngine(clickhouse)): ReportAnswers {
  return new ReportAnswers(engine, new DictionaryRepository(clickhouse), () => now, new Sampling(engine, 0));
}
