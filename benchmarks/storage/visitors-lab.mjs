// The visitors state of the day rollup: uniq (now), uniqHLL12, uniqCombined(12|17) — bytes,
// the time of the summary's 30-day merge (series by day and the period's total), and the total's
// error against uniqExact; and uniq(visitor_hash) against uniq(visitor_id) on the raw events.
// With --paths: the same for the day rollups of the drill-down paths (migration 0014's keys:
// sources, geography, pages), where a month is ~200 000 mostly tiny states: bytes of each state
// column, the time of the reports' rows and totals (in parallel, as the api runs them), and the
// error against uniqExact of the month's total and of the report's rows.
//
// With --error: each function's relative error against uniqExact on sets of 1 000 to 1 000 000
// random 32-bit hashes (TRIALS sets of each size; any scratch directory), the figure the README states.
//
//   node benchmarks/storage/visitors-lab.mjs <DATA_DIR>/clickhouse [--paths | --error]   # CALLS=10 PROJECT=7596044 STATES=uniq,uniqCombined(15)
import { loadavg } from 'node:os';
import { createClickHouse } from '@stat/storage';

const path = process.argv[2];
const CALLS = Number(process.env.CALLS || 10);
const PROJECT = Number(process.env.PROJECT || 7596044);
const ch = createClickHouse({ kind: 'chdb', path });
const rows = async (query) => (await ch.query({ query, format: 'JSONEachRow' })).json();
const run = (query) => ch.command({ query });
const events = process.argv.includes('--error') ? 0 : Number((await rows('SELECT count() AS n FROM events'))[0].n);
const [{ exact }] = process.argv.includes('--error') ? [{ exact: 0 }] : await rows(`SELECT uniqExact(visitor_id) AS exact FROM events WHERE project_id = ${PROJECT}`);
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
if (process.argv.includes('--paths') || process.argv.includes('--error')) {
  await (process.argv.includes('--error') ? errors() : paths());
  await ch.close();
  process.exit(0);
}
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

/** The path rollups with each candidate state side by side in one scratch table per path. */
async function paths() {
  const states = (process.env.STATES || 'uniq,uniqHLL12,uniqCombined(14),uniqCombined(15),uniqCombined(16),uniqCombined(17)').split(',');
  const col = (fn) => fn.replace(/[^A-Za-z0-9]+/g, '_').replace(/_$/, '');
  const stateOf = (fn, arg) => `${fn.replace(/^(\w+)/, '$1State')}(${arg})`;
  const mergeOf = (fn, c) => `${fn.replace(/^(\w+)/, '$1Merge')}(${c})`;
  const [{ first, last }] = await rows(`SELECT min(event_date) AS first, max(event_date) AS last FROM events WHERE project_id = ${PROJECT}`);
  const period = `project_id = ${PROJECT} AND event_date BETWEEN '${first}' AND '${last}'`;
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(0.95 * xs.length) - 1)];
  const specs = [
    { name: 'lab_sources', keys: 'traffic_type LowCardinality(String), traffic_system LowCardinality(String), search_phrase String', select: 'traffic_type, traffic_system, search_phrase',
      calls: [['traffic_sources, search expanded', 'traffic_system', "traffic_type = 'search'", 10]] },
    { name: 'lab_geo', keys: 'geo_country UInt32, geo_area UInt32, geo_city UInt32', select: 'geo_country, geo_area, geo_city',
      calls: [['geo, top level', 'geo_country', '1', 10]] },
    { name: 'lab_pages', keys: 'url_no_args String, url String', select: 'url_no_args, url', sessions: true,
      calls: [['page_urls, like *obshchestvo*', 'url_no_args', "like(url_no_args, '%obshchestvo%')", 10], ['page_urls CSV (all rows)', 'url_no_args', '1', 0]] },
  ];
  console.log(`events ${events.toLocaleString('en-US')}, project ${PROJECT} ${first} .. ${last}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${CALLS} calls each, rows and totals in parallel\n`);
  const table = [];
  for (const spec of specs) {
    const columns = states.flatMap((fn) => [`v_${col(fn)} AggregateFunction(${fn}, UInt32)`, ...(spec.sessions ? [`s_${col(fn)} AggregateFunction(${fn}, UInt64)`] : [])]);
    const fills = states.flatMap((fn) => [`${stateOf(fn, 'visitor_hash')}`, ...(spec.sessions ? [`${stateOf(fn, 'session_id')}`] : [])]);
    await run(`DROP TABLE IF EXISTS ${spec.name}`);
    await run(`CREATE TABLE ${spec.name} (project_id UInt32, event_date Date, ${spec.keys}, page_views SimpleAggregateFunction(sum, UInt64), ${columns.join(', ')})
               ENGINE = AggregatingMergeTree PARTITION BY toYYYYMM(event_date) ORDER BY (project_id, event_date, ${spec.select})`);
    await run(`INSERT INTO ${spec.name} SELECT project_id, event_date, ${spec.select}, countIf(event_type = 'pageview'), ${fills.join(', ')} FROM events GROUP BY project_id, event_date, ${spec.select}`);
    await run(`OPTIMIZE TABLE ${spec.name} FINAL`);
    const [{ n: nrows }] = await rows(`SELECT count() AS n FROM ${spec.name}`);
    const sizes = new Map((await rows(`SELECT name, data_compressed_bytes AS b FROM system.columns WHERE database = currentDatabase() AND table = '${spec.name}'`)).map((c) => [c.name, Number(c.b)]));
    const [{ exactV, exactS }] = await rows(`SELECT uniqExact(visitor_hash) AS exactV, uniqExact(session_id) AS exactS FROM events WHERE ${period}`);
    for (const [label, dim, where, limit] of spec.calls) {
      const exactRows = new Map((await rows(`SELECT ${dim} AS value, uniqExact(visitor_hash) AS v, uniqExact(session_id) AS s FROM events WHERE ${period} AND ${where} GROUP BY value`)).map((r) => [String(r.value), r]));
      // The states' queries take turns, call by call, so that the shared machine's load falls on all alike.
      const metricsOf = (fn) => `sum(page_views) AS pv, ${mergeOf(fn, `v_${col(fn)}`)} AS v${spec.sessions ? `, ${mergeOf(fn, `s_${col(fn)}`)} AS s` : ''}`;
      const both = (fn) => Promise.all([
        rows(`SELECT ${dim} AS value, ${metricsOf(fn)}${limit ? ', count() OVER () AS total_rows' : ''} FROM ${spec.name} WHERE ${period} AND ${where} GROUP BY value ORDER BY pv DESC, value ASC${limit ? ` LIMIT ${limit}` : ''}`),
        rows(`SELECT ${metricsOf(fn)} FROM ${spec.name} WHERE ${period} AND ${where}`),
      ]);
      const timesOf = new Map(states.map((fn) => [fn, []]));
      for (const fn of states) await both(fn);
      for (let i = 0; i < CALLS; i++) {
        for (const fn of states) {
          const s = performance.now();
          await both(fn);
          timesOf.get(fn).push(performance.now() - s);
        }
      }
      for (const fn of states) {
        const metrics = metricsOf(fn);
        const times = timesOf.get(fn);
        // Errors: the month's total (no filter), and each row of the report (all rows, not only the page).
        const [{ v: monthV, s: monthS }] = await rows(`SELECT ${mergeOf(fn, `v_${col(fn)}`)} AS v${spec.sessions ? `, ${mergeOf(fn, `s_${col(fn)}`)} AS s` : ', 0 AS s'} FROM ${spec.name} WHERE ${period}`);
        const all = await rows(`SELECT ${dim} AS value, ${metrics} FROM ${spec.name} WHERE ${period} AND ${where} GROUP BY value`);
        const errs = all.map((r) => Math.abs(Number(r.v) / Number(exactRows.get(String(r.value)).v) - 1)).sort((a, b) => a - b);
        const big = all.filter((r) => Number(exactRows.get(String(r.value)).v) >= 1000).map((r) => Math.abs(Number(r.v) / Number(exactRows.get(String(r.value)).v) - 1));
        const exactShare = errs.filter((e) => e === 0).length / errs.length;
        const pct = (x) => `${(100 * x).toFixed(2)} %`;
        const entry = {
          table: spec.name, call: label, state: fn, rows: Number(nrows),
          visitorsMB: sizes.get(`v_${col(fn)}`) / 1e6, sessionsMB: spec.sessions ? sizes.get(`s_${col(fn)}`) / 1e6 : 0,
          bytesPerEvent: (sizes.get(`v_${col(fn)}`) + (spec.sessions ? sizes.get(`s_${col(fn)}`) : 0)) / events,
          median: median(times), p95: p95(times),
          monthVisitors: pct(Number(monthV) / Number(exactV) - 1), monthSessions: spec.sessions ? pct(Number(monthS) / Number(exactS) - 1) : '',
          rowsExact: pct(exactShare), rowErrMedian: pct(median(errs)), rowErrMax: pct(errs[errs.length - 1]), rowsOver1000: big.length, rowErrMaxOver1000: big.length ? pct(Math.max(...big)) : '',
        };
        table.push(entry);
        console.log(JSON.stringify(entry));
      }
    }
    await run(`DROP TABLE ${spec.name}`);
  }
  console.log('\n| path rollup | rows | state | visitors MB | sessions MB | state bytes / event | call | rows+totals median / p95 ms | month visitors err | month sessions err | rows exact | row err median / max | max err of rows ≥ 1 000 visitors |');
  console.log('| --- | ---: | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const e of table) console.log(`| ${e.table} | ${e.rows.toLocaleString('en-US')} | ${e.state} | ${e.visitorsMB.toFixed(2)} | ${e.sessionsMB.toFixed(2)} | ${e.bytesPerEvent.toFixed(2)} | ${e.call} | ${e.median.toFixed(1)} / ${e.p95.toFixed(1)} | ${e.monthVisitors} | ${e.monthSessions} | ${e.rowsExact} | ${e.rowErrMedian} / ${e.rowErrMax} | ${e.rowErrMaxOver1000} (${e.rowsOver1000} rows) |`);
}

/** Relative errors on random sets of hashes: mean and max |error| of TRIALS sets of each size. */
async function errors() {
  const states = (process.env.STATES || 'uniq,uniqHLL12,uniqCombined(14),uniqCombined(15),uniqCombined(16),uniqCombined(17)').split(',');
  const TRIALS = Number(process.env.TRIALS || 20);
  console.log(`${TRIALS} sets of random 32-bit hashes of each size; |relative error| against uniqExact, mean / max\n`);
  console.log(`| n | ${states.join(' | ')} |`);
  console.log(`| ---: | ${states.map(() => '---:').join(' | ')} |`);
  for (const n of [1_000, 5_000, 20_000, 100_000, 1_000_000]) {
    const sums = states.map(() => 0);
    const maxes = states.map(() => 0);
    for (let t = 0; t < TRIALS; t++) {
      const [r] = await rows(`SELECT uniqExact(h) AS exact, ${states.map((fn, i) => `${fn}(h) AS f${i}`).join(', ')}
                              FROM (SELECT toUInt32(cityHash64(number, ${t + 1}) % 4294967296) AS h FROM numbers(${n}))`);
      states.forEach((_, i) => {
        const e = Math.abs(Number(r[`f${i}`]) / Number(r.exact) - 1);
        sums[i] += e;
        maxes[i] = Math.max(maxes[i], e);
      });
    }
    console.log(`| ${n.toLocaleString('en-US')} | ${states.map((_, i) => `${((100 * sums[i]) / TRIALS).toFixed(2)} / ${(100 * maxes[i]).toFixed(2)} %`).join(' | ')} |`);
  }
}
