import { describe, expect, it } from 'vitest';
import { moscowDayStart } from '@stat/schemas';
import { windowStart } from './realtime.service.js';

const DAY = '2026-11-20';
/** Epoch seconds of a Moscow wall-clock time of DAY. */
const at = (time: string): number => {
  const [h, m, s] = time.split(':').map(Number) as [number, number, number];
  return moscowDayStart(DAY) / 1000 + h * 3600 + m * 60 + s;
};

describe('the live window of today\'s last minutes', () => {
  it('starts at the start of the graph bucket its first second falls in, so that bucket is whole', () => {
    expect(windowStart(at('12:30:27'), 30, 'minute', DAY)).toBe(at('12:00:00'));
    expect(windowStart(at('12:30:27'), 30, 'five_minute', DAY)).toBe(at('12:00:00'));
    expect(windowStart(at('12:33:10'), 30, 'five_minute', DAY)).toBe(at('12:00:00'));
    expect(windowStart(at('12:30:27'), 60, 'hour', DAY)).toBe(at('11:00:00'));
  });

  it('is exactly the last minutes when they start on a bucket', () => {
    expect(windowStart(at('12:30:00'), 30, 'minute', DAY)).toBe(at('12:00:00'));
    expect(windowStart(at('12:35:00'), 5, 'five_minute', DAY)).toBe(at('12:30:00'));
  });

  it('never starts before today', () => {
    expect(windowStart(at('00:10:30'), 240, 'minute', DAY)).toBe(at('00:00:00'));
    expect(windowStart(at('00:10:30'), 30, 'hour', DAY)).toBe(at('00:00:00'));
  });
});
