// Report latency: how long the api takes to answer the summary report calls the web app makes,
// on the embedded service with the demo project (35 days of generated traffic), one call at a
// time, against the api's own floor in the same run (GET service/time: HTTP, routing and the
// access guard, no ClickHouse).
//
//   npm run build && node benchmarks/reports/latency.mjs
//
// Environment (defaults): CALLS=50 per report, DEMO_DAYS=35.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, load, machine, moscowToday, quantile, startService } from '../lib/harness.mjs';

const CALLS = Number(process.env.CALLS || 50);
const DAYS = process.env.DEMO_DAYS || '35';
const PROJECT = 7596044;
const say = (m) => console.log(`[reports] ${m}`);
const m = machine();
say(`machine: ${m.cores} cores, ${m.model}, ${m.ramMiB} MiB RAM, node ${m.node}; load ${load().join(' ')}`);

const dataDir = mkdtempSync(join(tmpdir(), 'stat-bench-reports-'));
const apiPort = await freePort();
const collectorPort = await freePort();
const service = await startService(
  'embedded',
  // The whole demo before «ready» (by default it fills after): minutes on two cores.
  { DATA_DIR: dataDir, API_PORT: String(apiPort), COLLECTOR_PORT: String(collectorPort), DEMO_SEED: 'true', DEMO_SEED_WAIT: 'true', DEMO_DAYS: DAYS },
  join(dataDir, 'service.log'),
  900_000,
);
const api = `http://127.0.0.1:${apiPort}/top100/api/report/v1.0`;

const shift = (date, days) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const today = moscowToday();
const metrics = ['page_views', 'visits', 'visitors', 'bounces', 'avg_view_depth', 'avg_sessions_duration'];
const calls = [
  ['floor: GET service/time', () => fetch(`${api}/service/time`)],
  ['summary table, today by hour', () => post('table', { date_start: today, date_end: today, group: 'hour', metrics })],
  ['summary graph, today by five minutes', () => post('graph', { date_start: today, date_end: today, group: 'five_minute', metrics })],
  ['summary graph, 30 days by day', () => post('graph', { date_start: shift(today, -29), date_end: today, group: 'day', metrics })],
  ['summary table, 30 days by hour', () => post('table', { date_start: shift(today, -29), date_end: today, group: 'hour', metrics })],
  ['summary graph, 35 days by week', () => post('graph', { date_start: shift(today, -34), date_end: today, group: 'week', metrics })],
];

function post(kind, body) {
  return fetch(`${api}/report/${PROJECT}/summary/${kind}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

try {
  console.log('| call | median ms | p90 ms | max ms |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [label, call] of calls) {
    // Two warm-up calls: the first of each shape compiles its query plan.
    for (let i = 0; i < 2; i++) await (await call()).arrayBuffer();
    const times = [];
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      const response = await call();
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${label}: ${response.status}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`| ${label} | ${quantile(times, 0.5).toFixed(1)} | ${quantile(times, 0.9).toFixed(1)} | ${times[times.length - 1].toFixed(1)} |`);
  }
  say(`load after: ${load().join(' ')}`);
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
