import { describe, expect, it } from 'vitest';
import { LruSet } from './lru-set.js';

describe('LruSet', () => {
  it('keeps at most its capacity, forgetting the member least recently added', () => {
    const set = new LruSet<number>(3);
    for (const id of [1, 2, 3, 4, 5]) set.add(id);
    expect(set.size).toBe(3);
    expect([1, 2, 3, 4, 5].filter((id) => set.has(id))).toEqual([3, 4, 5]);
  });

  it('counts a member found or added again as recent, so the one left alone goes first', () => {
    const set = new LruSet<number>(3);
    set.add(1);
    set.add(2);
    set.add(3);
    expect(set.has(1)).toBe(true);
    set.add(2);
    set.add(4);
    expect([1, 2, 3, 4].map((id) => set.has(id))).toEqual([true, true, false, true]);
  });

  it('does not grow when a member is added twice, and forgets one on delete', () => {
    const set = new LruSet<string>(2);
    set.add('a');
    set.add('a');
    set.add('b');
    expect(set.size).toBe(2);
    expect(set.has('a')).toBe(true);
    expect(set.delete('a')).toBe(true);
    expect([set.size, set.has('a'), set.has('b')]).toEqual([1, false, true]);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new LruSet(0)).toThrow(/capacity/);
    expect(() => new LruSet(1.5)).toThrow(/capacity/);
  });
});
