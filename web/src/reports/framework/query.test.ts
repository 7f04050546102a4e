import { describe, expect, it } from 'vitest';
import { nextSort, parseOffset, parseSort, writeSort } from './query';

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
