// The visitors state of the day rollup: uniq (now), uniqHLL12, uniqCombined(12|17) — bytes,
// the time of the summary's 30-day merge (series by day and the period's total), and the total's
// error against uniqExact; and uniq(visitor_hash) against uniq(visitor_id) on the raw events.
//
//   node benchmarks/storage/visitors-lab.mjs <DATA_DIR>/clickhouse   # CALLS=10 PROJECT=7596044
import { loadavg } from 'node:os';
import { createClickHouse } from '@stat/storage';

const path = process.argv[2];
const CALLS = Number(process.env.CALLS || 10);
const PROJECT = Number(process.env.PROJECT || 7596044);
const ch = createClickHouse({ kind: 'chdb', path });
const rows = async (query) => (await ch.query({ query, format: 'JSONEachRow' })).json();
const run = (query) => ch.command({ query });
const events = Number((await rows('SELECT count() AS n FROM events'))[0].n);
const [{ exact }] = await rows(`SELECT uniqExact(visitor_id) AS exact FROM events WHERE project_id = ${PROJECT}`);
const timed = async (query) => {
  await rows(query);
  const t = [];
  for (let i = 0; i < CALLS; i++) {
    const s = performance.now();
    await rows(query);
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  return `${t[Math.floor((t.length - 1) / 2)].toFixed(1)} / ${t[Math.min(t.length - 1, Math.ceil(0.95 * t.length) - 1)].toFixed(1)}`;
};
console.log(`events ${events.toLocaleString('en-US')}, visitors (uniqExact) ${Number(exact).toLocaleString('en-US')}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${CALLS} calls each\n`);
console.log('| state | day-rollup column MB (30 rows) | series by day median / p95 ms | period total median / p95 ms | total | error vs exact |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const [fn, type] of [['uniq', 'uniq, String'], ['uniqHLL12', 'uniqHLL12, String'], ['uniqCombined(12)', 'uniqCombined(12), String'], ['uniqCombined', 'uniqCombined, String']]) {
  await run('DROP TABLE IF EXISTS lab_visitors');
  await run(`CREATE TABLE lab_visitors (project_id UInt32, event_date Date, v AggregateFunction(${type}))
             ENGINE = AggregatingMergeTree ORDER BY (project_id, event_date) SETTINGS min_bytes_for_wide_part = 0`);
  await run(`INSERT INTO lab_visitors SELECT project_id, event_date, ${fn.replace(/^(\w+)/, '$1State')}(visitor_id) FROM events GROUP BY project_id, event_date`);
  await run('OPTIMIZE TABLE lab_visitors FINAL');
  const [{ bytes }] = await rows(`SELECT sum(data_compressed_bytes) AS bytes FROM system.parts WHERE active AND table = 'lab_visitors' AND database = currentDatabase()`);
  const merge = fn.replace(/^(\w+)/, '$1Merge');
  const series = await timed(`SELECT event_date, ${merge}(v) FROM lab_visitors WHERE project_id = ${PROJECT} GROUP BY event_date ORDER BY event_date`);
  const total = await timed(`SELECT ${merge}(v) FROM lab_visitors WHERE project_id = ${PROJECT}`);
  const [{ n }] = await rows(`SELECT ${merge}(v) AS n FROM lab_visitors WHERE project_id = ${PROJECT}`);
  console.log(`| ${fn} | ${(Number(bytes) / 1e6).toFixed(2)} | ${series} | ${total} | ${Number(n).toLocaleString('en-US')} | ${((100 * (Number(n) - Number(exact))) / Number(exact)).toFixed(2)} % |`);
}
await run('DROP TABLE IF EXISTS lab_visitors');
const [{ a, b }] = await rows(`SELECT uniq(visitor_id) AS a, uniq(visitor_hash) AS b FROM events WHERE project_id = ${PROJECT}`);
console.log(`\nraw events, the month: uniq(visitor_id) ${Number(a).toLocaleString('en-US')} (${((100 * (a - exact)) / exact).toFixed(2)} %), uniq(visitor_hash) ${Number(b).toLocaleString('en-US')} (${((100 * (b - exact)) / exact).toFixed(2)} %)`);
await ch.close();
