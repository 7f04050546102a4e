// Constructor latency: how long the api takes to answer the report constructor's calls
// (POST /api/report/v1.0/eventbase/{projectId}/constructor) on the embedded service with the
// demo project, one call at a time, against the api's own floor in the same run (GET
// service/time: HTTP, routing and the access guard, no ClickHouse).
//
//   npm run build && node benchmarks/reports/constructor.mjs
//
// Environment (defaults): CALLS=20 per call, DEMO_DAYS=7, DEMO_VISITS_PER_DAY=5000.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, load, machine, moscowToday, quantile, startService } from '../lib/harness.mjs';

const CALLS = Number(process.env.CALLS || 20);
const DAYS = process.env.DEMO_DAYS || '7';
const VISITS = process.env.DEMO_VISITS_PER_DAY || '5000';
const PROJECT = 7596044;
const say = (m) => console.log(`[constructor] ${m}`);
const m = machine();
say(`machine: ${m.cores} cores, ${m.model}, ${m.ramMiB} MiB RAM, node ${m.node}; load ${load().join(' ')}`);
say(`demo: ${DAYS} days of ${VISITS} visits a day`);

const dataDir = mkdtempSync(join(tmpdir(), 'stat-bench-constructor-'));
const apiPort = await freePort();
const collectorPort = await freePort();
const service = await startService(
  'embedded',
  {
    DATA_DIR: dataDir,
    API_PORT: String(apiPort),
    COLLECTOR_PORT: String(collectorPort),
    DEMO_SEED: 'true',
    DEMO_SEED_WAIT: 'true',
    DEMO_DAYS: DAYS,
    DEMO_VISITS_PER_DAY: VISITS,
    DEMO_LIVE: 'false',
    REPORT_REQUESTS_PER_MINUTE: '100000',
  },
  join(dataDir, 'service.log'),
  900_000,
);
const api = `http://127.0.0.1:${apiPort}/top100/api/report/v1.0`;

const shift = (date, days) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const today = moscowToday();
// Whole days before today: no rows of the current day, which the demo keeps growing.
const week = { date_start: shift(today, -Number(DAYS)), date_end: shift(today, -1), group: 'day', metrics: ['page_views', 'visits', 'visitors'] };
const three = ['traffic_type', 'device_type', 'browser_family'];
const calls = [
  ['floor: GET service/time', () => fetch(`${api}/service/time`)],
  ['table: traffic_type (the sources rollup)', () => post({ ...week, dimensions: ['traffic_type'] })],
  ['table: 3 dimensions, top level, exact', () => post({ ...week, dimensions: three, sample: 1 })],
  ['table: 3 dimensions, top level, sample 0.1', () => post({ ...week, dimensions: three, sample: 0.1 })],
  ['table: 3 dimensions, third level, exact', () => post({ ...week, dimensions: three, sample: 1, parents: ['search', 'mobile'] })],
  ['table: url_no_args (rows of pages), exact', () => post({ ...week, dimensions: ['url_no_args'], sample: 1 })],
  ['graph: device_type, 10 lines by day, exact', () => post({ ...week, dimensions: ['device_type'], sample: 1, view_type: 'graph', metrics: ['visits'] })],
  ['graph: date, one line, exact', () => post({ ...week, dimensions: ['date'], sample: 1, view_type: 'graph', metrics: ['visitors'] })],
];

function post(body) {
  return fetch(`${api}/eventbase/${PROJECT}/constructor`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
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
