import { describe, expect, it } from 'vitest';
import { conversionValue, formatConversion } from './conversions.js';

describe('the conversion value (spec 002 §3)', () => {
  it('is 100 × numerator / denominator, null without a denominator', () => {
    expect(conversionValue(3, 12)).toBe(25);
    expect(conversionValue(1, 3)).toBeCloseTo(33.3333, 4);
    expect(conversionValue(5, 0)).toBeNull();
  });
  it('shows 6 decimals below 1, else 2, with a decimal comma', () => {
    expect(formatConversion(25)).toBe('25,00');
    expect(formatConversion(100 / 3)).toBe('33,33');
    expect(formatConversion(0.05)).toBe('0,050000');
    expect(formatConversion(0)).toBe('0,000000');
    expect(formatConversion(null)).toBe('NA');
  });
});
