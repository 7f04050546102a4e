import { describe, expect, it } from 'vitest';
import {
  allowedGroups,
  bucketCount,
  defaultGroup,
  fitGroup,
  formatBucket,
  matchQuickRange,
  parsePeriod,
  periodDays,
  quickRanges,
  resolveDateParam,
  writePeriod,
} from './period';

const today = '2025-03-12'; // a Wednesday

describe('resolveDateParam', () => {
  it('resolves relative dates against today', () => {
    expect(resolveDateParam('today', today)).toBe('2025-03-12');
    expect(resolveDateParam('yesterday', today)).toBe('2025-03-11');
    expect(resolveDateParam('7days', today)).toBe('2025-03-06');
    expect(resolveDateParam('30days', today)).toBe('2025-02-11');
    expect(resolveDateParam('1days', today)).toBe('2025-03-12');
  });

  it('accepts real past dates and rejects the rest', () => {
    expect(resolveDateParam('2025-03-01', today)).toBe('2025-03-01');
    expect(resolveDateParam('2025-03-12', today)).toBe('2025-03-12');
    expect(resolveDateParam('2025-03-13', today)).toBeNull();
    expect(resolveDateParam('2025-02-30', today)).toBeNull();
    expect(resolveDateParam('0days', today)).toBeNull();
    expect(resolveDateParam('tomorrow', today)).toBeNull();
    expect(resolveDateParam('', today)).toBeNull();
    expect(resolveDateParam(null, today)).toBeNull();
  });
});

describe('allowedGroups (spec 001 §4)', () => {
  it('offers five_minute or hour for one day', () => {
    expect(allowedGroups(today, today)).toEqual(['five_minute', 'hour']);
  });

  it('offers hour or day up to a week', () => {
    expect(allowedGroups('2025-03-11', today)).toEqual(['hour', 'day']);
    expect(allowedGroups('2025-03-06', today)).toEqual(['hour', 'day']);
  });

  it('offers day or week up to a month', () => {
    expect(allowedGroups('2025-03-05', today)).toEqual(['day', 'week']);
    expect(allowedGroups('2025-02-10', today)).toEqual(['day', 'week']);
  });

  it('offers day, week or month beyond', () => {
    expect(allowedGroups('2025-02-09', today)).toEqual(['day', 'week', 'month']);
    expect(allowedGroups('2024-01-01', today)).toEqual(['day', 'week', 'month']);
  });
});

describe('defaultGroup and fitGroup', () => {
  it('defaults to hour for a day and day otherwise', () => {
    expect(defaultGroup(today, today)).toBe('hour');
    expect(defaultGroup('2025-03-06', today)).toBe('day');
    expect(defaultGroup('2024-01-01', today)).toBe('day');
  });

  it('keeps an allowed group and replaces one that is not', () => {
    expect(fitGroup('five_minute', today, today)).toBe('five_minute');
    expect(fitGroup('day', today, today)).toBe('hour');
    expect(fitGroup('hour', '2025-03-06', today)).toBe('hour');
    expect(fitGroup('five_minute', '2025-03-06', today)).toBe('day');
    expect(fitGroup('week', '2025-03-06', today)).toBe('day');
    expect(fitGroup('month', '2025-02-11', today)).toBe('day');
    expect(fitGroup('month', '2024-01-01', today)).toBe('month');
    expect(fitGroup(null, '2024-01-01', today)).toBe('day');
  });
});

describe('parsePeriod', () => {
  const parse = (query: string) => parsePeriod(new URLSearchParams(query), today);

  it('defaults to the last 7 days by day', () => {
    expect(parse('')).toEqual({
      period: { dateStart: '7days', dateEnd: 'today', start: '2025-03-06', end: today, group: 'day' },
      corrected: true,
    });
  });

  it('reads a valid URL without correcting it', () => {
    expect(parse('dateStart=30days&dateEnd=today&groupBy=week')).toEqual({
      period: { dateStart: '30days', dateEnd: 'today', start: '2025-02-11', end: today, group: 'week' },
      corrected: false,
    });
    expect(parse('dateStart=2025-01-01&dateEnd=2025-01-31&groupBy=day').corrected).toBe(false);
  });

  it('fixes a group that does not fit the period', () => {
    expect(parse('dateStart=today&dateEnd=today&groupBy=day')).toMatchObject({ period: { group: 'hour' }, corrected: true });
    expect(parse('dateStart=today&dateEnd=today&groupBy=nonsense')).toMatchObject({ period: { group: 'hour' }, corrected: true });
    expect(parse('dateStart=today&dateEnd=today')).toMatchObject({ period: { group: 'hour' }, corrected: true });
  });

  it('resets invalid or future dates to the default', () => {
    for (const query of ['dateStart=2025-02-30&dateEnd=today', 'dateStart=7days&dateEnd=2099-01-01', 'dateStart=abc&dateEnd=today']) {
      expect(parse(query)).toMatchObject({ period: { dateStart: '7days', dateEnd: 'today', group: 'day' }, corrected: true });
    }
  });

  it('swaps a start after the end', () => {
    expect(parse('dateStart=2025-03-10&dateEnd=2025-03-01&groupBy=day')).toEqual({
      period: { dateStart: '2025-03-01', dateEnd: '2025-03-10', start: '2025-03-01', end: '2025-03-10', group: 'day' },
      corrected: true,
    });
  });
});

describe('writePeriod', () => {
  it('sets the three parameters and keeps the others', () => {
    const out = writePeriod(new URLSearchParams('orderBy=visits:desc&dateStart=x'), { dateStart: 'today', dateEnd: 'today', group: 'hour' });
    expect(out.toString()).toBe('orderBy=visits%3Adesc&dateStart=today&dateEnd=today&groupBy=hour');
  });
});

describe('quick ranges', () => {
  it('has the six ranges of the spec with Russian labels', () => {
    expect(quickRanges(today).map((r) => [r.id, r.label, r.dateStart, r.dateEnd])).toEqual([
      ['today', 'Сегодня', 'today', 'today'],
      ['yesterday', 'Вчера', 'yesterday', 'yesterday'],
      ['7days', '7 дней', '7days', 'today'],
      ['30days', '30 дней', '30days', 'today'],
      ['last_week', 'Прошлая неделя', '2025-03-03', '2025-03-09'],
      ['last_month', 'Прошлый месяц', '2025-02-01', '2025-02-28'],
    ]);
  });

  it('knows which quick range a period is', () => {
    expect(matchQuickRange({ start: '2025-03-06', end: today }, today)?.id).toBe('7days');
    expect(matchQuickRange({ start: today, end: today }, today)?.id).toBe('today');
    expect(matchQuickRange({ start: '2025-03-03', end: '2025-03-09' }, today)?.id).toBe('last_week');
    expect(matchQuickRange({ start: '2025-03-05', end: today }, today)).toBeUndefined();
  });

  it('computes last week and last month across a year boundary', () => {
    const ranges = quickRanges('2025-01-02');
    expect(ranges.find((r) => r.id === 'last_week')).toMatchObject({ dateStart: '2024-12-23', dateEnd: '2024-12-29' });
    expect(ranges.find((r) => r.id === 'last_month')).toMatchObject({ dateStart: '2024-12-01', dateEnd: '2024-12-31' });
  });
});

describe('bucketCount', () => {
  it('counts the buckets the api returns', () => {
    expect(bucketCount(today, today, 'five_minute')).toBe(288);
    expect(bucketCount(today, today, 'hour')).toBe(24);
    expect(bucketCount('2025-03-06', today, 'hour')).toBe(168);
    expect(bucketCount('2025-03-06', today, 'day')).toBe(7);
    expect(bucketCount('2025-02-11', today, 'week')).toBe(5);
    expect(bucketCount('2025-03-10', '2025-03-16', 'week')).toBe(1);
    expect(bucketCount('2024-11-30', '2025-03-01', 'month')).toBe(5);
    expect(periodDays('2025-03-06', today)).toBe(7);
  });
});

describe('formatBucket', () => {
  const period = { start: '2025-03-05', end: '2025-03-12' };
  it('labels buckets by group', () => {
    expect(formatBucket('2025-03-05 14:35:00', 'five_minute', period)).toBe('05.03.2025 14:35');
    expect(formatBucket('2025-03-05 14:00:00', 'hour', period)).toBe('05.03.2025 14:00');
    expect(formatBucket('2025-03-05 00:00:00', 'day', period)).toBe('05.03.2025');
    expect(formatBucket('2025-03-01 00:00:00', 'month', period)).toBe('Март 2025');
  });

  it('clips weeks to the period', () => {
    expect(formatBucket('2025-03-03 00:00:00', 'week', period)).toBe('05.03.2025 – 09.03.2025');
    expect(formatBucket('2025-03-10 00:00:00', 'week', period)).toBe('10.03.2025 – 12.03.2025');
  });
});
