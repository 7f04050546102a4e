import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import type { ClickHouseClient } from '@stat/storage';
import { METRICS, type Dimension, type Metric } from '@stat/schemas';
import { METRIC_SOURCES } from './metric-sources.js';
import { PATH_ROLLUPS, type Plan, type Scope, type Source } from './plan-types.js';
import { ReportEngine } from './runner.js';
import { ReportQueryError } from './sql/params.js';
import { compileSeries, compileTable, compileTotals } from './sql/statements.js';
import { useChdb } from '../testing/chdb.js';

// Needs: chDB (in-process), the migrated tables (empty): every metric's SQL on every source runs.

let clickhouse: ClickHouseClient;
let engine: ReportEngine;

useChdb('metric-sources', () => [], (client) => {
  clickhouse = client;
  engine = new ReportEngine(clickhouse);
});

/** A plan of each source and scope, with a level of rows where the source has one. */
function planOf(source: Source, scope: Scope, m: Metric): Plan {
  const base = { projectId: 7, dateStart: '2026-11-02', dateEnd: '2026-11-15', source, scope, sample: 1, metrics: [m], parents: [], filters: [], metricFilters: [], skipEmpty: false };
  const level = (d: Dimension): Plan => ({ ...base, path: [d] });
  switch (source) {
    case 'rollup':
      return { ...base, path: [] };
    case 'paths':
      return { ...level(scope === 'hit' ? 'url_no_args' : 'traffic_type'), pathRollup: PATH_ROLLUPS.find((r) => r.scope === scope)! };
    case 'visits':
      return level('entry_page');
    case 'events':
      return level(scope === 'hit' ? 'url' : 'traffic_type');
  }
}

describe('which source answers which metric', () => {
  it('holds the table against the SQL: a metric has SQL on a source, and it runs, exactly where the table says so', async () => {
    const answered: Record<string, Record<string, Metric[]>> = {};
    for (const source of Object.keys(METRIC_SOURCES) as Source[]) {
      for (const scope of ['visit', 'hit'] as const) {
        const metrics: Metric[] = [];
        for (const m of METRICS) {
          const plan = planOf(source, scope, m);
          let queries;
          try {
            queries = [compileTotals(plan), plan.path.length === 0 ? compileSeries(plan, 'day') : compileTable(plan, { sortBy: m, order: 'desc', limit: 10, offset: 0 })];
          } catch (error) {
            if (error instanceof ReportQueryError) continue;
            throw error;
          }
          // A query ClickHouse refuses (a column the source lacks) fails the test here.
          for (const sql of queries) await engine.rows(sql);
          metrics.push(m);
        }
        (answered[source] ??= {})[scope] = metrics;
      }
    }
    expect(answered).toEqual(METRIC_SOURCES);
  });
});
