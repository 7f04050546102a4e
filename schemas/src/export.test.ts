import { describe, expect, it } from 'vitest';
import { EXPORT_MAX_LIMIT, exportLimitOf } from './export.js';

describe('the export limit (spec 002 §5: digits only, 1 on a bad value)', () => {
  it.each([
    ['25', 25],
    [' 7 ', 7],
    ['', 1],
    ['0', 1],
    ['-5', 1],
    ['1e3', 1],
    ['12.5', 1],
    ['abc', 1],
    ['99999999999999999999', 1],
    [String(EXPORT_MAX_LIMIT + 1), EXPORT_MAX_LIMIT],
  ])('%j becomes %d', (text, limit) => {
    expect(exportLimitOf(text)).toBe(limit);
  });
});
