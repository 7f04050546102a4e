import { describe, expect, it } from 'vitest';
import { clockOffset } from './clock';

describe('clockOffset', () => {
  const local = Date.UTC(2025, 2, 12, 12, 0, 0);
  it('ignores differences of a minute or less', () => {
    expect(clockOffset(local / 1000, local)).toBe(0);
    expect(clockOffset(local / 1000 + 60, local)).toBe(0);
    expect(clockOffset(local / 1000 - 60, local)).toBe(0);
  });

  it('gives the difference beyond a minute', () => {
    expect(clockOffset(local / 1000 + 61, local)).toBe(61_000);
    expect(clockOffset(local / 1000 - 86_400, local)).toBe(-86_400_000);
  });
});
