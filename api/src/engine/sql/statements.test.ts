import { describe, expect, it } from 'vitest';
import { compileSeries, compileTable } from './statements.js';
import { testPlan } from './testing.js';

const plan = testPlan({ metrics: ['visits', 'page_views'], path: ['traffic_type'] });

describe('statements', () => {
  it('pages a level of events sorted by a metric, ties by value, with the count of its rows', () => {
    expect(compileTable(plan, { sortBy: 'visits', order: 'desc', limit: 10, offset: 0 })).toEqual({
      query: `SELECT traffic_type AS value, countIf(event_number = 1) AS m0, countIf(event_type = 'pageview') AS m1, count() OVER () AS total_rows
    FROM events WHERE project_id = {p0:UInt32} AND event_date BETWEEN {p1:Date} AND {p2:Date}
    GROUP BY value
    ORDER BY m0 DESC, value ASC
    LIMIT {p3:UInt32} OFFSET {p4:UInt32}`,
      params: { p0: 7, p1: '2026-11-02', p2: '2026-11-03', p3: 10, p4: 0 },
      table: 'events',
    });
  });

  it('draws the whole report day by day from the day rollup, a bucket starting at Moscow midnight', () => {
    expect(compileSeries({ ...plan, source: 'rollup', metrics: ['page_views'], path: [] }, 'day')).toEqual({
      query: `SELECT toUnixTimestamp(toDateTime(event_date, 'Europe/Moscow')) AS bucket_start, sum(page_views) AS m0
    FROM rollup_day WHERE project_id = {p0:UInt32} AND event_date BETWEEN {p1:Date} AND {p2:Date}
    GROUP BY bucket_start ORDER BY bucket_start`,
      params: { p0: 7, p1: '2026-11-02', p2: '2026-11-03' },
      table: 'rollup_day',
    });
  });
});
