import { describe, expect, it } from 'vitest';
import { Lru } from './lru.js';

describe('Lru', () => {
  it('evicts the least recently used key when full', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3);
    expect([lru.get('a'), lru.get('b'), lru.get('c'), lru.size]).toEqual([undefined, 2, 3, 2]);
  });

  it('a read makes a key recent, so the other one goes', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.get('a');
    lru.set('c', 3);
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([1, undefined, 3]);
  });

  it('overwriting a key does not evict another', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('a', 10);
    expect([lru.get('a'), lru.get('b'), lru.size]).toEqual([10, 2, 2]);
  });

  it('refuses a capacity below one', () => {
    expect(() => new Lru(0)).toThrow(RangeError);
  });
});
