import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatIsoDate,
  formatMonth,
  formatTime,
  moscowParts,
  moscowToday,
  parseDisplayDate,
} from './dates';

describe('moscowToday', () => {
  it('is the Moscow date, three hours ahead of UTC', () => {
    expect(moscowToday(Date.UTC(2025, 2, 9, 20, 59))).toBe('2025-03-09');
    expect(moscowToday(Date.UTC(2025, 2, 9, 21, 0))).toBe('2025-03-10');
  });

  it('crosses years at Moscow midnight', () => {
    expect(moscowToday(Date.UTC(2024, 11, 31, 21, 30))).toBe('2025-01-01');
  });

  it('uses the UTC+4 of 2011–2014', () => {
    expect(moscowToday(Date.UTC(2013, 5, 1, 20, 30))).toBe('2013-06-02');
  });
});

describe('moscowParts', () => {
  it('gives the wall clock in Moscow whatever the zone of the machine', () => {
    expect(moscowParts(Date.UTC(2025, 0, 15, 21, 5, 7))).toEqual({ year: 2025, month: 1, day: 16, hour: 0, minute: 5, second: 7 });
  });
});

describe('formatDate / formatTime / formatDateTime', () => {
  // 2026-11-15 00:00 in Moscow.
  const ts = 1794690000;
  it('formats unix seconds in Moscow time', () => {
    expect(formatDate(ts)).toBe('15.11.2026');
    expect(formatTime(ts)).toBe('00:00');
    expect(formatTime(ts + 13 * 3600 + 5 * 60)).toBe('13:05');
    expect(formatDateTime(ts - 60)).toBe('14.11.2026 23:59');
  });
});

describe('display forms', () => {
  it('writes ISO dates as DD.MM.YYYY', () => {
    expect(formatIsoDate('2025-03-09')).toBe('09.03.2025');
    expect(formatIsoDate('garbage')).toBe('garbage');
  });

  it('reads DD.MM.YYYY back', () => {
    expect(parseDisplayDate('09.03.2025')).toBe('2025-03-09');
    expect(parseDisplayDate(' 29.02.2024 ')).toBe('2024-02-29');
    expect(parseDisplayDate('29.02.2025')).toBeNull();
    expect(parseDisplayDate('9.3.2025')).toBeNull();
    expect(parseDisplayDate('2025-03-09')).toBeNull();
  });

  it('names months in Russian', () => {
    expect(formatMonth('2025-03-01')).toBe('Март 2025');
    expect(formatMonth('2024-12-15')).toBe('Декабрь 2024');
  });
});
