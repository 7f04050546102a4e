import { describe, expect, it } from 'vitest';
import type { AcceptedHit } from '@stat/schemas';
import { BusFullError, MemoryBus } from './memory.js';

const hit = (n: number): AcceptedHit => ({
  id: `id-${n}`,
  at: n,
  ip: '',
  ua: '',
  hit: { p: 1, t: 'pageview', u: 'https://a.ru/', r: '', ti: '', sw: 0, sh: 0, v: 'visitor01' },
});

/** The in-process bus hands over the collector's objects as they were published. */
const idOf = (message: unknown): string => (message as AcceptedHit).id;

describe('MemoryBus', () => {
  it('delivers published hits in order, in batches', async () => {
    const bus = new MemoryBus({ maxBatch: 2, retryMs: 10 });
    const batches: string[][] = [];
    await bus.start(async (hits) => {
      batches.push(hits.map(idOf));
    });
    await bus.publish([hit(1), hit(2), hit(3)]);
    expect(await bus.drained(5_000)).toBe(true);
    await bus.stop();
    expect(batches).toEqual([['id-1', 'id-2'], ['id-3']]);
  });

  it('delivers a batch again when the handler failed, and loses nothing', async () => {
    const bus = new MemoryBus({ maxBatch: 10, retryMs: 100 });
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
    await bus.stop();
    expect(seen).toEqual(['id-1', 'id-2', 'id-3']);
  });

  it('holds hits published before a consumer starts', async () => {
    const bus = new MemoryBus();
    await bus.publish([hit(1)]);
    const seen: string[] = [];
    await bus.start(async (hits) => {
      seen.push(...hits.map(idOf));
    });
    expect(await bus.drained(5_000)).toBe(true);
    await bus.stop();
    expect(seen).toEqual(['id-1']);
  });

  it('refuses hits past its capacity, so the collector in front answers 503 instead of growing', async () => {
    const bus = new MemoryBus({ maxBatch: 10, retryMs: 10, capacity: 3 });
    await bus.publish([hit(1), hit(2)]);
    await expect(bus.publish([hit(3), hit(4)])).rejects.toThrow(BusFullError);
    await bus.publish([hit(3)]);
    expect(bus.pending).toBe(3);
    expect(bus.oldestAt).toBe(1);
  });

  it('stops with the batch in hand when its handler gives up, and hands back what was not stored', async () => {
    const bus = new MemoryBus({ maxBatch: 2, retryMs: 10, capacity: 10 });
    let stopping = false;
    await bus.start(async () => {
      // A store that is down: the handler keeps failing until it is told to stop.
      while (!stopping) await new Promise((resolve) => setTimeout(resolve, 5));
      throw new Error('store down, stopped');
    });
    await bus.publish([hit(1), hit(2), hit(3)]);
    expect(await bus.drained(50)).toBe(false);
    stopping = true;
    await bus.stop();
    expect(bus.takeAll().map((h) => h.id)).toEqual(['id-1', 'id-2', 'id-3']);
    expect(bus.pending).toBe(0);
  });

  it('tells when the hits queued up to a point are handled', async () => {
    const bus = new MemoryBus({ maxBatch: 1, retryMs: 10, capacity: 1 });
    const through = bus.requeue([hit(1), hit(2), hit(3)]);
    expect(bus.pending).toBe(3);
    let handled = false;
    const waiting = bus.handledThrough(through).then(() => (handled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handled).toBe(false);
    await bus.start(async () => {});
    await waiting;
    expect(bus.pending).toBe(0);
  });
});
