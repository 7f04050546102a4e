import { describe, expect, it } from 'vitest';
import { Params } from './params.js';
import { selectMetrics } from './metrics.js';
import { testPlan } from './testing.js';

describe('metrics', () => {
  it('scales the counts read from a sample back to the whole, and not a ratio of them', () => {
    const plan = testPlan({ sample: 0.1, metrics: ['visits', 'visitors', 'bounces'] });
    const p = new Params();
    expect({ sql: selectMetrics(plan, p), params: p.values }).toEqual({
      sql:
        'floor(countIf(event_number = 1) * {p0:Float64} + 0.5) AS m0, ' +
        'floor(uniqCombined(17)(visitor_hash) * {p1:Float64} + 0.5) AS m1, ' +
        'round(if(countIf(event_number = 1) = 0, 0, 100 * sum(bounce_delta) / countIf(event_number = 1)), 2) AS m2',
      params: { p0: 10, p1: 10 },
    });
  });
});
