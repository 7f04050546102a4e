import { describe, expect, it } from 'vitest';
import { arrowTarget, clickDay, dayRole, firstShownMonth, maskDate, monthWeeks, selectable, shiftMonth } from './calendar';

describe('the «Период:» calendar', () => {
  it('lays a month out in Monday-first weeks: March 2026 starts on a Sunday and takes six rows', () => {
    const weeks = monthWeeks('2026-03-17');
    expect(weeks).toHaveLength(6);
    expect(weeks[0]).toEqual([null, null, null, null, null, null, '2026-03-01']);
    expect(weeks[1]![0]).toBe('2026-03-02');
    expect(weeks[5]).toEqual(['2026-03-30', '2026-03-31', null, null, null, null, null]);
    expect(weeks.flat().filter((d) => d !== null)).toHaveLength(31);
  });

  it('knows February of a leap year, and a month that fills four whole weeks', () => {
    expect(monthWeeks('2028-02-01').flat().filter((d) => d !== null).at(-1)).toBe('2028-02-29');
    // February 2027 begins on a Monday and has 28 days: exactly four rows.
    expect(monthWeeks('2027-02-10')).toHaveLength(4);
    expect(monthWeeks('2027-02-10')[0]![0]).toBe('2027-02-01');
  });

  it('moves by months across years', () => {
    expect([shiftMonth('2026-01-31', -1), shiftMonth('2026-12-05', 1), shiftMonth('2026-11-28', -23)]).toEqual(['2025-12-01', '2027-01-01', '2024-12-01']);
  });

  it('shows the month of the period\'s end and the one before, never past the last day allowed', () => {
    expect(firstShownMonth('2026-11-10', '2026-11-28', 2)).toBe('2026-10-01');
    expect(firstShownMonth('2026-11-10', '2026-11-28', 1)).toBe('2026-11-01');
    expect(firstShownMonth('2026-12-01', '2026-11-28', 2)).toBe('2026-10-01');
  });

  it('lets pick only the days from the first with data to the last allowed', () => {
    const bounds = { min: '2026-10-24', max: '2026-11-28' };
    expect(['2026-10-23', '2026-10-24', '2026-11-28', '2026-11-29'].map((d) => selectable(d, bounds))).toEqual([false, true, true, false]);
    // Data not known (yet): no lower bound.
    expect(selectable('2020-01-01', { min: null, max: '2026-11-28' })).toBe(true);
  });

  it('makes a range of two clicks, swapped when the second is before the first; a third click starts anew', () => {
    const first = clickDay({ start: null, end: null }, '2026-11-10');
    expect(first).toEqual({ start: '2026-11-10', end: null });
    expect(clickDay(first, '2026-11-20')).toEqual({ start: '2026-11-10', end: '2026-11-20' });
    expect(clickDay(first, '2026-11-03')).toEqual({ start: '2026-11-03', end: '2026-11-10' });
    expect(clickDay(first, '2026-11-10')).toEqual({ start: '2026-11-10', end: '2026-11-10' });
    expect(clickDay({ start: '2026-11-03', end: '2026-11-10' }, '2026-11-05')).toEqual({ start: '2026-11-05', end: null });
  });

  it('marks the range\'s ends and inside, and previews it under the pointer before the second click', () => {
    const range = { start: '2026-11-03', end: '2026-11-05' };
    expect(['2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05', '2026-11-06'].map((d) => dayRole(d, range, null))).toEqual([null, 'edge', 'inside', 'edge', null]);
    const half = { start: '2026-11-05', end: null };
    expect(['2026-11-02', '2026-11-03', '2026-11-05'].map((d) => dayRole(d, half, '2026-11-02'))).toEqual(['edge', 'inside', 'edge']);
    expect(dayRole('2026-11-04', half, null)).toBeNull();
  });

  it('masks a typed date: digits only, the dots put in', () => {
    expect(['01112026', '0111', '01.11.2026', '1', '01.', 'ab01/11-2026x', '011120261'].map(maskDate)).toEqual([
      '01.11.2026',
      '01.11',
      '01.11.2026',
      '1',
      '01.',
      '01.11.2026',
      '01.11.2026',
    ]);
    // Dots typed by the user stay where typed: «1.11.2026» is not pushed into «11.12.026».
    expect(['1.11.2026', '1.', '1.1', '1.1.2026', '01.1.', '01.11.', '01.11.20261', '1..'].map(maskDate)).toEqual([
      '1.11.2026',
      '1.',
      '1.1',
      '1.1.2026',
      '01.1.',
      '01.11.',
      '01.11.2026',
      '1..',
    ]);
  });

  it('moves the focus by arrow keys a day sideways or a week up and down, across months, never onto a disabled day', () => {
    const bounds = { min: '2026-10-24', max: '2026-11-28' };
    expect(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].map((key) => arrowTarget('2026-11-01', key, bounds))).toEqual(['2026-10-31', '2026-11-02', '2026-10-25', '2026-11-08']);
    expect([arrowTarget('2026-11-28', 'ArrowRight', bounds), arrowTarget('2026-10-30', 'ArrowUp', bounds), arrowTarget('2026-11-10', 'Enter', bounds)]).toEqual([null, null, null]);
  });
});
