import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A data directory one part of which is a small tmpfs, with a switch to fill and free it. */
export interface SmallDisk {
  dataDir: string;
  /** Fills the tmpfs: real ClickHouse (or the hit log) then refuses every write, as on a full disk. */
  fill(): void;
  /** Frees it again: ClickHouse takes writes again. */
  free(): void;
  /** Unmounts the tmpfs and removes the directory. */
  remove(): void;
}

/**
 * A 64 MB tmpfs as one part of a new data directory (`clickhouse` by default, or `hitlog`).
 * Mounting needs root (CI is).
 */
export function smallDisk(part = 'clickhouse'): SmallDisk {
  const dataDir = mkdtempSync(join(tmpdir(), 'stat-full-'));
  const clickhouseDir = join(dataDir, part);
  mkdirSync(clickhouseDir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', clickhouseDir]);
  const filler = join(clickhouseDir, 'filler');
  return {
    dataDir,
    // dd stops with "No space left on device": that is the point.
    fill: () => void execFileSync('sh', ['-c', `dd if=/dev/zero of=${filler} bs=1M count=100 2>/dev/null || true`]),
    free: () => rmSync(filler, { force: true }),
    remove: () => {
      execFileSync('umount', [clickhouseDir], { stdio: 'ignore' });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
