// What day-grain rollups shaped like a report's drill-down path would cost and give: for each
// proposal, a scratch table filled from the events (INSERT … SELECT, as a materialized view would
// fill it), merged (OPTIMIZE … FINAL), its compressed bytes per event, and the time of the
// report's query on it against the same query on the raw events (exact, sample 1), one at a time.
// The migrations are not touched; the scratch tables are dropped at the end.
//
//   node benchmarks/storage/rollup-lab.mjs <DATA_DIR>/clickhouse [--json out.json]   # CALLS=10 PROJECT=7596044
//
// chDB allows one process per data directory: run it when nothing else uses the directory.
import { writeFileSync } from 'node:fs';
import { createClickHouse } from '@stat/storage';

const path = process.argv[2];
if (!path) {
  console.error('usage: rollup-lab.mjs <chdb data directory> [--json file]');
  process.exit(2);
}
const jsonAt = process.argv.indexOf('--json');
const jsonFile = jsonAt > 0 ? process.argv[jsonAt + 1] : null;
const CALLS = Number(process.env.CALLS || 10);
const PROJECT = Number(process.env.PROJECT || 7596044);

const ch = createClickHouse({ kind: 'chdb', path });
const rows = async (query, query_params = {}) => (await ch.query({ query, query_params, format: 'JSONEachRow' })).json();
const run = (query) => ch.command({ query, clickhouse_settings: { mutations_sync: '2' } });
const events = Number((await rows('SELECT count() AS n FROM events'))[0].n);
const [{ first, last }] = await rows('SELECT min(event_date) AS first, max(event_date) AS last FROM events WHERE project_id = {p:UInt32}', { p: PROJECT });

// Visit-scope metrics (a visit counted where it starts), as api/src/engine/sql/metrics.ts computes them on events.
const visitMetrics = `countIf(event_type = 'pageview') AS page_views, countIf(event_number = 1) AS visit_starts,
  sum(toInt64(bounce_delta)) AS bounces, sum(toUInt64(duration_delta)) AS duration_ms, uniqState(visitor_id) AS visitors`;
const visitColumns = `page_views SimpleAggregateFunction(sum, UInt64), visit_starts SimpleAggregateFunction(sum, UInt64),
  bounces SimpleAggregateFunction(sum, Int64), duration_ms SimpleAggregateFunction(sum, UInt64), visitors AggregateFunction(uniq, String)`;
const visitRead = `sum(visit_starts) AS visits, uniqMerge(visitors) AS visitors, sum(page_views) AS pv,
  round(if(visits = 0, 0, 100 * sum(bounces) / visits), 2) AS b, round(if(visits = 0, 0, sum(page_views) / visits), 2) AS d,
  round(if(visits = 0, 0, 0.001 * sum(duration_ms) / visits), 1) AS t`;
const visitRaw = `countIf(event_number = 1) AS visits, uniq(visitor_id) AS visitors, countIf(event_type = 'pageview') AS pv,
  round(if(visits = 0, 0, 100 * sum(bounce_delta) / visits), 2) AS b, round(if(visits = 0, 0, pv / visits), 2) AS d,
  round(if(visits = 0, 0, 0.001 * sum(duration_delta) / visits), 1) AS t`;
// Hit-scope metrics (page reports: a visit in every row it touched).
const hitMetrics = `countIf(event_type = 'pageview') AS page_views, uniqState(session_id) AS visits, uniqState(visitor_id) AS visitors,
  sumIf(engaged_ms, event_type = 'engagement') AS engaged_ms, uniqIfState(user_id, user_id != '') AS uid`;
const hitColumns = `page_views SimpleAggregateFunction(sum, UInt64), visits AggregateFunction(uniq, UInt64), visitors AggregateFunction(uniq, String),
  engaged_ms SimpleAggregateFunction(sum, UInt64), uid AggregateFunction(uniqIf, String, UInt8)`;
const hitRead = `sum(page_views) AS pv, uniqMerge(visits) AS v, uniqMerge(visitors) AS u, round(if(pv = 0, 0, 0.001 * sum(engaged_ms) / pv), 1) AS e, uniqIfMerge(uid) AS id`;
const hitRaw = `countIf(event_type = 'pageview') AS pv, uniq(session_id) AS v, uniq(visitor_id) AS u,
  round(if(pv = 0, 0, 0.001 * sumIf(engaged_ms, event_type = 'engagement') / pv), 1) AS e, uniqIf(user_id, user_id != '') AS id`;

const period = `project_id = ${PROJECT} AND event_date BETWEEN '${first}' AND '${last}'`;
const proposals = [
  {
    name: 'lab_day_sources',
    report: 'traffic_sources, search expanded',
    keys: 'traffic_type LowCardinality(String), traffic_system LowCardinality(String), search_phrase String',
    select: 'traffic_type, traffic_system, search_phrase',
    metrics: [visitMetrics, visitColumns],
    rollupQuery: `SELECT traffic_system AS value, ${visitRead} FROM lab_day_sources WHERE ${period} AND traffic_type = 'search' GROUP BY value ORDER BY visits DESC LIMIT 10`,
    rawQuery: `SELECT traffic_system AS value, ${visitRaw} FROM events WHERE ${period} AND traffic_type = 'search' GROUP BY value ORDER BY visits DESC LIMIT 10`,
  },
  {
    name: 'lab_day_geo',
    report: 'geo, top level',
    keys: 'geo_country UInt32, geo_area UInt32, geo_city UInt32',
    select: 'geo_country, geo_area, geo_city',
    metrics: [visitMetrics, visitColumns],
    rollupQuery: `SELECT geo_country AS value, ${visitRead} FROM lab_day_geo WHERE ${period} GROUP BY value ORDER BY visits DESC LIMIT 10`,
    rawQuery: `SELECT geo_country AS value, ${visitRaw} FROM events WHERE ${period} GROUP BY value ORDER BY visits DESC LIMIT 10`,
  },
  {
    name: 'lab_day_pages',
    report: 'page_urls, url_no_args like *obshchestvo*',
    keys: 'url_no_args String, url String',
    select: 'url_no_args, url',
    metrics: [hitMetrics, hitColumns],
    rollupQuery: `SELECT url_no_args AS value, ${hitRead} FROM lab_day_pages WHERE ${period} AND like(url_no_args, '%obshchestvo%') GROUP BY value ORDER BY pv DESC LIMIT 10`,
    rawQuery: `SELECT url_no_args AS value, ${hitRaw} FROM events WHERE ${period} AND like(url_no_args, '%obshchestvo%') GROUP BY value ORDER BY pv DESC LIMIT 10`,
  },
];

const time = async (query) => {
  const started = performance.now();
  await rows(query);
  return performance.now() - started;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(0.95 * xs.length) - 1)];

console.log(`events: ${events.toLocaleString('en-US')}; project ${PROJECT} from ${first} to ${last}; ${CALLS} calls each after one warm-up, load ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
console.log('| proposal | day rollup key | rows | compressed MB | bytes / event | query | rollup median / p95 ms | raw events median / p95 ms | same numbers |');
console.log('| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | --- |');
const results = [];
for (const p of proposals) {
  await run(`DROP TABLE IF EXISTS ${p.name}`);
  await run(`CREATE TABLE ${p.name} (project_id UInt32, event_date Date, ${p.keys}, ${p.metrics[1]})
             ENGINE = AggregatingMergeTree PARTITION BY toYYYYMM(event_date) ORDER BY (project_id, event_date, ${p.select})`);
  const started = Date.now();
  await run(`INSERT INTO ${p.name} SELECT project_id, event_date, ${p.select}, ${p.metrics[0]} FROM events GROUP BY project_id, event_date, ${p.select}`);
  await run(`OPTIMIZE TABLE ${p.name} FINAL`);
  const fillSeconds = (Date.now() - started) / 1000;
  const [part] = await rows(`SELECT sum(rows) AS rows, sum(data_compressed_bytes) AS compressed FROM system.parts WHERE active AND table = '${p.name}' AND database = currentDatabase()`);
  const same = JSON.stringify(await rows(p.rollupQuery)) === JSON.stringify(await rows(p.rawQuery));
  const rollupTimes = [];
  const rawTimes = [];
  for (let i = 0; i < CALLS; i++) {
    rollupTimes.push(await time(p.rollupQuery));
    rawTimes.push(await time(p.rawQuery));
  }
  const r = { ...p, rows: Number(part.rows), compressed: Number(part.compressed), fillSeconds, same, rollup: { median: median(rollupTimes), p95: p95(rollupTimes) }, raw: { median: median(rawTimes), p95: p95(rawTimes) } };
  results.push(r);
  console.log(
    `| ${p.name} | (project_id, event_date, ${p.select}) | ${r.rows.toLocaleString('en-US')} | ${(r.compressed / 1e6).toFixed(1)} | ${(r.compressed / events).toFixed(2)} | ${p.report} | ${r.rollup.median.toFixed(1)} / ${r.rollup.p95.toFixed(1)} | ${r.raw.median.toFixed(1)} / ${r.raw.p95.toFixed(1)} | ${same ? 'yes' : 'no'} |`,
  );
  await run(`DROP TABLE ${p.name}`);
}
if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ events, results }, null, 2));
await ch.close();
