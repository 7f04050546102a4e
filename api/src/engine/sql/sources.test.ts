import { describe, expect, it } from 'vitest';
import { Params } from './params.js';
import { rowsOf, whereSql } from './sources.js';
import { testPlan } from './testing.js';

const plan = testPlan();

describe('sources', () => {
  it('reads an hour rollup by its buckets from the first Moscow midnight of the period to the one after its last day', () => {
    const p = new Params();
    const rows = rowsOf({ ...plan, source: 'rollup' }, 'hour', p);
    expect({ from: rows.from, table: rows.table, where: whereSql(rows), params: p.values }).toEqual({
      from: 'rollup_hour',
      table: 'rollup_hour',
      where: "project_id = {p0:UInt32} AND bucket >= toDateTime({p1:Date}, 'Europe/Moscow') AND bucket < toDateTime({p2:Date}, 'Europe/Moscow') + INTERVAL 1 DAY",
      params: { p0: 7, p1: '2026-11-02', p2: '2026-11-03' },
    });
  });

  it('reads a sample of the raw events, a rule on a visit dimension kept as a condition on them', () => {
    const p = new Params();
    const rows = rowsOf({ ...plan, sample: 0.1, filters: [{ key: 'traffic_type', op: '=', value: 'search' }] }, 'day', p);
    expect({ rows, params: p.values }).toEqual({
      rows: {
        from: 'events SAMPLE 0.100000',
        table: 'events',
        where: ['project_id = {p0:UInt32} AND event_date BETWEEN {p1:Date} AND {p2:Date}', 'traffic_type = {p3:String}'],
      },
      params: { p0: 7, p1: '2026-11-02', p2: '2026-11-03', p3: 'search' },
    });
  });
});
