import { describe, expect, it } from 'vitest';
import type { MetricFilterRule } from '@stat/schemas';
import type { Plan } from '../plan-types.js';
import { Params, ReportQueryError } from './params.js';
import { eventConditionsSql, metricConditions } from './filters.js';
import { testPlan } from './testing.js';

describe('filters', () => {
  it('writes a pattern that ignores case as ilike with LIKE escapes, and a list as IN, every value a parameter', () => {
    const p = new Params();
    const sql = eventConditionsSql(
      [
        { key: 'url', op: 'like', value: '@*News_*' },
        { key: 'traffic_type', op: 'include', value: ['search', 'ad'] },
      ],
      p,
    );
    expect({ sql, params: p.values }).toEqual({
      sql: 'ilike(url, {p0:String}) AND traffic_type IN ({p1:String}, {p2:String})',
      params: { p0: '%News\\_%', p1: 'search', p2: 'ad' },
    });
  });

  it('compares a metric filter with the result column of its metric', () => {
    const p = new Params();
    expect({ sql: metricConditions(planWith({ key: 'bounces', op: '>', value: 50 }), p), params: p.values }).toEqual({ sql: ['m1 > {p0:Float64}'], params: { p0: 50 } });
  });

  it("refuses a metric filter whose operator is not one of the catalogue's, whoever built the rule (it is written into the SQL)", () => {
    const rule = { key: 'bounces', op: '> 0 OR 1 =', value: 1 } as unknown as MetricFilterRule;
    expect(() => metricConditions(planWith(rule), new Params())).toThrow(new ReportQueryError('metric_filters: op must be one of >, <, ='));
  });
});

function planWith(rule: MetricFilterRule): Plan {
  return testPlan({ metrics: ['visits', 'bounces'], metricFilters: [rule] });
}
