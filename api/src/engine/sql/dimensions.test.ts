import { describe, expect, it } from 'vitest';
import { Params } from './params.js';
import { dimensionSql, pathConditions, rowDimension } from './dimensions.js';
import { testPlan } from './testing.js';

const plan = testPlan({ path: ['traffic_type', 'traffic_system'], parents: ['search'] });

describe('dimensions', () => {
  it('reads the rows of a level below its parent: the parent as a typed condition, the level by its column', () => {
    const p = new Params();
    expect({ conditions: pathConditions(plan, p), row: rowDimension(plan, p), params: p.values }).toEqual({
      conditions: ['traffic_type = {p0:String}'],
      row: { d: 'traffic_system', sql: 'traffic_system' },
      params: { p0: 'search' },
    });
  });

  it('reads the time on site of a visit as the lower bound of its range', () => {
    expect(dimensionSql('visit_time', 'visits')).toBe(
      'multiIf(duration_ms < 15000, 0, duration_ms < 30000, 15, duration_ms < 60000, 30, duration_ms < 180000, 60, duration_ms < 600000, 180, duration_ms < 1800000, 600, 1800)',
    );
  });
});
