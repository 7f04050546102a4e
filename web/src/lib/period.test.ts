import { describe, expect, it } from 'vitest';
import { bucketEnd, formatBucket, matchQuickRange, parsePeriod, parseRatingPeriod, quickRanges, writePeriod } from './period';

const today = '2025-03-12'; // a Wednesday

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

  it('resets today paired with a written date other than today to the default (spec §5)', () => {
    for (const query of ['dateStart=today&dateEnd=2025-03-10', 'dateStart=2025-03-01&dateEnd=today&groupBy=day']) {
      expect(parse(query)).toEqual({
        period: { dateStart: '7days', dateEnd: 'today', start: '2025-03-06', end: today, group: 'day' },
        corrected: true,
      });
    }
    // today's own date beside today, and relative ranges ending today, are kept.
    expect(parse('dateStart=2025-03-12&dateEnd=today&groupBy=hour')).toMatchObject({ period: { start: today, end: today }, corrected: false });
    expect(parse('dateStart=yesterday&dateEnd=today&groupBy=day')).toMatchObject({ period: { start: '2025-03-11', end: today }, corrected: false });
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

describe('formatBucket', () => {
  const period = { start: '2025-03-05', end: '2025-03-12' };
  it('labels buckets by group', () => {
    expect(formatBucket('2025-03-05 14:37:00', 'minute', period)).toBe('05.03.2025 14:37');
    expect(formatBucket('2025-03-05 14:35:00', 'five_minute', period)).toBe('05.03.2025 14:35');
    expect(formatBucket('2025-03-05 14:00:00', 'hour', period)).toBe('05.03.2025 14:00');
    expect(formatBucket('2025-03-05 00:00:00', 'day', period)).toBe('05.03.2025');
    expect(formatBucket('2025-03-01 00:00:00', 'month', period)).toBe('Март 2025');
  });

  it('clips weeks to the period', () => {
    expect(formatBucket('2025-03-03 00:00:00', 'week', period)).toBe('05.03.2025 – 09.03.2025');
    expect(formatBucket('2025-03-10 00:00:00', 'week', period)).toBe('10.03.2025 – 12.03.2025');
  });

  it('labels a first week that the period cuts, as the api starts it on the period\'s first day', () => {
    // 2026-11-01 is a Sunday: the api's first week bucket is that day alone.
    const november = { start: '2026-11-01', end: '2026-11-10' };
    expect(['2026-11-01 00:00:00', '2026-11-02 00:00:00', '2026-11-09 00:00:00'].map((b) => formatBucket(b, 'week', november))).toEqual([
      '01.11.2026 – 01.11.2026',
      '02.11.2026 – 08.11.2026',
      '09.11.2026 – 10.11.2026',
    ]);
  });
});

describe('bucketEnd', () => {
  it('ends a week on its Sunday even when it starts later than Monday', () => {
    expect([bucketEnd('2026-11-01', 'week', '2026-12-31'), bucketEnd('2026-11-04', 'week', '2026-12-31')]).toEqual(['2026-11-01', '2026-11-08']);
  });

  it('ends a month on its last day even when it starts after the 1st', () => {
    expect(bucketEnd('2026-11-15', 'month', '2027-01-31')).toBe('2026-11-30');
  });

  it('clips the end to the period', () => {
    expect([bucketEnd('2026-11-09', 'week', '2026-11-10'), bucketEnd('2026-11-01', 'month', '2026-11-10')]).toEqual(['2026-11-10', '2026-11-10']);
  });
});

describe('parseRatingPeriod', () => {
  const q = (s: string) => new URLSearchParams(s);
  it('reads 8 to 2 days back by day when the URL has no period', () => {
    expect(parseRatingPeriod(q(''), today)).toEqual({
      period: { dateStart: '2025-03-04', dateEnd: '2025-03-10', start: '2025-03-04', end: '2025-03-10', group: 'day' },
      corrected: true,
    });
  });

  it('moves a period reaching today back to end yesterday, keeping its length, written as dates', () => {
    expect(parseRatingPeriod(q('dateStart=7days&dateEnd=today&groupBy=hour'), today)).toEqual({
      period: { dateStart: '2025-03-05', dateEnd: '2025-03-11', start: '2025-03-05', end: '2025-03-11', group: 'day' },
      corrected: true,
    });
  });

  it('keeps a period of whole past days by day as the URL wrote it', () => {
    expect(parseRatingPeriod(q('dateStart=2025-03-01&dateEnd=yesterday&groupBy=day'), today)).toEqual({
      period: { dateStart: '2025-03-01', dateEnd: 'yesterday', start: '2025-03-01', end: '2025-03-11', group: 'day' },
      corrected: false,
    });
  });
});
