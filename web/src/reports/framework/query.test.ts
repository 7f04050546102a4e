import { describe, expect, it } from 'vitest';
import { correctTableQuery, nextSort, parseOffset, parseSort, readTableQuery, writeSort } from './query';

const columns = ['date', 'page_views', 'visits', 'visitors'];

describe('parseSort / writeSort', () => {
  it('reads name:order for known columns only', () => {
    expect(parseSort('visits:asc', columns)).toEqual({ name: 'visits', order: 'asc' });
    expect(parseSort('date:desc', columns)).toEqual({ name: 'date', order: 'desc' });
    expect(parseSort('bounces:desc', columns)).toBeNull();
    expect(parseSort('visits', columns)).toBeNull();
    expect(parseSort('visits:up', columns)).toBeNull();
    expect(parseSort(null, columns)).toBeNull();
  });

  it('writes what it reads', () => {
    expect(writeSort({ name: 'page_views', order: 'desc' })).toBe('page_views:desc');
  });
});

describe('parseOffset', () => {
  it('accepts whole pages only', () => {
    expect(parseOffset('90', 90)).toBe(90);
    expect(parseOffset('0', 90)).toBe(0);
    expect(parseOffset('45', 90)).toBe(0);
    expect(parseOffset('-90', 90)).toBe(0);
    expect(parseOffset('abc', 90)).toBe(0);
    expect(parseOffset(null, 90)).toBe(0);
  });
});

describe('nextSort (spec 001 §4 "Sorting")', () => {
  it('flips the direction on a repeated click', () => {
    expect(nextSort({ name: 'date', order: 'desc' }, 'date', 'date')).toEqual({ name: 'date', order: 'asc' });
    expect(nextSort({ name: 'visits', order: 'asc' }, 'visits', 'date')).toEqual({ name: 'visits', order: 'desc' });
  });

  it('starts metrics descending and the title column ascending', () => {
    expect(nextSort({ name: 'date', order: 'desc' }, 'visits', 'date')).toEqual({ name: 'visits', order: 'desc' });
    expect(nextSort({ name: 'visits', order: 'desc' }, 'date', 'date')).toEqual({ name: 'date', order: 'asc' });
  });
});

describe('correctTableQuery (spec 001 §5 "Validation rules")', () => {
  const today = '2025-03-12';
  const correct = (query: string) => {
    const search = new URLSearchParams(query);
    return correctTableQuery(search, readTableQuery(search, today, columns, 90))?.toString() ?? null;
  };
  const ok = 'dateStart=7days&dateEnd=today&groupBy=day';

  it('leaves a valid URL alone', () => {
    expect(correct(`${ok}&orderBy=visits:asc&offset=90&limit=100&sample=0.5&globalFilters=x`)).toBeNull();
    expect(correct(`${ok}&limit=0&sample=1`)).toBeNull();
  });

  it('resets today paired with another date to the default period', () => {
    expect(correct('dateStart=today&dateEnd=2025-03-10')).toBe(ok);
  });

  it('fixes a group that does not match the period', () => {
    expect(correct('dateStart=7days&dateEnd=today&groupBy=minute')).toBe(ok);
  });

  it('removes an orderBy that is not a sort column', () => {
    expect(correct(`${ok}&orderBy=foo:desc`)).toBe(ok);
    expect(correct(`${ok}&orderBy=visits:sideways`)).toBe(ok);
  });

  it('removes a limit outside 0 … 100, keeping the other parameters', () => {
    expect(correct(`${ok}&limit=500&orderBy=visits:asc`)).toBe(`${ok}&orderBy=visits%3Aasc`);
    expect(correct(`${ok}&limit=-1`)).toBe(ok);
    expect(correct(`${ok}&limit=ten`)).toBe(ok);
  });

  it('removes a sample not above 0 and up to 1', () => {
    for (const sample of ['5', '0', '-0.1', '1.01', 'abc']) expect(correct(`${ok}&sample=${sample}`)).toBe(ok);
  });

  it('removes an offset that is negative or not a whole page', () => {
    expect(correct(`${ok}&offset=-90`)).toBe(ok);
    expect(correct(`${ok}&offset=45`)).toBe(ok);
  });
});
