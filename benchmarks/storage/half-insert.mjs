// What a kill -9 in the middle of an insert leaves in ClickHouse (chDB), and whether the
// aggregator's repair (aggregator/src/batch/rebuild-slices.ts: the slices the insert touched
// rebuilt in every view's table from the events) makes every table agree again.
//
// Each trial: a child process migrates a fresh chDB directory and inserts batches of page views
// into events (each under its own token, as the aggregator does); the parent kills it at a random
// moment, opens the directory, counts the page views in events and in each table the views
// write, repairs the last insert the child began, and counts again.
//
//   node benchmarks/storage/half-insert.mjs [trials=10] [rows per insert=3000]
//
// Needs: npm run build (storage/dist, aggregator/dist). Writes nothing but temporary directories.
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClickHouse, migrateClickHouse } from '@stat/storage';
import { SliceRebuilder } from '../../aggregator/dist/batch/rebuild-slices.js';

if (process.argv[2] === '--child') {
  const clickhouse = createClickHouse({ kind: 'chdb', path: process.argv[3] });
  await migrateClickHouse(clickhouse);
  process.send('ready');
  const rows = Number(process.argv[4]);
  for (let batch = 0; ; batch++) {
    const token = randomUUID();
    process.send(`token:${token}`);
    const values = Array.from({ length: rows }, (_, i) => ({
      project_id: 1, event_type: 'pageview', ts: '2026-12-07 10:00:00.000', session_start: '2026-12-07 09:59:00.000', event_date: '2026-12-07',
      visitor_id: `v${i % 100}`, visitor_hash: i % 100, session_id: i % 100, url: `https://a.ru/${i % 20}`,
      bus_topic: 't', bus_partition: 0, bus_offset: batch * rows + i, insert_token: token,
    }));
    await clickhouse.insert({ table: 'events', values, format: 'JSONEachRow' });
  }
}

const COUNTS = {
  events: 'SELECT count() AS n FROM events',
  ingest_offsets: 'SELECT max(offset) + 1 AS n FROM ingest_offsets',
  visits: 'SELECT sum(page_views) AS n FROM visits',
  rollup_5m: 'SELECT sum(page_views) AS n FROM rollup_5m',
  rollup_hour: 'SELECT sum(page_views) AS n FROM rollup_hour',
  rollup_day: 'SELECT sum(page_views) AS n FROM rollup_day',
  rollup_pages_day: 'SELECT sum(page_views) AS n FROM rollup_pages_day',
  rollup_sources_day: 'SELECT sum(page_views) AS n FROM rollup_sources_day',
  rollup_geo_day: 'SELECT sum(page_views) AS n FROM rollup_geo_day',
  rollup_pages_week: 'SELECT sum(page_views) AS n FROM rollup_pages_week',
  rollup_sources_week: 'SELECT sum(page_views) AS n FROM rollup_sources_week',
  rollup_geo_week: 'SELECT sum(page_views) AS n FROM rollup_geo_week',
};

async function counts(clickhouse) {
  const found = {};
  for (const [name, query] of Object.entries(COUNTS)) {
    const [row] = await (await clickhouse.query({ query, format: 'JSONEachRow' })).json();
    found[name] = Number(row?.n ?? 0);
  }
  return found;
}

const agree = (c) => Object.values(c).every((n) => n === c.events);
const trials = Number(process.argv[2] ?? 10);
const rows = process.argv[3] ?? '3000';
let half = 0;
let repaired = 0;
let disagreeing = 0;
for (let trial = 0; trial < trials; trial++) {
  const dir = mkdtempSync(join(tmpdir(), 'stat-half-insert-'));
  const child = fork(new URL(import.meta.url).pathname, ['--child', dir, rows]);
  let last = null;
  await new Promise((resolve) => child.on('message', (m) => m === 'ready' && resolve()));
  child.on('message', (m) => { if (m.startsWith('token:')) last = m.slice(6); });
  await new Promise((resolve) => setTimeout(resolve, 500 + Math.random() * 4000));
  child.kill('SIGKILL');
  await new Promise((resolve) => child.on('exit', resolve));
  const clickhouse = createClickHouse({ kind: 'chdb', path: dir });
  const before = await counts(clickhouse);
  await new SliceRebuilder(clickhouse).rebuild([last]);
  const after = await counts(clickhouse);
  await clickhouse.close();
  rmSync(dir, { recursive: true, force: true });
  if (!agree(before)) half += 1;
  if (!agree(before) && agree(after)) repaired += 1;
  if (!agree(after)) disagreeing += 1;
  console.log(JSON.stringify({ trial, halfDone: !agree(before), agreeAfterRepair: agree(after), before, after }));
}
console.log(`${trials} kills: ${half} left an insert half done, ${repaired} of them repaired; ${disagreeing} disagree after the repair`);
