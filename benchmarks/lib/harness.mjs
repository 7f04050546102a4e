// Shared pieces of the node benchmark harnesses: the machine, CPU seconds of a process, starting
// the service's processes with their own environment, free ports, the api's summary call.
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const MAIN = `${ROOT}server/dist/main.js`;
export const GENERATE = `${ROOT}server/dist/demo/generate.js`;

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** What a result is measured on. */
export function machine() {
  let model = cpus()[0]?.model ?? 'unknown';
  try {
    model = execFileSync('lscpu').toString().match(/^Model name:\s*(.+)$/m)?.[1] ?? model;
  } catch {
    // lscpu missing: the model from os.cpus()
  }
  return { cores: cpus().length, model, ramMiB: Math.round(totalmem() / 2 ** 20), node: process.version };
}

/** The 1, 5 and 15 minute load averages, as uptime prints them. */
export function load() {
  return loadavg().map((l) => +l.toFixed(2));
}

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return 0;
  }
}

/** The Kafka broker's pid: from infra/kafka.sh's pid file, else the running kafka.Kafka JVM, else null. */
export function kafkaPid() {
  for (const dir of [process.env.INFRA_STATE_DIR, `${ROOT}.infra`, `${process.cwd()}/.infra`]) {
    if (!dir) continue;
    try {
      const pid = Number(readFileSync(`${dir}/kafka/kafka.pid`, 'utf8').trim());
      if (pid && cpuSeconds(pid) > 0) return pid;
    } catch {
      // not started from there
    }
  }
  try {
    const pid = Number(execFileSync('pgrep', ['-f', 'kafka\\.Kafka']).toString().split('\n')[0]);
    return pid || null;
  } catch {
    return null;
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export function portOpen(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts `node server/dist/main.js` with the given environment over a clean one (no DEMO_SEED,
 * no inherited service variables), its output to `logFile`; resolves once it printed `ready`.
 */
export async function startService(name, env, logFile, timeoutMs = 120_000) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(ROLES|DATA_DIR|CLICKHOUSE_|KAFKA_|COLLECTOR_|API_|DEMO_|DATABASE_URL|REDIS_URL|TRUST_PROXY|REPORT_)/.test(k)),
  );
  // The load comes from one address: the per-address report limit would measure itself.
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: { ...clean, DEMO_SEED: 'false', DEMO_LIVE: 'false', REPORT_REQUESTS_PER_MINUTE: '100000000', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(logFile);
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const started = Date.now();
  while (!output.includes('ready (')) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${output.slice(-2000)}`);
    if (Date.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`${name} not ready in ${timeoutMs} ms:\n${output.slice(-2000)}`);
    }
    await sleep(100);
  }
  return {
    name,
    pid: child.pid,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * The embedded service in `dataDir` with the whole demo filled before «ready» (by default it
 * fills after: minutes on two cores), on two free ports, its log in `dataDir/service.log`; `env`
 * adds to it (DEMO_DAYS, DEMO_LIVE…). Resolves with the service and its api's port.
 */
export async function startDemoService(dataDir, env) {
  const apiPort = await freePort();
  const collectorPort = await freePort();
  const service = await startService(
    'embedded',
    { DATA_DIR: dataDir, API_PORT: String(apiPort), COLLECTOR_PORT: String(collectorPort), DEMO_SEED: 'true', DEMO_SEED_WAIT: 'true', ...env },
    join(dataDir, 'service.log'),
    900_000,
  );
  return { service, apiPort };
}

/** Today's Moscow date, YYYY-MM-DD. */
export function moscowToday(now = Date.now()) {
  return new Date(now + 3 * 3600_000).toISOString().slice(0, 10);
}

/** The totals of the summary table report (one POST, as the web app makes it). */
export async function summaryTotals(apiUrl, project, metrics, dateStart = moscowToday(), dateEnd = moscowToday()) {
  const response = await fetch(`${apiUrl}/top100/api/report/v1.0/report/${project}/summary/table`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ date_start: dateStart, date_end: dateEnd, group: 'day', metrics }),
  });
  const json = await response.json();
  if (response.status !== 200) throw new Error(`summary table: ${response.status} ${JSON.stringify(json)}`);
  return json.result.totals;
}

/**
 * «Unique visitors now» of the live dashboard (`POST …/eventbase/{project}/realtime`, the
 * section the web app's dashboard reads): distinct visitors of the last 5 minutes.
 */
export async function currentUsers(apiUrl, project) {
  const response = await fetch(`${apiUrl}/top100/api/report/v1.0/eventbase/${project}/realtime`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ date_start: 'today', date_end: 'today', group: 'minute', period: 30, sections: ['current_user_count'] }),
  });
  const json = await response.json();
  if (response.status !== 200) throw new Error(`realtime: ${response.status} ${JSON.stringify(json)}`);
  return json.result.current_user_count.value;
}

/** Quantile q (0..1) of sorted numbers, nearest rank. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Milliseconds an async call takes. */
export async function timed(f) {
  const started = performance.now();
  await f();
  return performance.now() - started;
}

/** Count, median, p95 and maximum of times (ms). */
export function timeStats(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { n: sorted.length, median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted[sorted.length - 1] };
}

/**
 * Times each call `n` times in turn, after two warm-up calls (the first of each shape compiles
 * its query plan), and prints a Markdown table of median, p90 and maximum ms. A call is
 * `[label, () => fetch(…)]`; an answer other than 200 throws.
 */
export async function printCallLatencies(calls, n) {
  console.log('| call | median ms | p90 ms | max ms |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [label, call] of calls) {
    for (let i = 0; i < 2; i++) await (await call()).arrayBuffer();
    const times = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      const response = await call();
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${label}: ${response.status}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`| ${label} | ${quantile(times, 0.5).toFixed(1)} | ${quantile(times, 0.9).toFixed(1)} | ${times[times.length - 1].toFixed(1)} |`);
  }
}

/**
 * A client of the api as the web app is one: it keeps the session's cookies and sends the header
 * the api asks of calls made with them. `call(method, path, body)` answers `{ status, body }`
 * (`body` parsed JSON when it is, else the text); `path` after `base`.
 */
export function apiClient(base) {
  const cookies = new Map();
  const cookieHeader = () => (cookies.size > 0 ? { cookie: [...cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') } : {});
  async function call(method, path, body) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), 'x-requested-with': 'XMLHttpRequest', ...cookieHeader() },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    for (const c of response.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), decodeURIComponent(pair.slice(at + 1)));
    }
    const text = await response.text();
    let parsed = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the text
    }
    return { status: response.status, body: parsed, bytes: Buffer.byteLength(text) };
  }
  return { call, cookieHeader };
}

/**
 * What a query reads, for ClickHouse without `system.query_log` (chDB): `EXPLAIN ESTIMATE`'s rows
 * per table (whole granules after the primary key and the sample), and bytes estimated as those
 * rows' share of the compressed bytes of the columns the query names (an ALIAS column: the columns
 * of its expression). `rowsOf(query, params)` runs a query and answers its rows.
 */
export async function readEstimator(rowsOf) {
  const columns = await rowsOf(`SELECT table, name, default_kind AS kind, default_expression AS expr, data_compressed_bytes AS bytes
                                FROM system.columns WHERE database = currentDatabase()`);
  const tableRows = new Map((await rowsOf(`SELECT table, sum(rows) AS rows FROM system.parts WHERE active AND database = currentDatabase() GROUP BY table`)).map((t) => [t.table, Number(t.rows)]));
  const named = (text, name) => new RegExp(`\\b${name}\\b`).test(text);
  const bytesRead = (table, rowsRead, query) => {
    const own = columns.filter((c) => c.table === table);
    const used = new Set(own.filter((c) => named(query, c.name)).map((c) => c.name));
    for (const c of own) if (used.has(c.name) && c.kind === 'ALIAS') for (const d of own) if (named(c.expr, d.name)) used.add(d.name);
    const all = tableRows.get(table) || 1;
    return own.filter((c) => used.has(c.name)).reduce((sum, c) => sum + (Number(c.bytes) * rowsRead) / all, 0);
  };
  return async (query, params = {}) => {
    const estimate = await rowsOf(`EXPLAIN ESTIMATE ${query}`, params);
    return estimate.map((e) => ({ table: e.table, rows: Number(e.rows), marks: Number(e.marks), bytes: bytesRead(e.table, Number(e.rows), query) }));
  };
}
