import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A data directory one part of which is a small tmpfs, with a switch to fill and free it. */
export interface SmallDisk {
  dataDir: string;
  /**
   * The command prefix that runs a program where the tmpfs is mounted (its own mount namespace):
   * hand it to startService. Anything else sees the empty directory under it.
   */
  enter: readonly string[];
  /** Fills the tmpfs: real ClickHouse (or the hit log) then refuses every write, as on a full disk. */
  fill(): void;
  /** Frees it again: ClickHouse takes writes again. */
  free(): void;
  /** Ends the tmpfs (with its namespace) and removes the directory. */
  remove(): void;
}

/**
 * A 64 MB tmpfs as one part of a new data directory (`clickhouse` by default, or `hitlog`),
 * mounted in a user and mount namespace of its own, so that no root is needed (`unshare
 * --map-root-user`, which Debian's kernel allows any user). Where the kernel refuses such a
 * namespace this fails, with unshare's reason: never a quiet skip.
 */
export async function smallDisk(part = 'clickhouse'): Promise<SmallDisk> {
  const dataDir = mkdtempSync(join(tmpdir(), 'stat-full-'));
  const dir = join(dataDir, part);
  mkdirSync(dir);
  // The namespace lives as long as this holder does; the service and dd join it with nsenter.
  const holder = spawn('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', 'mount -t tmpfs -o size=64m tmpfs "$1" && echo mounted && exec sleep 86400', 'sh', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    await mounted(holder);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  // --preserve-credentials: this user, which is root inside the namespace, without setgroups
  // (refused in a namespace made by an unprivileged user).
  const enter = ['nsenter', `--target=${holder.pid}`, '--user', '--mount', '--preserve-credentials'];
  const inside = (script: string): void => void execFileSync(enter[0]!, [...enter.slice(1), 'sh', '-c', script, 'sh', join(dir, 'filler')]);
  return {
    dataDir,
    enter,
    // dd stops with "No space left on device": that is the point.
    fill: () => inside('dd if=/dev/zero of="$1" bs=1M count=100 2>/dev/null || true'),
    free: () => inside('rm -f "$1"'),
    remove: () => {
      holder.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resolves once the holder says the tmpfs is mounted; rejects with what it said when it exits first. */
function mounted(holder: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let said = '';
    holder.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
    holder.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('mounted')) resolve();
    });
    holder.once('error', (error) => reject(new Error(`cannot make a small disk: ${error.message} (unshare, from util-linux, is needed)`)));
    holder.once('exit', (code) => reject(new Error(`cannot make a small disk: unshare exited with ${code}: ${said.trim()} (a user and mount namespace is needed; see kernel.unprivileged_userns_clone)`)));
  });
}
