// The funnel and the conversions at scale (issue 13): api against bare ClickHouse, in one process
// on one chDB directory, as reports/engine.mjs does for the report calls.
//
// On an existing DATA_DIR holding the demo project's traffic (e.g. `generate.js --bulk --days 30`,
// or a smaller set multiplied by storage/replicate.mjs), makes an administrator (as
// server/dist/cli/create-admin.js does), starts the embedded service in this process (no demo
// seed) and, through the api as that administrator (the demo project takes goals only from one),
// creates five goals over pages and events of the demo site, a funnel of them in order and a
// conversion (numerator the last goal, denominator all visits, «last-valuable» attribution, a
// 7-day window). Then times, over the last 30 days, each of
//   POST …/eventbase/{id}/funnel            (also at sample 0.1)
//   POST …/eventbase/{id}/conversions       (this conversion)
//   POST …/eventbase/{id}/conversion_table  (this conversion, its own model and window)
// through the api over HTTP and, alternately, as the bare ClickHouse queries the api runs for it:
// the SQL built by api/dist's own compilers (funnel-sql.js, conversion-sql.js) from the goals'
// stored conditions, with the same parameters and settings, on the service's own chDB client,
// together where the service runs them together. Checks that the answers make sense and that
// the api's answer is the bare queries' (the same counts); EXPLAIN ESTIMATE of each bare query.
// The goals, the funnel and the conversion are deleted at the end.
//
//   npm run build && DATA_DIR=<dir> node benchmarks/reports/eventbase.mjs [--json out.json]
//
// Environment (defaults): DATA_DIR (required: holds clickhouse/ and postgres/), CALLS=10 timed
// calls of each side after WARMUP=2, PROJECT=7596044 (the demo project), ONLY=<labels' prefixes>,
// SITE=https://demo.stat.example (the generator's --site).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiClient, freePort, load, machine, moscowToday, readEstimator, ROOT, timed, timeStats } from '../lib/harness.mjs';

const DATA_DIR = process.env.DATA_DIR;
if (!DATA_DIR) {
  console.error('DATA_DIR=<directory with clickhouse/> node benchmarks/reports/eventbase.mjs');
  process.exit(2);
}
const CALLS = Number(process.env.CALLS || 10);
const WARMUP = Number(process.env.WARMUP || 2);
const PROJECT = Number(process.env.PROJECT || 7596044);
const ONLY = (process.env.ONLY || '').split(',').filter(Boolean);
const jsonAt = process.argv.indexOf('--json');
const jsonFile = jsonAt > 0 ? process.argv[jsonAt + 1] : null;
const say = (m) => console.log(`[eventbase] ${m}`);

const { readConfig } = await import(`${ROOT}server/dist/config.js`);
const { main } = await import(`${ROOT}server/dist/main.js`);
const { createAdministrator } = await import(`${ROOT}api/dist/users/admin.js`);
const { compileFunnel } = await import(`${ROOT}api/dist/funnels/funnel-sql.js`);
const { compileAttributed, compileConversionSide, compileDenominatorBySource } = await import(`${ROOT}api/dist/conversions/conversion-sql.js`);

const m = machine();
const loadAtStart = load();
say(`machine: ${m.cores} cores, ${m.model}, ${m.ramMiB} MiB RAM, node ${m.node}; load ${loadAtStart.join(' ')}`);

// The administrator, before the service opens the database (PGlite: one process a directory).
const admin = { email: 'bench-admin@example.com', password: 'benchmark administrator' };
const config = readConfig({
  ROLES: 'collector,aggregator,api',
  DATA_DIR,
  API_PORT: String(await freePort()),
  COLLECTOR_PORT: String(await freePort()),
  HEALTH_PORT: String(await freePort()),
  DEMO_SEED: 'false',
  DEMO_LIVE: 'false',
  REPORT_REQUESTS_PER_MINUTE: '100000000',
  PATH: process.env.PATH,
});
if (config.DATABASE_URL) await createAdministrator({ kind: 'postgres', url: config.DATABASE_URL }, admin.email, admin.password);
else await createAdministrator({ kind: 'pglite', dataDir: join(DATA_DIR, 'postgres') }, admin.email, admin.password);
const service = await main(config);
const ch = service.clickhouse;
const settings = {
  max_memory_usage: String(config.REPORT_MAX_MEMORY_BYTES ?? 0),
  max_rows_to_read: String(config.REPORT_MAX_ROWS_TO_READ ?? 0),
};
const rowsOf = async (query, params = {}) => (await ch.query({ query, query_params: params, format: 'JSONEachRow', clickhouse_settings: settings })).json();

const client = apiClient(`http://127.0.0.1:${config.API_PORT}/top100`);
/** The api's result, or a thrown error with its answer. */
async function api(method, path, body) {
  const answer = await client.call(method, path, body);
  if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`);
  return answer.body.result;
}

const today = moscowToday();
const shift = (date, days) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const month = { date_start: shift(today, -29), date_end: today };
const [{ n: events, visits, first, last }] = await rowsOf(
  `SELECT count() AS n, uniqExact(session_id) AS visits, min(event_date) AS first, max(event_date) AS last
   FROM events WHERE project_id = {p:UInt32} AND event_date BETWEEN {from:Date} AND {to:Date}`,
  { p: PROJECT, from: month.date_start, to: month.date_end },
);
say(`project ${PROJECT}, period ${month.date_start} .. ${month.date_end}: ${Number(events).toLocaleString('en-US')} events, ${Number(visits).toLocaleString('en-US')} visits, from ${first} to ${last}`);

// Steps of a reader who subscribes, each met in the demo traffic (server/src/demo/traffic.ts): the
// home page, an article, the subscription banner shown in an article, the subscription page
// (mostly reached from the banner), the subscription sent from it.
const SITE = process.env.SITE || 'https://demo.stat.example';
const pageview = { key: 'event_type', op: '=', value: 'pageview' };
const GOALS = [
  ['Главная страница', [pageview, { key: 'url_no_args', op: '=', value: `${SITE}/` }]],
  ['Статья', [pageview, { key: 'url_no_args', op: 'like', value: '*.html' }]],
  ['Показ баннера подписки', [{ key: 'event_type', op: '=', value: 'show' }, { key: 'ub_block_list', op: '=', value: 'subscribe_banner' }]],
  ['Страница подписки', [pageview, { key: 'url_no_args', op: '=', value: `${SITE}/subscribe` }]],
  ['Подписка на рассылку', [{ key: 'event_name', op: '=', value: 'newsletter_subscribe' }]],
];

const made = { goals: [], funnel: null, conversion: null };
const results = [];
try {
  await api('POST', '/api/v1.0/auth/login', admin);
  for (const [title, rules] of GOALS) {
    made.goals.push(await api('POST', '/api/v1.0/goal', { project_id: PROJECT, title: `Бенчмарк: ${title}`, access: 'common', body: { dimension_filters: rules } }));
  }
  const funnel = await api('POST', `/api/v1.0/${PROJECT}/funnel`, {
    title: 'Бенчмарк: подписка',
    steps: made.goals.map((g, i) => ({ step_title: GOALS[i][0], goals: [g.id] })),
  });
  made.funnel = funnel;
  const numerator = made.goals[made.goals.length - 1];
  const conversion = await api('POST', '/api/v1.0/conversion', {
    project_id: PROJECT,
    title: 'Бенчмарк: подписки из визитов',
    metric: 'visits',
    numerator_goal_id: numerator.id,
    denominator_goal_id: null,
    access: 'common',
    attribution: 'last_valuable',
    attribution_window: 7,
  });
  made.conversion = conversion;
  say(`goals ${made.goals.map((g) => g.id).join(', ')}, funnel ${funnel.id}, conversion ${conversion.id} (${conversion.attribution}, ${conversion.attribution_window} days)`);

  // The bare side of each call: the queries the service runs for it, in groups run together.
  const period = { projectId: PROJECT, dateStart: month.date_start, dateEnd: month.date_end };
  const stepBodies = made.goals.map((g) => [g.body]);
  const funnelSql = (sample) => [[compileFunnel({ projectId: PROJECT, steps: stepBodies, dateStart: period.dateStart, dateEnd: period.dateEnd, filters: [], sample })]];
  const sides = [compileConversionSide(period, conversion.metric, numerator.body), compileConversionSide(period, conversion.metric, null)];
  const calls = [
    ['funnel, 5 steps', `/api/report/v1.0/eventbase/${PROJECT}/funnel`, { funnel_id: funnel.id, ...month }, funnelSql(1)],
    ['funnel, 5 steps, sample 0.1', `/api/report/v1.0/eventbase/${PROJECT}/funnel`, { funnel_id: funnel.id, ...month, sample: 0.1 }, funnelSql(0.1)],
    ['conversions (one conversion)', `/api/report/v1.0/eventbase/${PROJECT}/conversions`, { ...month, conversion_ids: [conversion.id] }, [sides]],
    [
      'conversion_table, last-valuable, 7 days',
      `/api/report/v1.0/eventbase/${PROJECT}/conversion_table`,
      // every source on one page (the limit only slices the rows), so that the credited visits add up
      { conversion_id: conversion.id, ...month, limit: 100 },
      [[compileAttributed(period, conversion.metric, numerator.body, 'last_valuable', 7), compileDenominatorBySource(period, conversion.metric, null), ...sides]],
    ],
  ].filter(([label]) => ONLY.length === 0 || ONLY.some((o) => label.startsWith(o)));

  const callBare = async (groups) => {
    const answers = [];
    for (const group of groups) answers.push(...(await Promise.all(group.map((sql) => rowsOf(sql.query, sql.params)))));
    return answers;
  };

  // The api's floor: HTTP, routing, access guard, no ClickHouse.
  const floor = [];
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const t = await timed(() => client.call('GET', '/api/report/v1.0/service/time'));
    if (i >= WARMUP) floor.push(t);
  }
  const floorStats = timeStats(floor);
  say(`floor GET service/time: median ${floorStats.median.toFixed(1)} ms`);

  // The same conversion credited by the last click, once (untimed): for a check of the model.
  const byLastClick = compileAttributed(period, conversion.metric, numerator.body, 'last_click', 7);
  const lastClick = await rowsOf(byLastClick.query, byLastClick.params);
  for (const [label, path, body, groups] of calls) {
    const loadBefore = load();
    let answer;
    let bare;
    for (let i = 0; i < WARMUP; i++) {
      answer = await api('POST', path, body);
      bare = await callBare(groups);
    }
    const apiTimes = [];
    const bareTimes = [];
    for (let i = 0; i < CALLS; i++) {
      apiTimes.push(await timed(async () => (answer = await api('POST', path, body))));
      bareTimes.push(await timed(async () => (bare = await callBare(groups))));
    }
    const a = timeStats(apiTimes);
    const b = timeStats(bareTimes);
    const result = { label, path, body, api: a, bare: b, ratio: a.median / b.median, loadBefore, loadAfter: load(), answer, checks: checked(label, answer, bare, lastClick), queries: groups.flat().map((s) => ({ query: s.query, params: s.params })) };
    results.push(result);
    say(`${label}: api median ${a.median.toFixed(1)} p95 ${a.p95.toFixed(1)} | bare median ${b.median.toFixed(1)} p95 ${b.p95.toFixed(1)} | ratio ${result.ratio.toFixed(2)} | load ${result.loadAfter.join(' ')}`);
    for (const c of result.checks) say(`  ${c.ok ? 'ok' : 'FAILED'}: ${c.what}`);
  }

  const reads = await readEstimator(rowsOf);
  for (const r of results) {
    r.read = [];
    for (const sql of r.queries) r.read.push(await reads(sql.query, sql.params));
  }

  const f1 = (x) => x.toFixed(1);
  console.log(`\n${Number(events).toLocaleString('en-US')} events of project ${PROJECT} over ${month.date_start} .. ${month.date_end}, ${CALLS} calls of each side after ${WARMUP} warm-ups, alternating; floor (GET service/time) median ${f1(floorStats.median)} ms\n`);
  console.log('| call | api median ms | api p95 ms | bare median ms | bare p95 ms | api / bare (median) | load 1-min before → after |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const r of results) console.log(`| ${r.label} | ${f1(r.api.median)} | ${f1(r.api.p95)} | ${f1(r.bare.median)} | ${f1(r.bare.p95)} | ${r.ratio.toFixed(2)} | ${r.loadBefore[0]} → ${r.loadAfter[0]} |`);
  console.log('\nwhat the bare queries read (EXPLAIN ESTIMATE; MB: those rows\' share of the compressed columns the query names):\n');
  console.log('| call | query | table | rows read | compressed MB read (est.) |');
  console.log('| --- | ---: | --- | ---: | ---: |');
  for (const r of results) for (const [i, q] of r.read.entries()) for (const t of q) console.log(`| ${r.label} | ${i} | ${t.table} | ${t.rows.toLocaleString('en-US')} | ${(t.bytes / 1e6).toFixed(1)} |`);
  console.log('\nthe answers:\n');
  for (const r of results) console.log(`${r.label}: ${summaryOf(r.label, r.answer)}`);
  const failed = results.flatMap((r) => r.checks.filter((c) => !c.ok).map((c) => `${r.label}: ${c.what}`));
  say(`load at start ${loadAtStart.join(' ')}, at end ${load().join(' ')}`);
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ machine: m, events: Number(events), visits: Number(visits), project: PROJECT, period: month, calls: CALLS, loadAtStart, loadAtEnd: load(), floor: floorStats, goals: made.goals, funnel: made.funnel, conversion: made.conversion, results }, null, 2));
  if (failed.length > 0) {
    say(`${failed.length} check(s) failed:\n  ${failed.join('\n  ')}`);
    process.exitCode = 1;
  }
} finally {
  // What the run made goes; the administrator stays (create-admin sets the same password again).
  const undo = [
    ...(made.conversion ? [['DELETE', `/api/v1.0/conversion/${made.conversion.id}`]] : []),
    ...(made.funnel ? [['DELETE', `/api/v1.0/${PROJECT}/funnel/${made.funnel.id}`]] : []),
    ...made.goals.map((g) => ['DELETE', `/api/v1.0/goal/${g.id}`]),
  ];
  for (const [method, path] of undo) {
    const answer = await client.call(method, path);
    if (answer.status !== 200) say(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  await service.stop();
}

/** Whether an answer makes sense, and whether it is the bare queries' (same counts). */
function checked(label, answer, bare, lastClick) {
  const checks = [];
  const check = (what, ok) => checks.push({ what, ok: Boolean(ok) });
  if (label.startsWith('funnel')) {
    const graph = answer.graph;
    const prev = graph.map((s) => s.visitorsPrevStep);
    const sum = graph.map((s) => s.visitorsSum);
    check(`5 steps, each with visitors: ${sum.join(', ')}`, graph.length === 5 && sum.every((v) => v > 0));
    check(`visitors through the steps in order do not grow: ${prev.join(' ≥ ')}`, prev.every((v, i) => i === 0 || v <= prev[i - 1]) && prev[prev.length - 1] > 0);
    check('those in order are among those who reached the step', graph.every((s) => s.visitorsPrevStep <= s.visitorsSum));
    // In order, a step's visitors are among the previous step's: 0 to 100 %. With those who came
    // another way (…Sum) a later step may have more visitors than an earlier one: over 100 % is right there.
    check('conversions in order between 0 and 100 %', graph.every((s) => [s.convPrevStep, s.convFirstStep].every((v) => v === null || (v >= 0 && v <= 100))));
    check('conversions with the others ≥ 0', graph.every((s) => [s.convPrevStepSum, s.convFirstStepSum].every((v) => v === null || v >= 0)));
    const [[row]] = bare;
    const sample = answer.sample;
    check(`the api's counts are the bare query's (÷ sample ${sample})`, row && row.prev.every((v, i) => Math.round(Number(v) / sample) === prev[i]) && row.total.every((v, i) => Math.round(Number(v) / sample) === sum[i]));
  } else if (label.startsWith('conversions')) {
    const [c] = answer.conversions;
    check(`one conversion: ${c?.numerator.totals} of ${c?.denominator.totals} visits = ${c?.conversion} %`, answer.conversions.length === 1);
    check('numerator > 0 and ≤ denominator', c.numerator.totals > 0 && c.numerator.totals <= c.denominator.totals);
    check('conversion between 0 and 100 %', c.conversion > 0 && c.conversion <= 100);
    check('a value for each of 30 days on each side', c.numerator.data.length >= 28 && c.denominator.data.length === 30);
    const [numerator, denominator] = bare.slice(0, 2).map((rows) => Number(rows.find((r) => r.day === '')?.value));
    check("the api's totals are the bare queries'", numerator === c.numerator.totals && denominator === c.denominator.totals);
  } else {
    const { data, totals, meta } = answer;
    const credited = data.reduce((s, r) => s + r.numerator, 0);
    check(`model ${meta.attribution}, window ${meta.attribution_window}`, meta.attribution === 'last_valuable' && meta.attribution_window === 7);
    check(`${meta.total} sources; conversion between 0 and 100 % in each`, data.length > 0 && data.every((r) => r.conversion === null || (r.conversion >= 0 && r.conversion <= 100)));
    check(`every converted visit credited to one source: ${credited} = ${totals.numerator}`, meta.total === data.length && credited === totals.numerator);
    const bareCredited = new Map(bare[0].map((r) => [r.traffic_type, Number(r.numerator)]));
    check("the api's credited visits by source are the bare query's", data.length === bareCredited.size && data.every((r) => (bareCredited.get(r.traffic_type) ?? 0) === r.numerator));
    // Last-valuable credits direct only when every visit of the window came directly: never more than last click does.
    const direct = (rows) => Number(rows.find((r) => r.traffic_type === 'direct')?.numerator ?? 0);
    check(`direct credited by last-valuable (${direct(bare[0])}) ≤ by last click (${direct(lastClick)})`, direct(bare[0]) <= direct(lastClick) && direct(lastClick) > 0);
  }
  return checks;
}

/** One line of an answer, for the record. */
function summaryOf(label, answer) {
  if (label.startsWith('funnel')) return answer.graph.map((s) => `${s.stepNumber}. ${s.stepTitle}: ${s.visitorsPrevStep} in order / ${s.visitorsSum} all`).join('; ');
  if (label.startsWith('conversions')) return answer.conversions.map((c) => `${c.numerator.totals} / ${c.denominator.totals} = ${c.conversion} %`).join('; ');
  return `${answer.data.map((r) => `${r.traffic_type} ${r.numerator}/${r.denominator} (${r.conversion} %)`).join(', ')}; total ${answer.totals.numerator}/${answer.totals.denominator} (${answer.totals.conversion} %)`;
}
