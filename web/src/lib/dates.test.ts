import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatIsoDate,
  formatMonth,
  formatTime,
  moscowParts,
  moscowToday,
  moscowWallDate,
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

describe('moscowParts without Intl since Moscow keeps UTC+3', () => {
  // The last instant of UTC+4 (2014-10-26 01:59:59 in Moscow) and the first of UTC+3 (01:00:00 again).
  it('switches at 2014-10-25 22:00 UTC', () => {
    expect(moscowParts(Date.UTC(2014, 9, 25, 21, 59, 59))).toEqual({ year: 2014, month: 10, day: 26, hour: 1, minute: 59, second: 59 });
    expect(moscowParts(Date.UTC(2014, 9, 25, 22, 0, 0))).toEqual({ year: 2014, month: 10, day: 26, hour: 1, minute: 0, second: 0 });
  });

  it('crosses a leap day at Moscow midnight', () => {
    expect(moscowParts(Date.UTC(2028, 1, 28, 21, 0, 0))).toEqual({ year: 2028, month: 2, day: 29, hour: 0, minute: 0, second: 0 });
    expect(moscowParts(Date.UTC(2028, 1, 29, 20, 59, 59))).toEqual({ year: 2028, month: 2, day: 29, hour: 23, minute: 59, second: 59 });
  });

  it('agrees with the time zone database on every hour of 2025', () => {
    const tzdb = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Moscow', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    const differ: string[] = [];
    for (let ms = Date.UTC(2025, 0, 1); ms < Date.UTC(2026, 0, 1); ms += 3_600_000 + 60_000) {
      const p = moscowParts(ms);
      const ours = `${String(p.day).padStart(2, '0')}/${String(p.month).padStart(2, '0')}/${p.year}, ${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
      if (ours !== tzdb.format(ms)) differ.push(`${new Date(ms).toISOString()}: ${ours} / ${tzdb.format(ms)}`);
    }
    expect(differ).toEqual([]);
  });
});

describe('moscowWallDate', () => {
  it("shows Moscow's wall clock in the local fields, as uPlot reads them", () => {
    const d = moscowWallDate(Date.UTC(2025, 0, 15, 21, 5, 7, 250));
    expect([d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds()]).toEqual([2025, 0, 16, 0, 5, 7, 250]);
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
    // A one-digit day or month, as typed with its dots.
    expect(parseDisplayDate('9.3.2025')).toBe('2025-03-09');
    expect(parseDisplayDate('9.3.25')).toBeNull();
    expect(parseDisplayDate('2025-03-09')).toBeNull();
  });

  it('names months in Russian', () => {
    expect(formatMonth('2025-03-01')).toBe('Март 2025');
    expect(formatMonth('2024-12-15')).toBe('Декабрь 2024');
  });
});
