import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@stat/telemetry';
import { readConfig } from '../config.js';
import { createKit } from './kit.js';
import { storageSettler, syncFilesystemOf } from './stores.js';

// Needs: a local directory and coreutils' `sync` (Debian's, with -f).
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function kitFor(env: Record<string, string>): { kit: ReturnType<typeof createKit>; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({ role: 'test', destination: { write: (line: string) => void lines.push(line) } });
  return { kit: createKit(readConfig(env), logger), lines };
}

describe("syncing chDB's files before the hit log lets go of them", () => {
  it('in embedded mode syncs the filesystem under DATA_DIR/clickhouse, and times each sync in stat_storage_sync_seconds', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'stat-settle-'));
    dirs.push(dataDir);
    const { kit } = kitFor({ DATA_DIR: dataDir });
    // chDB makes its directory when it opens; the settler is asked for after that.
    mkdirSync(join(dataDir, 'clickhouse'));
    const settle = await storageSettler(kit);
    expect(settle).not.toBeNull();
    await settle!();
    const { body } = await kit.metrics.scrape();
    // One sync at the settler's making (its check), one asked for.
    expect(body).toMatch(/^stat_storage_sync_seconds_count(\{[^}]*\})? 2$/m);
  });

  it('fails on a path that is not there, so a sync that did not happen never releases the log', async () => {
    await expect(syncFilesystemOf(join(tmpdir(), 'stat-no-such-dir', 'clickhouse'))).rejects.toThrow();
  });

  it('with a ClickHouse server there is nothing here to sync: the log releases once stored', async () => {
    const { kit } = kitFor({ DATA_DIR: tmpdir(), CLICKHOUSE_URL: 'http://127.0.0.1:8123' });
    expect(await storageSettler(kit)).toBeNull();
  });

  it('says so at the start when chDB\'s files cannot be synced, and releases once stored', async () => {
    const { kit, lines } = kitFor({ DATA_DIR: join(tmpdir(), 'stat-no-such-data-dir') });
    expect(await storageSettler(kit)).toBeNull();
    expect(lines.join('\n')).toContain("chDB's files cannot be synced here");
  });
});
