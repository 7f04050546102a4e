// Freshness: the time from a hit's acceptance (the collector's 204) to its visibility in a
// report (the api's summary table of its project, polled), at a light background load, in
// embedded mode (one process, in-process bus) and in cluster mode (collector and
// aggregator+api processes joined by Kafka).
//
// Each probe reads the project's page views for today, sends one page view of the demo
// project, notes when the 204 arrives, then polls the summary table until the count has grown.
// Meanwhile the demo generator sends RATE hits a second of another project (the background).
//
//   npm run build && bash infra/up.sh     (Kafka for the cluster mode)
//   node benchmarks/freshness/run.mjs
//
// READ=summary (default) polls the summary table's page views; READ=realtime polls the live
// dashboard's «unique visitors now» (the realtime call's current_user_count), each probe a new
// visitor: the hit-to-dashboard time.
//
// Environment (defaults): MODES=embedded,cluster, PROBES=100, RATE=100 (background hits/s),
// POLL_MS=10 (pause between polls), KAFKA_BROKERS=127.0.0.1:9092, KAFKA_PARTITIONS=6 (of the
// fresh topic the cluster mode creates).
// Results: benchmarks/.results/<time>/freshness-<mode>.json and the processes' logs.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProject } from '../../server/dist/testing/api-client.js';
import { GENERATE, ROOT, cpuSeconds, currentUsers, freePort, kafkaPid, load, machine, portOpen, quantile, sleep, startService, summaryTotals } from '../lib/harness.mjs';

const MODES = (process.env.MODES || 'embedded,cluster').split(',');
const PROBES = Number(process.env.PROBES || 100);
const RATE = Number(process.env.RATE || 100);
const POLL_MS = Number(process.env.POLL_MS || 10);
const READ = process.env.READ || 'summary';
if (READ !== 'summary' && READ !== 'realtime') throw new Error(`READ must be summary or realtime, got ${READ}`);
/** What a probe waits to see grow: the summary's page views, or the dashboard's current visitors. */
const readCount = async (apiUrl) => (READ === 'realtime' ? currentUsers(apiUrl, PROJECT) : (await summaryTotals(apiUrl, PROJECT, ['page_views']))[0]);
const BROKERS = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');
const PARTITIONS = process.env.KAFKA_PARTITIONS || '6';
const PROJECT = 7596044; // the demo project: anonymous reads are allowed
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
const out = join(ROOT, 'benchmarks/.results', stamp);
mkdirSync(out, { recursive: true });
const say = (m) => console.log(`[freshness] ${m}`);
const m = machine();
say(`machine: ${m.cores} cores, ${m.model}, ${m.ramMiB} MiB RAM, node ${m.node}; load ${load().join(' ')}`);

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
/** Posts one hit as the counter does; resolves with the status when the answer has arrived. */
function postHit(collectorUrl, hit) {
  const body = JSON.stringify(hit);
  return new Promise((resolve, reject) => {
    const req = request(
      `${collectorUrl}/hit`,
      { method: 'POST', agent, headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'Content-Length': Buffer.byteLength(body), 'User-Agent': CHROME } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function startMode(mode) {
  const dataDir = mkdtempSync(join(tmpdir(), `stat-bench-fresh-${mode}-`));
  const apiPort = await freePort();
  const collectorPort = await freePort();
  const processes = [];
  if (mode === 'embedded') {
    processes.push(
      await startService('embedded', { DATA_DIR: dataDir, API_PORT: String(apiPort), COLLECTOR_PORT: String(collectorPort), TRUST_PROXY: 'true' }, join(out, 'embedded.log')),
    );
  } else {
    const [host, port] = BROKERS[0].split(':');
    if (!(await portOpen(Number(port), host))) throw new Error(`no Kafka at ${BROKERS[0]}: bash infra/up.sh`);
    const topic = `stat-bench-fresh-${stamp}`;
    const kafka = { KAFKA_BROKERS: BROKERS.join(','), KAFKA_TOPIC: topic, KAFKA_GROUP: topic, KAFKA_PARTITIONS: PARTITIONS };
    processes.push(await startService('aggregator+api', { ...kafka, ROLES: 'aggregator,api', DATA_DIR: dataDir, API_PORT: String(apiPort) }, join(out, 'cluster-aggregator-api.log')));
    processes.push(
      await startService('collector', { ...kafka, ROLES: 'collector', COLLECTOR_PORT: String(collectorPort), TRUST_PROXY: 'true' }, join(out, 'cluster-collector.log')),
    );
    const broker = kafkaPid();
    if (broker) processes.push({ name: 'kafka', pid: broker, stop: async () => undefined });
  }
  return {
    apiUrl: `http://127.0.0.1:${apiPort}`,
    collectorUrl: `http://127.0.0.1:${collectorPort}`,
    processes,
    async stop() {
      for (const p of processes.slice().reverse()) await p.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const results = {};
for (const mode of MODES) {
  say(`${mode}: starting`);
  const service = await startMode(mode);
  // The background goes to a project of its own, made through the api: the aggregator stores
  // nothing for a project that does not exist.
  const { projectId: backgroundProject } = await createProject(service.apiUrl);
  const background = spawn(
    process.execPath,
    [GENERATE, '--project', String(backgroundProject), '--events', String(RATE * 3600), '--days', '1', '--via-collector', service.collectorUrl, '--concurrency', '4', '--rate', String(RATE)],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  background.stderr.pipe(createWriteStream(join(out, `freshness-${mode}-background.log`)));
  await sleep(5000);
  // A first probe warms up the report path (plans, caches); it is not counted.
  await postHit(service.collectorUrl, { p: PROJECT, t: 'pageview', u: 'https://probe.example/warm', v: `warmup${stamp}` });
  await sleep(2000);

  const cpu0 = Object.fromEntries(service.processes.map((p) => [p.name, cpuSeconds(p.pid)]));
  const t0 = Date.now();
  const latencies = [];
  // The hit became visible after the last poll that did not show it began: a lower bound.
  const lowerBounds = [];
  const polls = [];
  const loads = [];
  for (let i = 0; i < PROBES; i++) {
    const before = await readCount(service.apiUrl);
    const status = await postHit(service.collectorUrl, { p: PROJECT, t: 'pageview', u: `https://probe.example/p${i}`, r: '', ti: `probe ${i}`, v: `probe${i}x${stamp}` });
    const accepted = performance.now();
    if (status !== 204) throw new Error(`probe ${i}: collector answered ${status}`);
    let previousAsked = accepted;
    for (;;) {
      const asked = performance.now();
      const now = await readCount(service.apiUrl);
      const answered = performance.now();
      polls.push(answered - asked);
      if (now > before) {
        latencies.push(answered - accepted);
        lowerBounds.push(previousAsked - accepted);
        break;
      }
      previousAsked = asked;
      if (answered - accepted > 60_000) throw new Error(`probe ${i} not visible after 60 s`);
      if (POLL_MS > 0) await sleep(POLL_MS);
    }
    loads.push(load()[0]);
    await sleep(150 + Math.random() * 200);
  }
  const seconds = (Date.now() - t0) / 1000;
  const cores = Object.fromEntries(service.processes.map((p) => [p.name, +((cpuSeconds(p.pid) - cpu0[p.name]) / seconds).toFixed(2)]));
  background.kill('SIGTERM');
  await new Promise((resolve) => background.once('exit', resolve));
  await service.stop();

  const sorted = latencies.slice().sort((a, b) => a - b);
  const pollSorted = polls.slice().sort((a, b) => a - b);
  const lowerSorted = lowerBounds.slice().sort((a, b) => a - b);
  const r = {
    mode,
    read: READ,
    probes: PROBES,
    backgroundHitsPerSecond: RATE,
    latencyMs: {
      median: +quantile(sorted, 0.5).toFixed(1),
      p95: +quantile(sorted, 0.95).toFixed(1),
      p99: +quantile(sorted, 0.99).toFixed(1),
      min: +sorted[0].toFixed(1),
      max: +sorted[sorted.length - 1].toFixed(1),
    },
    lowerBoundMs: { median: +quantile(lowerSorted, 0.5).toFixed(1), p95: +quantile(lowerSorted, 0.95).toFixed(1) },
    pollMs: { median: +quantile(pollSorted, 0.5).toFixed(1), p95: +quantile(pollSorted, 0.95).toFixed(1), pause: POLL_MS },
    cores,
    loadAverage1m: { min: Math.min(...loads), max: Math.max(...loads) },
    latencies: latencies.map((l) => +l.toFixed(1)),
  };
  results[mode] = r;
  writeFileSync(join(out, `freshness-${mode}-${READ}.json`), JSON.stringify({ date: new Date().toISOString(), machine: m, ...r }, null, 2));
  say(
    `${mode}: acceptance → visible in ${READ === 'realtime' ? 'the dashboard’s current visitors' : 'the summary table'}: median ${r.latencyMs.median} ms, p95 ${r.latencyMs.p95} ms, max ${r.latencyMs.max} ms ` +
      `(lower bound, from the start of the last poll that did not show it: median ${r.lowerBoundMs.median} ms, p95 ${r.lowerBoundMs.p95} ms) ` +
      `(${PROBES} probes; a poll takes ${r.pollMs.median} ms, then ${POLL_MS} ms pause; background ${RATE} hits/s; cores ${JSON.stringify(cores)}; load ${r.loadAverage1m.min}–${r.loadAverage1m.max})`,
  );
}
agent.destroy();
say(`results in ${out.slice(ROOT.length)}`);
