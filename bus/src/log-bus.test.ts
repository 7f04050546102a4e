import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AcceptedHit, BatchPosition } from '@stat/schemas';
import { BusFullError, LogBus } from './log-bus.js';

// Needs: a local directory (the log's files on disk).
const dirs: string[] = [];
const buses: LogBus[] = [];
afterEach(async () => {
  for (const bus of buses.splice(0)) await bus.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'stat-logbus-'));
  dirs.push(dir);
  return dir;
}

function open(dir: string, options: Partial<Parameters<typeof LogBus.open>[0]> = {}): LogBus {
  const bus = LogBus.open({ dir, retryMs: 10, ...options });
  buses.push(bus);
  return bus;
}

const hit = (n: number): AcceptedHit => ({
  id: `id-${n}`,
  at: n,
  ip: '',
  ua: '',
  hit: { p: 1, t: 'pageview', u: 'https://a.ru/', r: '', ti: '', sw: 0, sh: 0, v: 'visitor01' },
});

/** A message as handed over: the collector's object, or the JSON text read back from the log. */
const idOf = (message: unknown): string => (typeof message === 'string' ? (JSON.parse(message) as AcceptedHit).id : (message as AcceptedHit).id);

describe('LogBus (the durable log of embedded mode)', () => {
  it('delivers published hits in order, in batches, each with its log offsets', async () => {
    const bus = open(newDir(), { maxBatch: 2 });
    const batches: { ids: string[]; position: BatchPosition | undefined }[] = [];
    await bus.start(async (hits, position) => {
      batches.push({ ids: hits.map(idOf), position });
    });
    await bus.publish([hit(1), hit(2), hit(3)]);
    expect(await bus.drained(5_000)).toBe(true);
    expect(batches).toEqual([
      { ids: ['id-1', 'id-2'], position: { topic: bus.topic, partition: 0, offsets: [0, 1] } },
      { ids: ['id-3'], position: { topic: bus.topic, partition: 0, offsets: [2] } },
    ]);
    expect(bus.topic).toMatch(/^hitlog-[0-9a-f]{16}$/);
  });

  it('delivers a batch again when the handler failed, and loses nothing', async () => {
    const bus = open(newDir(), { maxBatch: 10, retryMs: 100 });
    const seen: string[] = [];
    let failures = 1;
    await bus.start(async (hits) => {
      if (failures-- > 0) throw new Error('store down');
      seen.push(...hits.map(idOf));
    });
    await bus.publish([hit(1), hit(2)]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(bus.pending).toBe(2);
    expect(seen).toEqual([]);
    await bus.publish([hit(3)]);
    expect(await bus.drained(5_000)).toBe(true);
    expect(seen).toEqual(['id-1', 'id-2', 'id-3']);
  });

  it('refuses hits past its capacity, so the collector in front answers 503 instead of growing', async () => {
    const bus = open(newDir(), { capacity: 3 });
    await bus.publish([hit(1), hit(2)]);
    await expect(bus.publish([hit(3), hit(4)])).rejects.toThrow(BusFullError);
    await bus.publish([hit(3)]);
    expect(bus.pending).toBe(3);
    expect(bus.oldestAt).toBe(1);
  });

  it('after a crash (the process gone, nothing closed) hands every hit of the log again, with the same offsets, and the next hits after them', async () => {
    const dir = newDir();
    const before = LogBus.open({ dir });
    buses.push(before);
    await before.publish([hit(1), hit(2)]);
    await before.publish([hit(3)]);
    const topic = before.topic;
    // No close: a kill -9 closes nothing.

    const after = open(dir);
    expect(after.topic).toBe(topic);
    expect(after.recovery.tornBytes).toBe(0);
    await after.publish([hit(4)]);
    const seen: { ids: string[]; offsets: number[] }[] = [];
    await after.start(async (hits, position) => {
      seen.push({ ids: hits.map(idOf), offsets: (position as { offsets: number[] }).offsets });
    });
    expect(await after.drained(5_000)).toBe(true);
    expect(seen).toEqual([{ ids: ['id-1', 'id-2', 'id-3', 'id-4'], offsets: [0, 1, 2, 3] }]);
  });

  it('does not hand out again, after a restart, hits that were stored before it', async () => {
    const dir = newDir();
    const before = LogBus.open({ dir });
    buses.push(before);
    await before.start(async () => {});
    await before.publish([hit(1), hit(2)]);
    expect(await before.drained(5_000)).toBe(true);
    await before.publish([hit(3)]);
    // Crashed before the third was stored.

    const after = open(dir);
    expect(after.recovery.records.map((r) => r.offset)).toEqual([2]);
    expect(after.pending).toBe(1);
  });

  it('refuses to open a log another live process writes (two collectors on one DATA_DIR)', async () => {
    const dir = newDir();
    const { spawn } = await import('node:child_process');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(join(dir, 'lock'), `${other.pid}\n`);
      expect(() => LogBus.open({ dir })).toThrow(`the hit log in ${dir} is in use by process ${other.pid}: give each collector its own DATA_DIR`);
    } finally {
      other.kill('SIGKILL');
    }
    await new Promise((resolve) => other.once('exit', resolve));
    // Its holder gone, the lock is taken over.
    expect(open(dir).pending).toBe(0);
  });

  it('a log made anew (its directory deleted) is another topic: offsets of the old one stored in ClickHouse never hide its hits', async () => {
    const dir = newDir();
    const first = open(join(dir, 'hitlog'));
    await first.close();
    rmSync(join(dir, 'hitlog'), { recursive: true });
    expect(open(join(dir, 'hitlog')).topic).not.toBe(first.topic);
  });

  it('removes a segment once every hit in it is stored, never the active one', async () => {
    const dir = newDir();
    // Segments of about two hits each.
    const bus = open(dir, { segmentBytes: 150, maxBatch: 2 });
    let storing = false;
    await bus.start(async () => {
      if (!storing) throw new Error('store down');
    });
    for (let i = 1; i <= 6; i++) await bus.publish([hit(i)]);
    const segments = (): string[] => readdirSync(dir).filter((f) => f.endsWith('.log'));
    expect(segments().length).toBeGreaterThanOrEqual(3);
    expect(bus.disk.segmentCount).toBe(segments().length);
    storing = true;
    expect(await bus.drained(5_000)).toBe(true);
    expect(segments()).toHaveLength(1);
    // The log goes on from where it was.
    const offsets: number[] = [];
    await bus.stop();
    await bus.start(async (_hits, position) => {
      offsets.push(...(position as { offsets: number[] }).offsets);
    });
    await bus.publish([hit(7)]);
    expect(await bus.drained(5_000)).toBe(true);
    expect(offsets).toEqual([6]);
  });

  describe('with a storage that acknowledges before its files are on the disk (chDB)', () => {
    /** A settle the test lets finish, or fail, when it says so. */
    function heldSettle(): { settle: () => Promise<void>; calls: () => number; finish: (error?: Error) => void } {
      let calls = 0;
      let pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
      return {
        settle: () => {
          calls += 1;
          return new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
        },
        calls: () => calls,
        finish: (error) => {
          for (const p of pending) (error ? p.reject(error) : p.resolve());
          pending = [];
        },
      };
    }
    const until = async (done: () => boolean): Promise<void> => {
      for (let i = 0; i < 500 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    /** What a restart after a power cut now would be handed again. */
    const replayedAfterCrash = (dir: string): number[] => LogBus.open({ dir }).recovery.records.map((r) => r.offset);
    /** A started bus in a new directory whose storage settles when the test says so, released at every settle. */
    async function busOnHeldStorage(): Promise<{ dir: string; storage: ReturnType<typeof heldSettle>; bus: LogBus }> {
      const dir = newDir();
      const storage = heldSettle();
      const bus = open(dir, { settleStorage: storage.settle, releaseEveryMs: 0 });
      await bus.start(async () => {});
      return { dir, storage, bus };
    }

    it('keeps stored hits until storage settled, so a power cut that took storage\'s last writes finds them in the log', async () => {
      const { dir, storage, bus } = await busOnHeldStorage();
      await bus.publish([hit(1), hit(2), hit(3)]);
      expect(await bus.drained(5_000)).toBe(true);
      await until(() => storage.calls() > 0);
      expect(storage.calls()).toBe(1);
      expect(replayedAfterCrash(dir)).toEqual([0, 1, 2]);
      storage.finish();
      await until(() => replayedAfterCrash(dir).length === 0);
      expect(replayedAfterCrash(dir)).toEqual([]);
    });

    it('releases nothing when storage could not settle, and releases at the next settle that works', async () => {
      const { dir, storage, bus } = await busOnHeldStorage();
      await bus.publish([hit(1), hit(2)]);
      await until(() => storage.calls() === 1);
      storage.finish(new Error('EIO'));
      await bus.publish([hit(3)]);
      await until(() => storage.calls() === 2);
      expect(replayedAfterCrash(dir)).toEqual([0, 1, 2]);
      storage.finish();
      await until(() => replayedAfterCrash(dir).length === 0);
      expect(replayedAfterCrash(dir)).toEqual([]);
    });

    it('settles at most once per interval under a stream of batches, and once more at a stop', async () => {
      const dir = newDir();
      let settles = 0;
      const bus = LogBus.open({ dir, maxBatch: 1, settleStorage: async () => void (settles += 1), releaseEveryMs: 60_000 });
      await bus.start(async () => {});
      for (let i = 1; i <= 20; i++) await bus.publish([hit(i)]);
      expect(await bus.drained(5_000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      // None before the interval is out (it runs from the opening), whatever the batches.
      expect(settles).toBe(0);
      expect(replayedAfterCrash(dir)).toHaveLength(20);
      await bus.close();
      expect(settles).toBe(1);
      expect(replayedAfterCrash(dir)).toEqual([]);
    });
  });
});
