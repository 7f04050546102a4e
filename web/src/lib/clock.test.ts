import { describe, expect, it } from 'vitest';
import { clockOffset, dayChanged } from './clock';

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

describe('dayChanged', () => {
  // 23:30 and 00:30 in Moscow (UTC+3), on either side of midnight.
  const lateOn27 = Date.UTC(2026, 10, 27, 20, 30);
  const earlyOn28 = Date.UTC(2026, 10, 27, 21, 30);

  it('is false while the page\'s today is the day by both clocks', () => {
    expect(dayChanged('2026-11-27', 0, lateOn27)).toBe(false);
    // The server's clock not known yet: this one's day is taken.
    expect(dayChanged('2026-11-27', null, lateOn27)).toBe(false);
  });

  it('is true past midnight, for a page that knows yesterday', () => {
    expect(dayChanged('2026-11-27', 0, earlyOn28)).toBe(true);
  });

  it('is true when the server\'s day and this browser\'s differ (spec 001 §4: "server day differs from the local day")', () => {
    // The server is an hour ahead: already the 28th there, still the 27th here.
    expect(dayChanged('2026-11-28', 3_600_000, lateOn27)).toBe(true);
    expect(dayChanged('2026-11-27', 3_600_000, lateOn27)).toBe(true);
  });
});
