import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { ReportRequestDto, isCalendarDate } from './report-request.dto.js';

const valid = { date_start: '2026-11-01', date_end: '2026-11-21', group: 'day', metrics: ['page_views', 'visits', 'visitors'] };

/** The properties whose validation failed, as the api's 400 message would name them. */
function failures(body: Record<string, unknown>): string[] {
  const errors = validateSync(plainToInstance(ReportRequestDto, body), { whitelist: true, forbidNonWhitelisted: true });
  return errors.flatMap((e) => [e.property, ...(e.children ?? []).map((c) => `${e.property}.${c.property}`)]);
}

describe('ReportRequestDto', () => {
  it('accepts the body of the specification', () => {
    expect(failures(valid)).toEqual([]);
    expect(failures({ ...valid, sort: { name: 'visits', order: 'asc' }, limit: 100, offset: 0 })).toEqual([]);
  });

  it.each(['2026-02-30', '2026-13-01', '21.11.2026', '2026-1-1', '', 20261121])('refuses date_start %s', (date_start) => {
    expect(failures({ ...valid, date_start })).toContain('date_start');
  });

  it('refuses an end before the start', () => {
    expect(failures({ ...valid, date_start: '2026-11-21', date_end: '2026-11-20' })).toEqual(['date_end']);
  });

  it('accepts a single day', () => {
    expect(failures({ ...valid, date_start: '2026-11-21', date_end: '2026-11-21' })).toEqual([]);
  });

  it.each(['minute', 'year', 'DAY', ''])('refuses group %s', (group) => {
    expect(failures({ ...valid, group })).toEqual(['group']);
  });

  it.each([[[]], [['page_views', 'page_views']], [['bounce_rate']], ['page_views']])('refuses metrics %j', (metrics) => {
    expect(failures({ ...valid, metrics })).toEqual(['metrics']);
  });

  it.each([0, 101, 1.5, '10'])('refuses limit %s', (limit) => {
    expect(failures({ ...valid, limit })).toEqual(['limit']);
  });

  it('refuses a negative offset', () => {
    expect(failures({ ...valid, offset: -1 })).toEqual(['offset']);
  });

  it('refuses a sort by an unknown column, which would otherwise reach ORDER BY', () => {
    expect(failures({ ...valid, sort: { name: 'page_views; DROP TABLE events', order: 'asc' } })).toEqual(['sort', 'sort.name']);
  });

  it('refuses unknown fields', () => {
    expect(failures({ ...valid, filters: [] })).toEqual(['filters']);
  });
});

describe('isCalendarDate', () => {
  it('knows leap years', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
  });
});
