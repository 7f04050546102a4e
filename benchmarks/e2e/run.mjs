// End-to-end ingestion: hits per second sustained from the collector through Kafka into
// ClickHouse, on one machine, with the CPU each process used.
//
//   collector process (ROLES=collector)  ──Kafka──▶  aggregator+api process (ROLES=aggregator,api, chDB)
//        ▲ generator --via-collector (realistic hits, browser user agents, keep-alive)
//
// The load (EVENTS hits of the demo generator) is sent as fast as the collector takes it; the
// aggregator drains Kafka at its own pace. Stored events are counted every second from the
// consumer group's committed offsets (the aggregator commits only after ClickHouse took a batch,
// so they count stored events exactly), until the backlog is gone; at the end the api's page
// views are checked against the generator's.
//
//   npm run build && bash infra/up.sh
//   node benchmarks/e2e/run.mjs
//
// Environment (defaults): EVENTS=300000, CONCURRENCY=32 (generator requests in flight),
// SEED=1, KAFKA_BROKERS=127.0.0.1:9092, KAFKA_PARTITIONS=6, PROJECT=7596044, PRELOAD=0
// (1: start the aggregator only once the load is in Kafka, to time its drain alone).
// A fresh topic and consumer group (stat-bench-e2e-<time>) and a fresh chDB directory each run.
// Results: benchmarks/.results/<time>/e2e.{json,csv} and the processes' logs.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { GENERATE, ROOT, cpuSeconds, freePort, kafkaPid, load, machine, moscowToday, portOpen, sleep, startService, summaryTotals } from '../lib/harness.mjs';

const EVENTS = Number(process.env.EVENTS || 300_000);
const CONCURRENCY = Number(process.env.CONCURRENCY || 32);
const SEED = Number(process.env.SEED || 1);
const PROJECT = Number(process.env.PROJECT || 7596044);
const BROKERS = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');
const PARTITIONS = process.env.KAFKA_PARTITIONS || '6';
// PRELOAD=1: the aggregator starts only once the whole load is in Kafka, so its drain of the
// backlog is measured alone (the ceiling of the store path on this machine).
const PRELOAD = process.env.PRELOAD === '1';

const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
const out = join(ROOT, 'benchmarks/.results', stamp);
mkdirSync(out, { recursive: true });
const topic = `stat-bench-e2e-${stamp}`;
const group = topic;
const say = (m) => console.log(`[e2e] ${m}`);

const [kafkaHost, kafkaPort] = BROKERS[0].split(':');
if (!(await portOpen(Number(kafkaPort), kafkaHost))) throw new Error(`no Kafka at ${BROKERS[0]}: bash infra/up.sh`);

const m = machine();
say(`machine: ${m.cores} cores, ${m.model}, ${m.ramMiB} MiB RAM, node ${m.node}; load ${load().join(' ')}`);
say(`topic and group ${topic}; ${EVENTS} events, ${CONCURRENCY} in flight; results in ${out.slice(ROOT.length)}`);

const dataDir = mkdtempSync(join(tmpdir(), 'stat-bench-e2e-'));
const apiPort = await freePort();
const collectorPort = await freePort();
const kafkaEnv = { KAFKA_BROKERS: BROKERS.join(','), KAFKA_TOPIC: topic, KAFKA_GROUP: group, KAFKA_PARTITIONS: PARTITIONS };
const startStore = () =>
  startService('aggregator+api', { ...kafkaEnv, ROLES: 'aggregator,api', DATA_DIR: dataDir, API_PORT: String(apiPort) }, join(out, 'aggregator-api.log'));
let store = PRELOAD ? null : await startStore();
const collector = await startService(
  'collector',
  { ...kafkaEnv, ROLES: 'collector', COLLECTOR_PORT: String(collectorPort), TRUST_PROXY: 'true' },
  join(out, 'collector.log'),
);
const apiUrl = `http://127.0.0.1:${apiPort}`;

const admin = new Kafka({ clientId: 'bench-e2e', brokers: BROKERS, logLevel: logLevel.ERROR }).admin();
await admin.connect();
/** Hits stored: the consumer group's committed offsets, summed over partitions. */
const stored = async () => {
  const [t] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
  return (t?.partitions ?? []).reduce((s, p) => s + Math.max(0, Number(p.offset)), 0);
};

const kafka = kafkaPid();
const pids = { collector: collector.pid, aggregatorApi: store?.pid, ...(kafka ? { kafka } : {}) };
const cpu = () => Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)]));

const generatorLog = createWriteStream(join(out, 'generator.log'));
const t0 = Date.now();
const cpu0 = cpu();
const generator = spawn(
  process.execPath,
  [GENERATE, '--project', String(PROJECT), '--events', String(EVENTS), '--days', '1', '--seed', String(SEED), '--via-collector', `http://127.0.0.1:${collectorPort}`, '--concurrency', String(CONCURRENCY), '--json'],
  { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
);
pids.generator = generator.pid;
let generatorOut = '';
generator.stdout.on('data', (c) => (generatorOut += c));
generator.stderr.pipe(generatorLog);
let generatorCpu = 0;
const generatorDone = new Promise((resolve) => generator.once('exit', (code) => resolve(code)));
let tLoadEnd = null;
let cpuLoadEnd = null;
let storedAtLoadEnd = null;
void generatorDone.then(() => {
  tLoadEnd = Date.now();
});

const timeline = [];
let last = -1;
let lastChange = Date.now();
let accepted = null;
let generated = null;
let tStoreReady = null;
for (;;) {
  await sleep(1000);
  const now = Date.now();
  const s = await stored();
  const c = cpu();
  if (pids.generator && c.generator > 0) generatorCpu = c.generator;
  timeline.push({ t: (now - t0) / 1000, stored: s, load1: load()[0], ...c });
  if (s !== last) {
    last = s;
    lastChange = now;
  }
  if (tLoadEnd !== null && accepted === null) {
    const code = await generatorDone;
    if (code !== 0) throw new Error(`the generator failed (exit ${code}); see generator.log`);
    const summary = JSON.parse(generatorOut.trim().split('\n').pop());
    accepted = summary.accepted;
    storedAtLoadEnd = s;
    cpuLoadEnd = { ...c, generator: generatorCpu };
    say(`load sent in ${((tLoadEnd - t0) / 1000).toFixed(1)} s: ${accepted} hits accepted (${summary.rejected} refused, ${summary.retriedBusy} busy retries); ${s} stored so far`);
    generated = summary;
    if (PRELOAD) {
      store = await startStore();
      pids.aggregatorApi = store.pid;
      tStoreReady = Date.now();
      say(`aggregator+api ready ${((tStoreReady - tLoadEnd) / 1000).toFixed(1)} s after the load; draining ${accepted} events`);
    }
  }
  if (timeline.length % 10 === 0) say(`${((now - t0) / 1000).toFixed(0)} s: ${s} stored; load ${load().join(' ')}`);
  if (accepted !== null && s >= accepted) break;
  if (!PRELOAD && now - lastChange > 120_000) throw new Error(`no progress for 2 minutes at ${s} stored`);
  if (PRELOAD && tStoreReady && now - Math.max(lastChange, tStoreReady) > 120_000) throw new Error(`no progress for 2 minutes at ${s} stored`);
}
const tDrained = Date.now();
const cpuEnd = { ...cpu(), generator: generatorCpu };

// The run may cross Moscow midnight: yesterday and today.
const pageViews = (await summaryTotals(apiUrl, PROJECT, ['page_views'], moscowToday(Date.now() - 86_400_000)))[0];

const seconds = (a, b) => (b - a) / 1000;
const loadSeconds = seconds(t0, tLoadEnd);
const drainSeconds = seconds(tLoadEnd, tDrained);
const totalSeconds = seconds(t0, tDrained);
const cores = (from, to, secs) => Object.fromEntries(Object.keys(to).map((k) => [k, +((to[k] - (from[k] ?? 0)) / secs).toFixed(2)]));
// Steady rate: the slope between 10 % and 90 % of the stored count.
const at = (share) => timeline.find((p) => p.stored >= share * accepted);
const a = at(0.1);
const b = at(0.9);
const result = {
  date: new Date().toISOString(),
  machine: m,
  events: EVENTS,
  accepted,
  acceptRate: Math.round(accepted / loadSeconds),
  storedWhileLoading: storedAtLoadEnd,
  storeRateOverall: Math.round(accepted / totalSeconds),
  storeRateSteady: a && b && b.t > a.t ? Math.round((b.stored - a.stored) / (b.t - a.t)) : null,
  storeRateDuringLoad: Math.round(storedAtLoadEnd / loadSeconds),
  storeRateAfterLoad: drainSeconds > 0 ? Math.round((accepted - storedAtLoadEnd) / drainSeconds) : null,
  storeRateFromReady: tStoreReady ? Math.round(accepted / seconds(tStoreReady, tDrained)) : null,
  preload: PRELOAD,
  seconds: { load: +loadSeconds.toFixed(1), drain: +drainSeconds.toFixed(1), total: +totalSeconds.toFixed(1) },
  coresDuringLoad: cores(cpu0, cpuLoadEnd, loadSeconds),
  coresAfterLoad: cores(cpuLoadEnd, cpuEnd, drainSeconds),
  coresOverall: cores(cpu0, cpuEnd, totalSeconds),
  cpuMicrosecondsPerEvent: Object.fromEntries(Object.entries(cpuEnd).map(([k, v]) => [k, Math.round(((v - (cpu0[k] ?? 0)) * 1e6) / accepted)])),
  loadAverage: { min: Math.min(...timeline.map((p) => p.load1)), max: Math.max(...timeline.map((p) => p.load1)), end: load() },
  pageViews: { generated: generated.pageViews, api: pageViews },
  topic,
};
writeFileSync(join(out, 'e2e.json'), JSON.stringify(result, null, 2));
writeFileSync(join(out, 'e2e.csv'), ['t,stored,load1,' + Object.keys(pids).join(','), ...timeline.map((p) => [p.t, p.stored, p.load1, ...Object.keys(pids).map((k) => p[k] ?? '')].join(','))].join('\n'));

await admin.disconnect();
await collector.stop();
await store.stop();
rmSync(dataDir, { recursive: true, force: true });

console.log(`
accepted by the collector   ${accepted} hits in ${result.seconds.load} s = ${result.acceptRate} hits/s (load generator: ${CONCURRENCY} in flight)
stored (committed offsets)  ${result.storeRateOverall} events/s over the whole run (${result.seconds.total} s until the backlog drained)
                            ${result.storeRateSteady} events/s steady (10 % to 90 % of the events)
                            ${result.storeRateDuringLoad} events/s while the load ran, ${result.storeRateAfterLoad} events/s after it (backlog alone)${
  PRELOAD ? `\n                            ${result.storeRateFromReady} events/s from the aggregator's start (PRELOAD: it started after the load)` : ''
}
cores used while loading    ${JSON.stringify(result.coresDuringLoad)}
cores used after the load   ${JSON.stringify(result.coresAfterLoad)}
CPU µs per event (overall)  ${JSON.stringify(result.cpuMicrosecondsPerEvent)}
load average (1 min)        ${result.loadAverage.min} to ${result.loadAverage.max} during the run
page views: generated ${generated.pageViews}, api ${pageViews} ${generated.pageViews === pageViews ? '(equal)' : '(DIFFERENT)'}`);
if (generated.pageViews !== pageViews) process.exitCode = 1;
