import { describe, expect, it } from 'vitest';
import { CONSTRUCTOR_DIMENSIONS, cleanTemplateBody, constructorDefinition, readyTemplatePeriod, READY_TEMPLATES } from './constructor.js';

describe('the constructor catalogue', () => {
  it('offers only dimensions the service collects, and none that needs another above it', () => {
    expect(CONSTRUCTOR_DIMENSIONS).toContain('traffic_type');
    expect(CONSTRUCTOR_DIMENSIONS).toContain('date');
    for (const missing of ['gender', 'age_tns', 'category_1', 'app_version', 'customer_params_value', 'project_id']) expect(CONSTRUCTOR_DIMENSIONS).not.toContain(missing);
  });

  it('makes a definition of at most 10 dimensions', () => {
    const eleven = CONSTRUCTOR_DIMENSIONS.slice(0, 11);
    expect(constructorDefinition(eleven).drilldown).toEqual(eleven.slice(0, 10));
  });

  it('every ready template names offered dimensions only', () => {
    for (const template of READY_TEMPLATES) for (const d of template.dimensions) expect(CONSTRUCTOR_DIMENSIONS).toContain(d);
  });
});

describe('ready template periods (§4: DAU 3 days, WAU 3 weeks, MAU 3 months)', () => {
  // 24 November 2026 is a Tuesday.
  const today = '2026-11-24';
  it.each([
    ['today', { dateStart: today, dateEnd: today, group: 'five_minute' }],
    ['day', { dateStart: '2026-11-22', dateEnd: today, group: 'day' }],
    // This week began on Monday the 23rd; two weeks before it, on the 9th.
    ['week', { dateStart: '2026-11-09', dateEnd: today, group: 'week' }],
    // November, October and September.
    ['month', { dateStart: '2026-09-01', dateEnd: today, group: 'month' }],
  ] as const)('%s', (period, expected) => {
    expect(readyTemplatePeriod({ period }, today)).toEqual(expected);
  });

  it('DAU, WAU and MAU are read by date ascending (their first column) and exactly (sample 1)', () => {
    const byDate = READY_TEMPLATES.filter((t) => ['dau', 'wau', 'mau'].includes(t.id)).map((t) => [t.id, t.dimensions, t.sort, t.sample]);
    expect(byDate).toEqual([
      ['dau', ['date'], { name: 'title', order: 'asc' }, 1],
      ['wau', ['date'], { name: 'title', order: 'asc' }, 1],
      ['mau', ['date'], { name: 'title', order: 'asc' }, 1],
    ]);
  });

  it('MAU in January reaches back into the year before', () => {
    expect(readyTemplatePeriod({ period: 'month' }, '2027-01-15')).toEqual({ dateStart: '2026-11-01', dateEnd: '2027-01-15', group: 'month' });
  });
});

describe('cleaning a stored template', () => {
  it('drops what is no longer offered, with the sort and metric filters on it', () => {
    const { body, dropped } = cleanTemplateBody({
      metrics: ['visits', 'rambler_id'],
      dimensions: ['gender', 'url'],
      viewType: 'table',
      sort: { name: 'rambler_id', order: 'desc' },
      metric_filters: [
        { key: 'rambler_id', op: '>', value: 1 },
        { key: 'visits', op: '>', value: 2 },
      ],
    });
    expect(dropped).toEqual(['gender', 'rambler_id']);
    expect(body).toEqual({ metrics: ['visits'], dimensions: ['url'], viewType: 'table', metric_filters: [{ key: 'visits', op: '>', value: 2 }] });
  });

  it('keeps a template that names only what is offered as it is', () => {
    const stored = { metrics: ['visits'], dimensions: ['url'], viewType: 'graph' as const };
    expect(cleanTemplateBody(stored)).toEqual({ body: stored, dropped: [] });
  });
});
