import { describe, expect, it } from 'vitest';
import type { AcceptedHit } from '@stat/schemas';
import { MemoryBus } from './memory.js';

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
    await bus.stop();
    expect(seen).toEqual(['id-1']);
  });
});
