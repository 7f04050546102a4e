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

  it.each(['year', 'DAY', 'second', ''])('refuses group %s', (group) => {
    expect(failures({ ...valid, group })).toEqual(['group']);
  });

  it.each([[[]], [['page_views', 'page_views']], [['bounce_rate']], ['page_views']])('refuses metrics %j', (metrics) => {
    expect(failures({ ...valid, metrics })).toEqual(['metrics']);
  });

  it.each([-1, 101, 1.5, '10'])('refuses limit %s', (limit) => {
    expect(failures({ ...valid, limit })).toEqual(['limit']);
  });

  it('refuses a negative offset', () => {
    expect(failures({ ...valid, offset: -1 })).toEqual(['offset']);
  });

  it('refuses a sort by an unknown column, which would otherwise reach ORDER BY', () => {
    expect(failures({ ...valid, sort: { name: 'page_views; DROP TABLE events', order: 'asc' } })).toEqual(['sort', 'sort.name']);
  });

  it('refuses unknown fields', () => {
    expect(failures({ ...valid, where: '1=1' })).toEqual(['where']);
  });

  it('accepts the whole body of the specification', () => {
    expect(
      failures({
        ...valid,
        group: 'minute',
        metrics: ['visits'],
        sort: { name: 'title' },
        selected_lines: ['["search"]', '["search","yandex"]'],
        need_all_total: true,
        split: [],
        dimensions: ['traffic_type'],
        filters: [{ key: 'traffic_type', op: '=', value: 'search' }],
        dimension_filters: [{ key: 'url', op: 'multilike', value: ['*news*', '@*NEWS*'] }, { key: 'event_name', op: '=', value: 'buy', extra: { eventClass: 'cv' } }],
        metric_filters: [{ key: 'visits', op: '>', value: 10 }],
        sample: 0.1,
        limit: 0,
        offset: 50,
        empty_dates: false,
        parents: ['search', 'yandex'],
      }),
    ).toEqual([]);
  });

  it.each([
    ['an unknown dimension', { dimension_filters: [{ key: 'password', op: '=', value: 'x' }] }, 'dimension_filters'],
    ['a dimension the service does not collect', { dimension_filters: [{ key: 'gender', op: '=', value: 'm' }] }, 'dimension_filters'],
    ['an unknown operator', { dimension_filters: [{ key: 'url', op: 'regexp', value: '.*' }] }, 'dimension_filters'],
    ['a list for a one-value operator', { dimension_filters: [{ key: 'url', op: '=', value: ['a', 'b'] }] }, 'dimension_filters'],
    ['one value for a list operator', { dimension_filters: [{ key: 'url', op: 'include', value: 'a' }] }, 'dimension_filters'],
    ['a range of three', { dimension_filters: [{ key: 'geo_city', op: 'range', value: [1, 2, 3] }] }, 'dimension_filters'],
    ['a list over the limit', { dimension_filters: [{ key: 'url', op: 'include', value: Array.from({ length: 101 }, (_, i) => `u${i}`) }] }, 'dimension_filters'],
    ['too many rules', { filters: Array.from({ length: 21 }, () => ({ key: 'url', op: '=', value: 'a' })) }, 'filters'],
    ['a nested object as a value', { dimension_filters: [{ key: 'url', op: '=', value: { $ne: 1 } }] }, 'dimension_filters'],
    ['a metric filter on a dimension', { metric_filters: [{ key: 'url', op: '>', value: 1 }] }, 'metric_filters'],
    ['a metric filter with like', { metric_filters: [{ key: 'visits', op: 'like', value: 1 }] }, 'metric_filters'],
    ['a text metric filter value', { metric_filters: [{ key: 'visits', op: '>', value: '1; DROP TABLE events' }] }, 'metric_filters'],
    ['a sample of 0', { sample: 0 }, 'sample'],
    ['a sample over 1', { sample: 1.5 }, 'sample'],
    ['a split', { split: ['a'] }, 'split'],
    ['a selected line that is not a row id', { selected_lines: ['search'] }, 'selected_lines'],
    ['eleven selected lines', { selected_lines: Array.from({ length: 11 }, (_, i) => `["${i}"]`) }, 'selected_lines'],
    ['parents that are objects', { parents: [{ a: 1 }] }, 'parents'],
    // The deepest report is the constructor's, of 10 levels.
    ['parents deeper than any report', { parents: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'] }, 'parents'],
  ])('refuses %s', (_, more, property) => {
    expect(failures({ ...valid, ...more })).toContain(property);
  });
});

describe('isCalendarDate', () => {
  it('knows leap years', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
  });
});
