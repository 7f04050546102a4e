import { describe, expect, it } from 'vitest';
import { Random, Weighted, zipfWeights } from './random.js';

describe('Random', () => {
  it('gives the same stream for the same seed and another for another seed', () => {
    const draw = (seed: number) => {
      const r = new Random(seed);
      return Array.from({ length: 5 }, () => r.uint32());
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('pins the stream of a seed, so generated traffic is the same on every machine', () => {
    const r = new Random(7596044);
    expect([r.uint32(), r.uint32(), r.uint32()]).toEqual(PINNED);
  });

  it('draws uniformly in [0, 1)', () => {
    const r = new Random(1);
    const bins = new Array<number>(10).fill(0);
    let min = 1;
    let max = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = r.next();
      min = Math.min(min, x);
      max = Math.max(max, x);
      bins[Math.floor(x * 10)]! += 1;
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThan(1);
    for (const n of bins) expect(Math.abs(n - 10_000)).toBeLessThan(500);
  });

  it('log-normal draws have the median asked for', () => {
    const r = new Random(2);
    const xs = Array.from({ length: 20_001 }, () => r.logNormal(60, 0.9)).sort((a, b) => a - b);
    expect(xs[10_000]).toBeGreaterThan(57);
    expect(xs[10_000]).toBeLessThan(63);
  });

  it('makes version-4 UUIDs, all different', () => {
    const r = new Random(3);
    const ids = Array.from({ length: 10_000 }, () => r.uuid());
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('Weighted', () => {
  it('picks items in proportion to their weights', () => {
    const w = new Weighted([['a', 1], ['b', 3], ['none', 0], ['c', 6]] as const);
    const r = new Random(4);
    const counts: Record<string, number> = { a: 0, b: 0, c: 0, none: 0 };
    for (let i = 0; i < 100_000; i++) counts[w.pick(r)]! += 1;
    expect(counts.none).toBe(0);
    expect(Math.abs(counts.a! - 10_000)).toBeLessThan(600);
    expect(Math.abs(counts.b! - 30_000)).toBeLessThan(900);
    expect(Math.abs(counts.c! - 60_000)).toBeLessThan(900);
    expect(w.share(2)).toBeCloseTo(0.6);
  });

  it('refuses a table without a positive weight', () => {
    expect(() => new Weighted([['a', 0]])).toThrow(/no item/);
  });

  it('zipf weights fall with rank', () => {
    expect(zipfWeights(3, 1)).toEqual([1, 1 / 2, 1 / 3]);
  });
});

const PINNED = [1317150675, 741083586, 1173349847];
