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
import { load, machine, moscowToday, printCallLatencies, startDemoService } from '../lib/harness.mjs';

const CALLS = Number(process.env.CALLS || 50);
const DAYS = process.env.DEMO_DAYS || '35';
const PROJECT = 7596044;
const say = (m) => console.log(`[reports] ${m}`);
const m = machine();
say(`machine: ${m.cores} cores, ${m.model}, ${m.ramMiB} MiB RAM, node ${m.node}; load ${load().join(' ')}`);

const dataDir = mkdtempSync(join(tmpdir(), 'stat-bench-reports-'));
const { service, apiPort } = await startDemoService(dataDir, { DEMO_DAYS: DAYS });
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
  await printCallLatencies(calls, CALLS);
  say(`load after: ${load().join(' ')}`);
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
