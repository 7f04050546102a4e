// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { NO_HINTS_HIDDEN } from '@stat/schemas/hints';
import { readHints, writeHints } from './hints';

describe('a visitor’s report hints in this browser', () => {
  it('reads back what was written, and a damaged or foreign stored value as nothing hidden', () => {
    writeHints('h0', { all: false, reports: ['geo'], tips: ['reportGraph'], views: 2 });
    expect(readHints('h0')).toEqual({ all: false, reports: ['geo'], tips: ['reportGraph'], views: 2 });
    localStorage.setItem('h1', '{"all":"yes","reports":[1,"geo"],"tips":["reportCsv","bogus"],"views":-2}');
    expect(readHints('h1')).toEqual({ all: false, reports: ['geo'], tips: ['reportCsv'], views: 0 });
    localStorage.setItem('h2', 'not json');
    expect(readHints('h2')).toEqual(NO_HINTS_HIDDEN);
    expect(readHints('missing')).toEqual(NO_HINTS_HIDDEN);
  });
});
