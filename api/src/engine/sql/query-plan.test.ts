import { describe, expect, it } from 'vitest';
import { PATH_ROLLUPS, type Plan } from '../plan-types.js';
import { totalsOfSite, totalsRollUp } from './query-plan.js';
import { compileTable, compileTotals } from './statements.js';
import { testPlan } from './testing.js';

const plan = testPlan({ path: ['traffic_type'] });

describe('query plan', () => {
  it('reads the totals of the unfiltered top level of pages from the site’s days', () => {
    const pages: Plan = { ...plan, source: 'paths', pathRollup: PATH_ROLLUPS[2]!, scope: 'hit', metrics: ['page_views'], path: ['url_no_args'] };
    expect({ site: totalsOfSite(pages), rollUp: totalsRollUp(pages), totals: compileTotals(pages) }).toEqual({
      site: true,
      rollUp: false,
      totals: {
        query: 'SELECT sum(page_views) AS m0 FROM rollup_day WHERE project_id = {p0:UInt32} AND event_date BETWEEN {p1:Date} AND {p2:Date}',
        params: { p0: 7, p1: '2026-11-02', p2: '2026-11-03' },
        table: 'rollup_day',
      },
    });
  });

  it('gives the totals of a level of events with its page, as the roll-up row kept first', () => {
    expect({ rollUp: totalsRollUp(plan, { sortBy: 'visits', limit: 10 }), sql: compileTable(plan, { sortBy: 'visits', order: 'desc', limit: 10, offset: 0, totals: true }) }).toEqual({
      rollUp: true,
      sql: {
        query: `SELECT traffic_type AS value, countIf(event_number = 1) AS m0, grouping(value) AS is_totals,
      sum(1 - is_totals) OVER () AS total_rows, row_number() OVER (PARTITION BY is_totals ORDER BY m0 DESC, value ASC) AS row_at
    FROM events WHERE project_id = {p0:UInt32} AND event_date BETWEEN {p1:Date} AND {p2:Date}
    GROUP BY ROLLUP(value)
    QUALIFY is_totals = 1 OR (row_at > {p3:UInt32} AND row_at <= {p3:UInt32} + {p4:UInt32})
    ORDER BY is_totals DESC, m0 DESC, value ASC`,
        params: { p0: 7, p1: '2026-11-02', p2: '2026-11-03', p3: 0, p4: 10 },
        table: 'events',
      },
    });
  });
});
