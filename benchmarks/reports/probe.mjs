// Variants of the engine's own SQL (taken from engine.mjs --json), timed one at a time on the same
// chDB directory: what a query's parts cost (the uniq of visitors, the second scan for totals),
// and the columns of the time rollups. For the reading of RESULTS.md; not a gate.
//
//   node benchmarks/reports/probe.mjs <DATA_DIR>/clickhouse <engine.json>   # CALLS=10
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createClickHouse } from '@stat/storage';

const [path, engineJson] = process.argv.slice(2);
const CALLS = Number(process.env.CALLS || 10);
const engine = JSON.parse(readFileSync(engineJson, 'utf8'));
const ch = createClickHouse({ kind: 'chdb', path });
const rows = async (query, query_params = {}) => (await ch.query({ query, query_params, format: 'JSONEachRow' })).json();
const byLabel = (prefix) => engine.results.find((r) => r.label.startsWith(prefix)).queries;

async function timed(label, sql, params) {
  await rows(sql, params);
  const times = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await rows(sql, params);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`| ${label} | ${times[Math.floor((times.length - 1) / 2)].toFixed(1)} | ${times[Math.min(times.length - 1, Math.ceil(0.95 * times.length) - 1)].toFixed(1)} |`);
}

console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${CALLS} calls each, one at a time\n`);
console.log('| query | median ms | p95 ms |');
console.log('| --- | ---: | ---: |');
const [series, totals] = byLabel('summary table');
await timed('summary series (rollup_day, 30 rows), as compiled', series.query, series.params);
await timed('… without uniqMerge(visitors)', series.query.replace('uniqMerge(visitors)', '0'), series.params);
await timed('summary totals, as compiled', totals.query, totals.params);
await timed('… without uniqMerge(visitors)', totals.query.replace('uniqMerge(visitors)', '0'), totals.params);
await timed('series and totals in one query (GROUP BY … WITH TOTALS)', series.query.replace('ORDER BY bucket_start', 'WITH TOTALS ORDER BY bucket_start'), series.params);
const [tsRows, tsTotals] = byLabel('traffic_sources');
await timed('traffic_sources rows, as compiled', tsRows.query, tsRows.params);
await timed('… uniq(visitor_hash) for uniq(visitor_id)', tsRows.query.replace('uniq(visitor_id)', 'uniq(visitor_hash)'), tsRows.params);
await timed('… without the visitors', tsRows.query.replace('uniq(visitor_id)', '0'), tsRows.params);
await timed('traffic_sources totals, as compiled', tsTotals.query, tsTotals.params);
const [puRows] = byLabel('page_urls table');
await timed('page_urls rows (like filter), as compiled', puRows.query, puRows.params);
await timed('… uniq(visitor_hash) for uniq(visitor_id)', puRows.query.replace('uniq(visitor_id)', 'uniq(visitor_hash)'), puRows.params);
await timed('… without uid (uniqIf(user_id))', puRows.query.replace(/uniqIf\(user_id, user_id != ''\)/, '0'), puRows.params);

const columns = await rows(`SELECT table, name, type, data_compressed_bytes AS bytes FROM system.columns
                            WHERE database = currentDatabase() AND table LIKE 'rollup_%' ORDER BY table, bytes DESC`);
console.log('\n| rollup | column | type | compressed MB |');
console.log('| --- | --- | --- | ---: |');
for (const c of columns) if (Number(c.bytes) > 100_000) console.log(`| ${c.table} | ${c.name} | ${c.type} | ${(Number(c.bytes) / 1e6).toFixed(2)} |`);
await ch.close();
