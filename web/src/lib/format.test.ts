import { describe, expect, it } from 'vitest';
import { formatAxisTicks, formatDuration, formatInteger, formatMetric, formatNumber, formatPercent, MISSING_VALUE, NBSP, NO_TITLE, projectTitle } from './format';

/** Writes expectations with a visible «␣» for the no-break space. */
const s = (text: string) => text.replaceAll('␣', NBSP);

describe('NBSP', () => {
  it('is U+00A0 NO-BREAK SPACE', () => {
    expect(NBSP).toBe('\u00a0');
  });
});

describe('formatNumber', () => {
  it('shows small integers as they are', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(7)).toBe('7');
    expect(formatNumber(999)).toBe('999');
  });

  it('groups thousands with a no-break space', () => {
    expect(formatNumber(1000)).toBe(s('1␣000'));
    expect(formatNumber(21848)).toBe(s('21␣848'));
    expect(formatNumber(123456)).toBe(s('123␣456'));
    expect(formatNumber(999999)).toBe(s('999␣999'));
  });

  it('never uses a plain space or a narrow no-break space', () => {
    const out = formatNumber(123456.78);
    expect(out).not.toContain(' ');
    expect(out).not.toContain('\u202f');
  });

  it('uses a comma for decimals, at most two digits, trailing zeros trimmed', () => {
    expect(formatNumber(1234.5)).toBe(s('1␣234,5'));
    expect(formatNumber(3.14159)).toBe('3,14');
    expect(formatNumber(2.1)).toBe('2,1');
    expect(formatNumber(2.004)).toBe('2');
    expect(formatNumber(0.5)).toBe('0,5');
  });

  it('keeps zeros with fractionDigits', () => {
    expect(formatNumber(2, { fractionDigits: 2 })).toBe('2,00');
    expect(formatNumber(1234.5, { fractionDigits: 1 })).toBe(s('1␣234,5'));
    expect(formatNumber(0.1234567, { fractionDigits: 6 })).toBe('0,123457');
  });

  it('honours maxFractionDigits', () => {
    expect(formatNumber(3.14159, { maxFractionDigits: 0 })).toBe('3');
    expect(formatNumber(3.14159, { maxFractionDigits: 4 })).toBe('3,1416');
  });

  it('switches to млн at one million, two decimals trimmed', () => {
    expect(formatNumber(1_000_000)).toBe(s('1␣млн'));
    expect(formatNumber(1_234_567)).toBe(s('1,23␣млн'));
    expect(formatNumber(1_200_000)).toBe(s('1,2␣млн'));
    expect(formatNumber(12_345_678)).toBe(s('12,35␣млн'));
    expect(formatNumber(123_456_789)).toBe(s('123,46␣млн'));
  });

  it('uses млрд and трлн', () => {
    expect(formatNumber(4_500_000_000)).toBe(s('4,5␣млрд'));
    expect(formatNumber(1_000_000_000)).toBe(s('1␣млрд'));
    expect(formatNumber(2_340_000_000_000)).toBe(s('2,34␣трлн'));
  });

  it('groups the scaled number beyond a thousand trillion', () => {
    expect(formatNumber(1_234_000_000_000_000)).toBe(s('1␣234␣трлн'));
  });

  it('moves to the next unit when rounding reaches a thousand', () => {
    expect(formatNumber(999_999_999)).toBe(s('1␣млрд'));
    expect(formatNumber(999_994_999)).toBe(s('999,99␣млн'));
    expect(formatNumber(999_999_999_999)).toBe(s('1␣трлн'));
  });

  it('treats a value that rounds to a million as a million', () => {
    expect(formatNumber(999_999.999)).toBe(s('1␣млн'));
  });

  it('shows everything in full with compact: false', () => {
    expect(formatNumber(1_234_567, { compact: false })).toBe(s('1␣234␣567'));
    expect(formatNumber(1_234_567_890.5, { compact: false })).toBe(s('1␣234␣567␣890,5'));
  });

  it('puts a hyphen-minus before negatives', () => {
    expect(formatNumber(-5)).toBe('-5');
    expect(formatNumber(-1234.5)).toBe(s('-1␣234,5'));
    expect(formatNumber(-2_500_000)).toBe(s('-2,5␣млн'));
  });

  it('never shows a negative zero', () => {
    expect(formatNumber(-0)).toBe('0');
    expect(formatNumber(-0.001)).toBe('0');
  });

  it('adds a plus sign with signed', () => {
    expect(formatNumber(12, { signed: true })).toBe('+12');
    expect(formatNumber(-12, { signed: true })).toBe('-12');
    expect(formatNumber(0, { signed: true })).toBe('0');
    expect(formatNumber(3_000_000, { signed: true })).toBe(s('+3␣млн'));
  });

  it('shows missing values as NA', () => {
    expect(formatNumber(null)).toBe(MISSING_VALUE);
    expect(formatNumber(undefined)).toBe('NA');
    expect(formatNumber(Number.NaN)).toBe('NA');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('NA');
  });
});

describe('formatInteger', () => {
  it('rounds and never abbreviates', () => {
    expect(formatInteger(1_234_567)).toBe(s('1␣234␣567'));
    expect(formatInteger(1234.6)).toBe(s('1␣235'));
    expect(formatInteger(0)).toBe('0');
    expect(formatInteger(null)).toBe('NA');
  });
});

describe('formatPercent', () => {
  it('takes a fraction and always shows two decimals with a comma, zeros kept', () => {
    expect(formatPercent(0.1234)).toBe('12,34%');
    expect(formatPercent(0.2055)).toBe('20,55%');
    expect(formatPercent(0.2)).toBe('20,00%');
    expect(formatPercent(0.5)).toBe('50,00%');
    expect(formatPercent(1)).toBe('100,00%');
    expect(formatPercent(0)).toBe('0,00%');
    expect(formatPercent(0.00004)).toBe('0,00%');
    // 0.96428… of a whole: 96,428… rounds to 96,43.
    expect(formatPercent(27 / 28)).toBe('96,43%');
  });

  it('groups large percents', () => {
    expect(formatPercent(12.5)).toBe(s('1␣250,00%'));
  });

  it('honours fractionDigits and signed', () => {
    expect(formatPercent(0.12345, { fractionDigits: 1 })).toBe('12,3%');
    expect(formatPercent(0.1, { fractionDigits: 0 })).toBe('10%');
    expect(formatPercent(0.05, { signed: true })).toBe('+5,00%');
    expect(formatPercent(-0.05, { signed: true })).toBe('-5,00%');
  });

  it('shows missing values as NA', () => {
    expect(formatPercent(null)).toBe('NA');
    expect(formatPercent(Number.NaN)).toBe('NA');
  });
});

describe('formatAxisTicks', () => {
  it('gives percent ticks the fewest decimals that show them all, the same for every tick', () => {
    expect(formatAxisTicks([0, 25, 50, 75, 100], 'percent')).toEqual(['0%', '25%', '50%', '75%', '100%']);
    expect(formatAxisTicks([0, 2.5, 5, 7.5], 'percent')).toEqual(['0,0%', '2,5%', '5,0%', '7,5%']);
    // 0.1 + 0.2 is 0.30000000000000004: float noise is no decimal of its own.
    expect(formatAxisTicks([0.1, 0.1 + 0.2, 0.05], 'percent')).toEqual(['0,10%', '0,30%', '0,05%']);
  });

  it('labels ticks of other units as their values', () => {
    expect(formatAxisTicks([0, 1_500_000], 'count')).toEqual(['0', `1,5${NBSP}млн`]);
    expect(formatAxisTicks([90], 'seconds')).toEqual(['01:30']);
  });
});

describe('formatDuration', () => {
  it('shows mm:ss under an hour', () => {
    expect(formatDuration(0)).toBe('00:00');
    expect(formatDuration(5)).toBe('00:05');
    expect(formatDuration(75)).toBe('01:15');
    expect(formatDuration(3599)).toBe('59:59');
  });

  it('shows h:mm:ss from an hour on', () => {
    expect(formatDuration(3600)).toBe('1:00:00');
    expect(formatDuration(3725)).toBe('1:02:05');
  });

  it('rounds fractions of a second and keeps the sign', () => {
    expect(formatDuration(59.6)).toBe('01:00');
    expect(formatDuration(-30)).toBe('-00:30');
    expect(formatDuration(undefined)).toBe('NA');
  });
});

describe('projectTitle', () => {
  it('shows a title as it is', () => {
    expect(projectTitle('Мой сайт')).toBe('Мой сайт');
  });

  it('names an empty, blank or missing title «Нет названия»', () => {
    expect(NO_TITLE).toBe('Нет названия');
    expect(projectTitle('')).toBe('Нет названия');
    expect(projectTitle(' \t ')).toBe('Нет названия');
    expect(projectTitle(null)).toBe('Нет названия');
    expect(projectTitle(undefined)).toBe('Нет названия');
  });
});

describe('formatMetric', () => {
  it('formats counts with spaces and suffixes', () => {
    expect(formatMetric(1234, 'count')).toBe(`1${NBSP}234`);
    expect(formatMetric(1_234_567, 'count')).toBe(`1,23${NBSP}млн`);
  });
  it('formats percents as the api gives them (0–100) with two decimals, a comma and no space', () => {
    expect(formatMetric(20.51, 'percent')).toBe('20,51%');
    expect(formatMetric(20.556, 'percent')).toBe('20,56%');
    // A whole share keeps its zeros, so that «20,00%» lines up with «20,55%» in one column.
    expect(formatMetric(20, 'percent')).toBe('20,00%');
    expect(formatMetric(100, 'percent')).toBe('100,00%');
    expect(formatMetric(0.4, 'percent')).toBe('0,40%');
  });
  it('formats ratios with up to two decimals', () => {
    expect(formatMetric(1.7234, 'ratio')).toBe('1,72');
    expect(formatMetric(2, 'ratio')).toBe('2');
  });
  it('formats seconds as mm:ss, and h:mm:ss from an hour on', () => {
    expect(formatMetric(80.1, 'seconds')).toBe('01:20');
    expect(formatMetric(3723, 'seconds')).toBe('1:02:03');
  });
  it('shows a missing value as NA whatever the unit', () => {
    for (const unit of ['count', 'percent', 'ratio', 'seconds'] as const) expect(formatMetric(null, unit)).toBe(MISSING_VALUE);
  });
});
