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
import { load, machine, moscowToday, printCallLatencies, startDemoService } from '../lib/harness.mjs';

const CALLS = Number(process.env.CALLS || 20);
const DAYS = process.env.DEMO_DAYS || '7';
const VISITS = process.env.DEMO_VISITS_PER_DAY || '5000';
const PROJECT = 7596044;
const say = (m) => console.log(`[constructor] ${m}`);
const m = machine();
say(`machine: ${m.cores} cores, ${m.model}, ${m.ramMiB} MiB RAM, node ${m.node}; load ${load().join(' ')}`);
say(`demo: ${DAYS} days of ${VISITS} visits a day`);

const dataDir = mkdtempSync(join(tmpdir(), 'stat-bench-constructor-'));
const { service, apiPort } = await startDemoService(dataDir, { DEMO_DAYS: DAYS, DEMO_VISITS_PER_DAY: VISITS, DEMO_LIVE: 'false', REPORT_REQUESTS_PER_MINUTE: '100000' });
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
  await printCallLatencies(calls, CALLS);
  say(`load after: ${load().join(' ')}`);
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
