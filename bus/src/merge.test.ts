import { describe, expect, it } from 'vitest';
import type { BatchPosition } from '@stat/schemas';
import { BatchMerger } from './merge.js';

// Messages are untrusted and opaque to the merger: Kafka's texts.
const hit = (n: number): string => `message ${n}`;
const at = (partition: number, ...offsets: number[]) => ({ topic: 't', partition, offsets });

interface Write {
  ids: unknown[];
  position: BatchPosition | undefined;
}

describe('BatchMerger', () => {
  it('writes batches handed over together as one, and those that come during a write in the next', async () => {
    const writes: Write[] = [];
    let release: () => void = () => undefined;
    const merger = new BatchMerger(async (hits, position) => {
      writes.push({ ids: [...hits], position });
      if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const first = [merger.submit([hit(1), hit(2)], at(0, 10, 11)), merger.submit([hit(3)], at(1, 20))];
    await new Promise((resolve) => setImmediate(resolve));
    // The first write runs; these two wait for the next one.
    const second = [merger.submit([hit(4)], at(0, 12)), merger.submit([hit(5)], at(2, 30))];
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    release();
    await Promise.all([...first, ...second]);
    expect(writes).toEqual([
      { ids: [hit(1), hit(2), hit(3)], position: [at(0, 10, 11), at(1, 20)] },
      { ids: [hit(4), hit(5)], position: [at(0, 12), at(2, 30)] },
    ]);
  });

  it('rejects every batch of a failed write, and the next batches still go', async () => {
    let fail = true;
    const merger = new BatchMerger(async () => {
      if (fail) throw new Error('ClickHouse refused');
    });
    const failed = [merger.submit([hit(1)], at(0, 1)), merger.submit([hit(2)], at(1, 1))];
    await expect(Promise.all(failed)).rejects.toThrow('ClickHouse refused');
    await expect(failed[1]).rejects.toThrow('ClickHouse refused');
    fail = false;
    await expect(merger.submit([hit(3)], at(0, 2))).resolves.toBeUndefined();
  });

  it('keeps a write within its size, but never splits a batch', async () => {
    const sizes: number[] = [];
    const merger = new BatchMerger(async (hits) => {
      sizes.push(hits.length);
    }, 3);
    await Promise.all([
      merger.submit([hit(1), hit(2)], at(0, 1, 2)),
      merger.submit([hit(3), hit(4)], at(1, 1, 2)),
      merger.submit([hit(5), hit(6), hit(7), hit(8)], at(2, 1, 2, 3, 4)),
    ]);
    expect(sizes).toEqual([2, 2, 4]);
  });
});
