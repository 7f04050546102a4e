import { describe, expect, it } from 'vitest';
import { wholeWeeks } from './weeks.js';

// 2026-11-02 and 2026-11-09 are Mondays, 2026-11-08 and 2026-11-15 Sundays.
describe('wholeWeeks', () => {
  it('cuts a month into its whole weeks and the days around them', () => {
    expect(wholeWeeks('2026-10-26', '2026-11-24')).toEqual({
      weeks: { first: '2026-10-26', last: '2026-11-16' },
      days: [{ first: '2026-11-23', last: '2026-11-24' }],
    });
    expect(wholeWeeks('2026-10-28', '2026-11-10')).toEqual({
      weeks: { first: '2026-11-02', last: '2026-11-02' },
      days: [
        { first: '2026-10-28', last: '2026-11-01' },
        { first: '2026-11-09', last: '2026-11-10' },
      ],
    });
  });

  it('takes a period of exactly whole weeks whole', () => {
    expect(wholeWeeks('2026-11-02', '2026-11-15')).toEqual({ weeks: { first: '2026-11-02', last: '2026-11-09' }, days: [] });
    expect(wholeWeeks('2026-11-02', '2026-11-08')).toEqual({ weeks: { first: '2026-11-02', last: '2026-11-02' }, days: [] });
  });

  it('finds no whole week in a period shorter than one or cut by its edges', () => {
    expect(wholeWeeks('2026-11-02', '2026-11-07')).toBeUndefined();
    expect(wholeWeeks('2026-11-03', '2026-11-09')).toBeUndefined();
    expect(wholeWeeks('2026-11-08', '2026-11-14')).toBeUndefined();
    expect(wholeWeeks('2026-11-24', '2026-11-24')).toBeUndefined();
  });

  it('crosses a year', () => {
    // 2026-12-28 is a Monday, 2027-01-03 a Sunday.
    expect(wholeWeeks('2026-12-27', '2027-01-04')).toEqual({
      weeks: { first: '2026-12-28', last: '2026-12-28' },
      days: [
        { first: '2026-12-27', last: '2026-12-27' },
        { first: '2027-01-04', last: '2027-01-04' },
      ],
    });
  });
});
