// A goal and a 5-step funnel over synthetic traffic: the bare ClickHouse queries the api runs
// (built with api/dist's goal and funnel compilers), timed on chDB in this process. The traffic
// is made by ClickHouse itself (INSERT … SELECT FROM numbers): EVENTS events of one project over
// DAYS days, VISITORS visitors, page views of 20 pages (/p0 … /p19) and one event in 20 a file
// download (an outbound hit named download).
//
//   npm run build && node benchmarks/reports/funnel.mjs
//
// Environment (defaults): EVENTS=1000000, DAYS=30, VISITORS=100000, RUNS=5 timed runs after one
// warm-up. Not the api over HTTP: that part is the same as any report call's (see engine.mjs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, machine, quantile, ROOT } from '../lib/harness.mjs';

const EVENTS = Number(process.env.EVENTS || 1_000_000);
const DAYS = Number(process.env.DAYS || 30);
const VISITORS = Number(process.env.VISITORS || 100_000);
const RUNS = Number(process.env.RUNS || 5);
const PROJECT = 4242;
const say = (m) => console.log(`[funnel] ${m}`);

const { createClickHouse, migrateClickHouse } = await import('@stat/storage');
const { compileGoalCounts } = await import(`${ROOT}api/dist/goals/goal-sql.js`);
const { compileFunnel } = await import(`${ROOT}api/dist/funnels/funnel-sql.js`);

const m = machine();
say(`machine: ${m.cores} cores, ${m.model}, ${m.ramMiB} MiB RAM, node ${m.node}; load ${load().join(' ')}`);
const dir = mkdtempSync(join(tmpdir(), 'stat-bench-funnel-'));
const clickhouse = createClickHouse({ kind: 'chdb', path: join(dir, 'clickhouse') });
try {
  await migrateClickHouse(clickhouse);
  const end = new Date();
  const last = end.toISOString().slice(0, 10);
  const first = new Date(end.getTime() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  let t = performance.now();
  // Visitor v's events are spread over the period in order of n, so a visitor's pages come in
  // increasing time; the page of an event is a hash of it, so steps are met in any order.
  await clickhouse.command({
    query: `INSERT INTO events (event_key, project_id, event_type, event_name, ts, event_date, visitor_id, session_id, session_start, url, url_no_args, link_url)
      SELECT number + 1, ${PROJECT},
             if(number % 20 = 0, 'outbound', 'pageview'),
             if(number % 20 = 0, 'download', 'pageview'),
             toDateTime64(toDateTime({first:Date}) + intDiv(number * ${DAYS * 86_400}, ${EVENTS}), 3),
             toDate(toDateTime({first:Date}) + intDiv(number * ${DAYS * 86_400}, ${EVENTS})),
             concat('v', toString(cityHash64(number) % ${VISITORS})),
             cityHash64(number) % ${VISITORS},
             toDateTime64(toDateTime({first:Date}) + intDiv(number * ${DAYS * 86_400}, ${EVENTS}), 3),
             concat('https://bench.example/p', toString(cityHash64(number, 1) % 20)),
             concat('https://bench.example/p', toString(cityHash64(number, 1) % 20)),
             if(number % 20 = 0, 'https://bench.example/files/price.pdf', '')
      FROM numbers(${EVENTS})`,
    query_params: { first },
  });
  await clickhouse.command({ query: 'OPTIMIZE TABLE events FINAL' });
  say(`${EVENTS} events of ${VISITORS} visitors over ${DAYS} days (${first} to ${last}) written in ${Math.round(performance.now() - t)} ms`);

  const page = (i) => ({ dimension_filters: [{ key: 'event_type', op: '=', value: 'pageview' }, { key: 'url', op: 'like', value: `*/p${i}` }] });
  const download = { dimension_filters: [{ key: 'event_type', op: '=', value: 'outbound' }, { key: 'event_name', op: '=', value: 'download' }] };
  const cases = [
    ['goal: downloads (reaches, visits, visitors)', compileGoalCounts(PROJECT, download, first, last)],
    ['funnel of 5 steps', compileFunnel({ projectId: PROJECT, steps: [[page(1)], [page(2)], [page(3)], [page(4)], [download]], dateStart: first, dateEnd: last, filters: [], sample: 1 })],
    ['funnel of 5 steps, sample 0.1', compileFunnel({ projectId: PROJECT, steps: [[page(1)], [page(2)], [page(3)], [page(4)], [download]], dateStart: first, dateEnd: last, filters: [], sample: 0.1 })],
  ];
  for (const [label, sql] of cases) {
    const times = [];
    let answer;
    for (let run = 0; run <= RUNS; run++) {
      t = performance.now();
      answer = await (await clickhouse.query({ query: sql.query, query_params: sql.params, format: 'JSONEachRow' })).json();
      if (run > 0) times.push(performance.now() - t);
    }
    say(`${label}: median ${quantile([...times].sort((a, b) => a - b), 0.5).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms over ${RUNS} runs; answer ${JSON.stringify(answer)}`);
  }
} finally {
  await clickhouse.close();
  rmSync(dir, { recursive: true, force: true });
}
