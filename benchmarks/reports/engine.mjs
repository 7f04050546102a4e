// Report latency at scale, api against bare ClickHouse, in one process on one chDB directory.
//
// Starts the embedded service (all roles, no demo seed, idle collector) in this process with
// server/dist/main.js on an existing DATA_DIR (e.g. one filled by `generate.js --bulk`), and for
// each report call times, alternately, the api over HTTP and the bare queries of the same call:
// the SQL the engine runs, built with the built api's own planner and compiler
// (api/dist/engine/plan.js and sql/*.js) with the same parameters and ClickHouse settings, sent on
// the service's own ClickHouse client, as the service sends them (Promise.all where it does).
// Then EXPLAIN ESTIMATE of each bare query: the rows it reads.
//
//   npm run build && DATA_DIR=<dir> node benchmarks/reports/engine.mjs [--json out.json]
//
// Environment (defaults): DATA_DIR (required: holds clickhouse/), CALLS=20 timed calls of each
// side per report call after WARMUP=2, PROJECT=7596044, ONLY=<comma-separated labels' prefixes>.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiClient, freePort, load, machine, moscowToday, readEstimator, ROOT, timed as time, timeStats as stats } from '../lib/harness.mjs';

const DATA_DIR = process.env.DATA_DIR;
if (!DATA_DIR) {
  console.error('DATA_DIR=<directory with clickhouse/> node benchmarks/reports/engine.mjs');
  process.exit(2);
}
const CALLS = Number(process.env.CALLS || 20);
const WARMUP = Number(process.env.WARMUP || 2);
const PROJECT = Number(process.env.PROJECT || 7596044);
const ONLY = (process.env.ONLY || '').split(',').filter(Boolean);
const jsonAt = process.argv.indexOf('--json');
const jsonFile = jsonAt > 0 ? process.argv[jsonAt + 1] : null;
const say = (m) => console.log(`[engine] ${m}`);

const { readConfig } = await import(`${ROOT}server/dist/config.js`);
const { main } = await import(`${ROOT}server/dist/main.js`);
const { planReport } = await import(`${ROOT}api/dist/engine/plan.js`);
const { compileSeries, compileTable, compileTotals } = await import(`${ROOT}api/dist/engine/sql/statements.js`);
const { readsBySize, totalsRollUp } = await import(`${ROOT}api/dist/engine/sql/query-plan.js`);
// Builds before the totals' roll-up (2026-11-24, fourth run) have no totalsRollUp: totals read apart.
// Since keys first (2026-11-25) it also takes the page asked (a page found keys first reads them apart).
const rollsUp = (plan, q) => (totalsRollUp ? totalsRollUp(plan, q) : false);
const { reportDefinition } = await import('@stat/schemas');
// Since 2026-11-28 (seventh) a filtered level of pages in a large period is found keys first: the
// service tells its plan the period's size (report.service.ts `sized`); the bare side does the same.
const { LARGE_PERIOD_EVENTS } = await import(`${ROOT}api/dist/engine/sampling.js`);

const m = machine();
say(`machine: ${m.cores} cores, ${m.model}, ${m.ramMiB} MiB RAM, node ${m.node}; load ${load().join(' ')}`);

const apiPort = await freePort();
const config = readConfig({
  ROLES: 'collector,aggregator,api',
  DATA_DIR,
  API_PORT: String(apiPort),
  COLLECTOR_PORT: String(await freePort()),
  HEALTH_PORT: String(await freePort()),
  DEMO_SEED: 'false',
  REPORT_REQUESTS_PER_MINUTE: '100000000',
  PATH: process.env.PATH,
});
const service = await main(config);
const ch = service.clickhouse;
const settings = {
  max_memory_usage: String(config.REPORT_MAX_MEMORY_BYTES ?? 0),
  max_rows_to_read: String(config.REPORT_MAX_ROWS_TO_READ ?? 0),
};
const rowsOf = async (query, params = {}, extra = {}) =>
  (await ch.query({ query, query_params: params, format: 'JSONEachRow', clickhouse_settings: { ...settings, ...extra } })).json();

const base = `http://127.0.0.1:${apiPort}/top100`;
const api = `${base}/api/report/v1.0`;
const today = moscowToday();
const shift = (date, days) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const month = { date_start: shift(today, -29), date_end: today };

const [{ n: events, first, last }] = await rowsOf(
  'SELECT count() AS n, min(event_date) AS first, max(event_date) AS last FROM events WHERE project_id = {p:UInt32}',
  { p: PROJECT },
);
say(`project ${PROJECT}: ${Number(events).toLocaleString('en-US')} events from ${first} to ${last}; period ${month.date_start} .. ${month.date_end}`);
// A rollup's rows are merged only when its parts are: a freshly written set (generate.js, replicate.mjs)
// holds several rows per key until background merges or `measure.mjs` (OPTIMIZE … FINAL) run, and
// its reports read and merge those too. The same data measured twice can differ by 2× (2026-11-25).
const parts = await rowsOf(
  "SELECT table, count() AS parts, sum(rows) AS rows FROM system.parts WHERE active AND database = currentDatabase() AND table LIKE 'rollup_%' GROUP BY table ORDER BY table",
);
say(`rollup parts (rows): ${parts.map((t) => `${t.table} ${t.parts} (${Number(t.rows).toLocaleString('en-US')})`).join(', ')}`);

// A logged-in user for the CSV (POST …/csv is for logged-in users): register, then log in.
const user = apiClient(base);
const { cookieHeader } = user;
const email = `bench-${Date.now()}@example.com`;
const registered = await user.call('POST', '/api/v1.0/auth/register', { email, password: 'correct horse battery' });
if (registered.status !== 200) say(`register answered ${registered.status}: ${JSON.stringify(registered.body)}`);
const loggedIn = await user.call('POST', '/api/v1.0/auth/login', { email, password: 'correct horse battery' });
if (loggedIn.status !== 200) say(`login answered ${loggedIn.status}: ${JSON.stringify(loggedIn.body)}`);

const summaryMetrics = ['page_views', 'visits', 'visitors', 'bounces', 'avg_view_depth', 'avg_sessions_duration'];

/** The SQL of one api call, built as report.service.ts builds it: groups of queries run together, groups in turn. */
function bareOf(report, kind, body) {
  const definition = reportDefinition(report);
  if (kind === 'csv') {
    const planned = planReport(definition, PROJECT, { ...body, sample: 1, limit: undefined, offset: undefined }, today, 'table');
    const { plan, sort } = planned;
    const rows = compileTable(plan, { sortBy: sort.name === 'date' ? 'title' : sort.name, order: sort.order, offset: 0, totals: rollsUp(plan) });
    return rollsUp(plan) ? [[rows]] : [[compileTotals(plan)], [rows]];
  }
  const planned = planReport(definition, PROJECT, body, today, kind);
  const { sort } = planned;
  const large = readsBySize !== undefined && Number(events) >= LARGE_PERIOD_EVENTS && readsBySize(planned.plan);
  const plan = large ? { ...planned.plan, largePeriod: true } : planned.plan;
  if (plan.path.length === 0) return [[compileSeries(plan, planned.group), compileTotals(plan)]];
  if (kind === 'graph') throw new Error('graphs of dimensions are not measured here');
  const q = { sortBy: sort.name === 'date' ? 'title' : sort.name, order: sort.order, limit: planned.limit, offset: planned.offset };
  const rows = compileTable(plan, { ...q, totals: rollsUp(plan, q) });
  return rollsUp(plan, q) ? [[rows]] : [[rows, compileTotals(plan)]];
}

const calls = [
  ['summary table, 30 days by day', 'summary', 'table', { ...month, group: 'day', metrics: summaryMetrics }],
  ['summary graph, 30 days by day', 'summary', 'graph', { ...month, group: 'day', metrics: summaryMetrics }],
  ['traffic_sources table, search expanded', 'traffic_sources', 'table', { ...month, group: 'day', parents: ['search'] }],
  ['page_urls table, first page', 'page_urls', 'table', { ...month, group: 'day' }],
  ['page_urls table, url_no_args like *obshchestvo*', 'page_urls', 'table', { ...month, group: 'day', dimension_filters: [{ key: 'url_no_args', op: 'like', value: '*obshchestvo*' }] }],
  ['geo table, sample 0.1', 'geo', 'table', { ...month, group: 'day', sample: 0.1 }],
  ['page_urls CSV', 'page_urls', 'csv', { ...month, group: 'day' }],
].filter(([label]) => ONLY.length === 0 || ONLY.some((o) => label.startsWith(o)));

async function callApi(report, kind, body) {
  const url = `${api}/report/${PROJECT}/${report}/${kind}`;
  const headers = { 'content-type': 'application/json', ...(kind === 'csv' ? { 'x-requested-with': 'XMLHttpRequest', ...cookieHeader() } : {}) };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const body_ = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${report}/${kind}: ${response.status} ${body_.toString().slice(0, 500)}`);
  return body_.byteLength;
}

async function callBare(groups, tag) {
  let rows = 0;
  let n = 0;
  for (const group of groups) {
    const answers = await Promise.all(group.map((sql) => rowsOf(tag ? `/* ${tag}:${n++} */ ${sql.query}` : sql.query, sql.params)));
    rows += answers.reduce((s, a) => s + a.length, 0);
  }
  return rows;
}

const f1 = (x) => x.toFixed(1);

const results = [];
try {
  // The api's floor: HTTP, routing, access guard, no ClickHouse.
  const floor = [];
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const t = await time(async () => (await fetch(`${api}/service/time`)).arrayBuffer());
    if (i >= WARMUP) floor.push(t);
  }
  const floorStats = stats(floor);
  say(`floor GET service/time: median ${f1(floorStats.median)} ms, p95 ${f1(floorStats.p95)} ms`);

  for (const [label, report, kind, body] of calls) {
    const groups = bareOf(report, kind, body);
    const loadBefore = load();
    let bytes = 0;
    let rows = 0;
    for (let i = 0; i < WARMUP; i++) {
      bytes = await callApi(report, kind, body);
      rows = await callBare(groups);
    }
    const apiTimes = [];
    const bareTimes = [];
    for (let i = 0; i < CALLS; i++) {
      apiTimes.push(await time(() => callApi(report, kind, body)));
      bareTimes.push(await time(() => callBare(groups)));
    }
    const a = stats(apiTimes);
    const b = stats(bareTimes);
    const result = { label, report, kind, body, api: a, bare: b, ratio: a.median / b.median, loadBefore, loadAfter: load(), apiBytes: bytes, bareRows: rows, queries: groups.flat().map((s) => ({ query: s.query, params: s.params })) };
    results.push(result);
    say(`${label}: api median ${f1(a.median)} p95 ${f1(a.p95)} | bare median ${f1(b.median)} p95 ${f1(b.p95)} | ratio ${result.ratio.toFixed(2)} | load ${result.loadAfter.join(' ')}`);
  }

  // What each bare query reads (chDB keeps no system.query_log, and its summary counts the answer's rows).
  const reads = await readEstimator(rowsOf);
  for (const r of results) {
    r.read = [];
    for (const sql of r.queries) r.read.push(await reads(sql.query, sql.params));
  }

  console.log(`\n${Number(events).toLocaleString('en-US')} events of project ${PROJECT}, ${CALLS} calls of each side after ${WARMUP} warm-ups, alternating; floor (GET service/time) median ${f1(floorStats.median)} ms\n`);
  console.log('| call | api median ms | api p95 ms | bare median ms | bare p95 ms | api / bare (median) | load 1-min before → after |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const r of results) {
    console.log(`| ${r.label} | ${f1(r.api.median)} | ${f1(r.api.p95)} | ${f1(r.bare.median)} | ${f1(r.bare.p95)} | ${r.ratio.toFixed(2)} | ${r.loadBefore[0]} → ${r.loadAfter[0]} |`);
  }
  console.log('\nwhat the bare queries read (EXPLAIN ESTIMATE: granules left by the key and the sample; MB: those rows\' share of the compressed columns the query names; query 0 is the rows or the series, 1 the totals; for the CSV 0 is the totals, 1 the rows):\n');
  console.log('| call | query | table | rows read | compressed MB read (est.) |');
  console.log('| --- | ---: | --- | ---: | ---: |');
  for (const r of results) {
    for (const [i, q] of r.read.entries()) {
      for (const t of q) console.log(`| ${r.label} | ${i} | ${t.table} | ${t.rows.toLocaleString('en-US')} | ${(t.bytes / 1e6).toFixed(1)} |`);
    }
  }
  say(`load after: ${load().join(' ')}`);
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ machine: m, events: Number(events), project: PROJECT, calls: CALLS, floor: floorStats, results }, null, 2));
} finally {
  await service.stop();
}
