import { mkdirSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { request as requestTls, Agent as TlsAgent } from 'node:https';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { moscowDate, moscowDayStart, type AcceptedHit } from '@stat/schemas';
import { createClickHouse, migrateClickHouse, type ClickHouseClient } from '@stat/storage';
import { readConfig } from '../config.js';
import { generateTraffic, wireHit, type TrafficStats } from './traffic.js';

const HELP = `Generates realistic traffic for a project (sources, devices, places, returning visitors,
visits of several pages with engagement and reading depth), deterministic for a seed.

usage: node server/dist/demo/generate.js --project ID --events N [options] (--via-collector URL | --bulk)

  --project ID          project (counter) id the hits belong to
  --events N            hits to generate, exactly (10k, 2.5m, 100m and 1e6 are understood)
  --days D              days of traffic, ending now (default 35; the first day from Moscow midnight)
  --seed S              seed (default 1): the same seed and period give the same hits
  --site URL            the site's address (default https://demo.stat.example)
  --pool N              returning visitors kept in memory (default: events / 30, 500 to 200 000)

  --via-collector URL   POST every hit to a running collector (e.g. http://127.0.0.1:8081), as the
                        counter does: one text/plain beacon each, the visitor's real browser user
                        agent, keep-alive connections. The collector stamps its own time, so the
                        hits arrive now, in the generated order, not spread over --days. For the
                        generated client addresses to count (geography), start the collector with
                        TRUST_PROXY=true: they travel in X-Forwarded-For.
    --concurrency C     requests in flight at most (default 32)
    --rate R            hits per second at most (default: as fast as the collector answers)

  --bulk                write straight into ClickHouse through the aggregator's own handler
                        (enrichment, bots, visits, rollups), with the service's configuration:
                        CLICKHOUSE_URL, or chDB in DATA_DIR/clickhouse. chDB lets one process
                        use a data directory: do not run --bulk while the service runs on the
                        same DATA_DIR (stop it, or point DATA_DIR elsewhere).
    --batch B           hits per write (default 50000)
    --append            write even if the project already has events in ClickHouse

  --json                print the final summary as one JSON object
  --help                this text

Progress and the rate go to stderr every two seconds; the summary to stdout.`;

/** The command line, checked. */
export interface GenerateArgs {
  project: number;
  events: number;
  days: number;
  seed: number;
  site: string;
  pool: number | undefined;
  json: boolean;
  mode:
    | { kind: 'collector'; url: string; concurrency: number; rate: number | undefined }
    | { kind: 'bulk'; batch: number; append: boolean };
}

/** A count as people write it: 10000, 10_000, 10k, 2.5m, 100M, 1e6. */
export function parseCount(text: string): number {
  const m = /^(\d+(?:\.\d+)?(?:e\d+)?)([km]?)$/i.exec(text.replace(/_/g, '').trim());
  if (!m) return NaN;
  const scale = { '': 1, k: 1e3, m: 1e6 }[(m[2] ?? '').toLowerCase()] ?? NaN;
  return Math.round(Number(m[1]) * scale);
}

/** Parses and checks the command line; throws one error naming every problem. */
export function parseGenerateArgs(argv: readonly string[]): GenerateArgs | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      project: { type: 'string' },
      events: { type: 'string' },
      days: { type: 'string' },
      seed: { type: 'string' },
      site: { type: 'string' },
      pool: { type: 'string' },
      'via-collector': { type: 'string' },
      concurrency: { type: 'string' },
      rate: { type: 'string' },
      bulk: { type: 'boolean' },
      batch: { type: 'string' },
      append: { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return 'help';
  const problems: string[] = [];
  const whole = (name: string, text: string | undefined, fallback: number | undefined, min: number, max: number): number => {
    if (text === undefined) {
      if (fallback === undefined) problems.push(`--${name} is required`);
      return fallback ?? 0;
    }
    const n = parseCount(text);
    if (!Number.isInteger(n) || n < min || n > max) problems.push(`--${name} must be a whole number from ${min} to ${max}, got ${text}`);
    return n;
  };
  const project = whole('project', values.project, undefined, 1, 4_294_967_295);
  const events = whole('events', values.events, undefined, 1, 1e9);
  const days = whole('days', values.days, 35, 1, 3660);
  const seed = whole('seed', values.seed, 1, 0, 4_294_967_295);
  const pool = values.pool === undefined ? undefined : whole('pool', values.pool, undefined, 1, 10_000_000);
  const site = values.site ?? 'https://demo.stat.example';
  if (!/^https?:\/\/[^\s/]+$/i.test(site.replace(/\/+$/, ''))) problems.push(`--site must be an origin like https://example.ru, got ${site}`);
  const collector = values['via-collector'];
  if ((collector === undefined) === (values.bulk !== true)) problems.push('give one of --via-collector URL and --bulk');
  let mode: GenerateArgs['mode'] = { kind: 'bulk', batch: 0, append: values.append === true };
  if (collector !== undefined) {
    if (!/^https?:\/\/[^\s]+$/i.test(collector)) problems.push(`--via-collector must be an http(s) address, got ${collector}`);
    const concurrency = whole('concurrency', values.concurrency, 32, 1, 10_000);
    const rate = values.rate === undefined ? undefined : whole('rate', values.rate, undefined, 1, 10_000_000);
    mode = { kind: 'collector', url: collector.replace(/\/+$/, ''), concurrency, rate };
  } else {
    mode = { kind: 'bulk', batch: whole('batch', values.batch, 50_000, 1, 1_000_000), append: values.append === true };
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return { project, events, days, seed, site: site.replace(/\/+$/, ''), pool, json: values.json === true, mode };
}

/** Where generated hits go. `write` resolves when the sink can take more; `close` when all is stored. */
interface Sink {
  write(hits: AcceptedHit[]): Promise<void>;
  close(): Promise<void>;
  /** hits stored (bulk) or accepted with 204 (collector) so far */
  readonly done: number;
  describe(): Record<string, number>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Posts hits to a collector: one beacon per hit as the counter sends it, at most `concurrency`
 * in flight over keep-alive connections, at most `rate` a second. A 503 (buffer full) is tried
 * again after a pause; a 400 is counted and its reason kept.
 */
function collectorSink(url: string, concurrency: number, rate: number | undefined): Sink {
  const target = new URL('/hit', url);
  const tls = target.protocol === 'https:';
  const agent = tls ? new TlsAgent({ keepAlive: true, maxSockets: concurrency }) : new Agent({ keepAlive: true, maxSockets: concurrency });
  const send = tls ? requestTls : request;
  let inFlight = 0;
  let accepted = 0;
  let rejected = 0;
  let busy = 0;
  let sent = 0;
  let failure: Error | null = null;
  const reasons = new Map<string, number>();
  const waiting: (() => void)[] = [];
  const started = Date.now();

  const post = (body: string, ua: string, ip: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = send(
        target,
        {
          method: 'POST',
          agent,
          headers: {
            'Content-Type': 'text/plain;charset=UTF-8',
            'Content-Length': Buffer.byteLength(body),
            'User-Agent': ua,
            'X-Forwarded-For': ip,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode === 400) {
              const reason = Buffer.concat(chunks).toString('utf8');
              reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
            }
            resolve(res.statusCode ?? 0);
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  const one = async (hit: AcceptedHit): Promise<void> => {
    const body = JSON.stringify(wireHit(hit.hit));
    for (let attempt = 0; ; attempt++) {
      let status: number;
      try {
        status = await post(body, hit.ua, hit.ip);
      } catch (error) {
        if (attempt >= 5) throw new Error(`collector ${url} unreachable: ${String(error)}`);
        await sleep(200 * 2 ** attempt);
        continue;
      }
      if (status === 204) {
        accepted += 1;
        return;
      }
      if (status === 503) {
        busy += 1;
        await sleep(Math.min(1000, 50 * 2 ** Math.min(attempt, 5)));
        continue;
      }
      if (status === 400) {
        rejected += 1;
        return;
      }
      throw new Error(`collector answered ${status} to a hit`);
    }
  };

  const launch = (hit: AcceptedHit): void => {
    inFlight += 1;
    one(hit)
      .catch((error: unknown) => {
        failure ??= error instanceof Error ? error : new Error(String(error));
      })
      .finally(() => {
        inFlight -= 1;
        waiting.shift()?.();
      });
  };

  return {
    async write(hits) {
      for (const hit of hits) {
        if (failure) throw failure;
        while (inFlight >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
        if (rate !== undefined) {
          const due = started + (sent * 1000) / rate;
          const wait = due - Date.now();
          if (wait >= 1) await sleep(wait);
        }
        sent += 1;
        launch(hit);
      }
    },
    async close() {
      while (inFlight > 0) await new Promise<void>((resolve) => waiting.push(resolve));
      agent.destroy();
      if (failure) throw failure;
      for (const [reason, n] of reasons) console.error(`collector refused ${n} hits: ${reason}`);
    },
    get done() {
      return accepted;
    },
    describe: () => ({ accepted, rejected, retriedBusy: busy }),
  };
}

/**
 * Writes hits through the aggregator's handler in batches. The next batch is generated while
 * ClickHouse takes the previous one; the handler is never called twice at once.
 */
async function bulkSink(clickhouse: ClickHouseClient, batchSize: number): Promise<Sink> {
  // Imported here: the aggregator loads the geo database and parsers the collector mode never needs.
  const { createAggregator, loadGeo } = await import('@stat/aggregator');
  await loadGeo();
  // History for a project: no visit of another run can be open, so nothing to look up.
  const aggregator = createAggregator(clickhouse, { restoreVisits: false });
  let batch: AcceptedHit[] = [];
  let pending: Promise<void> = Promise.resolve();
  let stored = 0;
  const flush = async (): Promise<void> => {
    const hits = batch;
    batch = [];
    await pending;
    pending = aggregator.handle(hits).then(() => {
      stored += hits.length;
    });
  };
  return {
    async write(hits) {
      for (const hit of hits) batch.push(hit);
      if (batch.length >= batchSize) await flush();
    },
    async close() {
      if (batch.length > 0) await flush();
      await pending;
    },
    get done() {
      return stored;
    },
    describe: () => ({ stored: aggregator.stats.stored, droppedBots: aggregator.stats.droppedBots }),
  };
}

function openClickHouse(): { clickhouse: ClickHouseClient; where: string } {
  const config = readConfig();
  if (config.CLICKHOUSE_URL) {
    const clickhouse = createClickHouse({
      kind: 'http',
      url: config.CLICKHOUSE_URL,
      username: config.CLICKHOUSE_USER,
      password: config.CLICKHOUSE_PASSWORD,
      database: config.CLICKHOUSE_DATABASE,
    });
    return { clickhouse, where: config.CLICKHOUSE_URL };
  }
  const path = join(config.DATA_DIR, 'clickhouse');
  mkdirSync(path, { recursive: true });
  return { clickhouse: createClickHouse({ kind: 'chdb', path }), where: `chDB in ${path}` };
}

async function scalar(clickhouse: ClickHouseClient, query: string, params: Record<string, unknown>): Promise<number> {
  const result = await clickhouse.query({ query, query_params: params, format: 'JSONEachRow' });
  const [row] = await result.json<{ n: string | number }>();
  return Number(row?.n ?? 0);
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const duration = (ms: number): string => {
  const s = Math.round(ms / 1000);
  return s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m` : s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
};

/** Runs a generation; returns the summary it prints. */
export async function runGenerate(args: GenerateArgs, log: (line: string) => void = (l) => console.error(l)): Promise<Record<string, unknown>> {
  const now = Date.now();
  const fromMs = moscowDayStart(moscowDate(now - (args.days - 1) * 86_400_000));
  let clickhouse: ClickHouseClient | null = null;
  let sink: Sink;
  if (args.mode.kind === 'bulk') {
    const opened = openClickHouse();
    clickhouse = opened.clickhouse;
    log(`writing into ${opened.where} through the aggregator`);
    await migrateClickHouse(clickhouse);
    const existing = await scalar(clickhouse, 'SELECT count() AS n FROM events WHERE project_id = {p:UInt32}', { p: args.project });
    if (existing > 0 && !args.mode.append) {
      await clickhouse.close();
      throw new Error(`project ${args.project} already has ${fmt(existing)} events; give --append to add more`);
    }
    sink = await bulkSink(clickhouse, args.mode.batch);
  } else {
    log(`posting to ${args.mode.url}/hit, ${args.mode.concurrency} in flight${args.mode.rate ? `, at most ${fmt(args.mode.rate)} hits/s` : ''}`);
    sink = collectorSink(args.mode.url, args.mode.concurrency, args.mode.rate);
  }

  let stopping = false;
  const onSignal = (): void => {
    if (stopping) process.exit(130);
    stopping = true;
    log('stopping: finishing the hits in flight (again to quit at once)');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const started = Date.now();
  let generated = 0;
  let lastAt = started;
  let lastDone = 0;
  const progress = (): void => {
    const t = Date.now();
    const done = sink.done;
    const rate = ((done - lastDone) * 1000) / Math.max(1, t - lastAt);
    const avg = (done * 1000) / Math.max(1, t - started);
    const left = avg > 0 ? ((args.events - done) / avg) * 1000 : NaN;
    log(
      `${fmt(done)} / ${fmt(args.events)} (${((100 * done) / args.events).toFixed(1)} %) ${args.mode.kind === 'bulk' ? 'stored' : 'accepted'}, ` +
        `${fmt(rate)} events/s now, ${fmt(avg)} average, ${duration(t - started)} elapsed${Number.isFinite(left) ? `, ~${duration(left)} left` : ''}; ` +
        `heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB`,
    );
    lastAt = t;
    lastDone = done;
  };
  const timer = setInterval(progress, 2000);

  const traffic = generateTraffic({
    projectId: args.project,
    siteUrl: args.site,
    events: args.events,
    fromMs,
    untilMs: now,
    seed: args.seed,
    visitorPool: args.pool,
  });
  let stats: TrafficStats | null = null;
  try {
    for (;;) {
      const next = traffic.next();
      if (next.done) {
        stats = next.value;
        break;
      }
      generated += next.value.length;
      await sink.write(next.value);
      if (stopping) break;
    }
    await sink.close();
  } finally {
    clearInterval(timer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const elapsed = Date.now() - started;
  progress();

  const summary: Record<string, unknown> = {
    project: args.project,
    mode: args.mode.kind,
    seed: args.seed,
    from: new Date(fromMs).toISOString(),
    until: new Date(now).toISOString(),
    generated,
    ...sink.describe(),
    seconds: +(elapsed / 1000).toFixed(1),
    eventsPerSecond: Math.round((sink.done * 1000) / Math.max(1, elapsed)),
  };
  if (stats) {
    Object.assign(summary, {
      pageViews: stats.pageViews,
      visits: stats.visits,
      newVisitors: stats.newVisitors,
      returningVisitShare: +(stats.returningVisits / Math.max(1, stats.visits)).toFixed(3),
      byType: stats.byType,
      visitsByGroup: stats.byGroup,
      visitsByDevice: stats.byKind,
      visitsByCountry: stats.byCountry,
    });
  }
  if (clickhouse) {
    summary.eventsInProject = await scalar(clickhouse, 'SELECT count() AS n FROM events WHERE project_id = {p:UInt32}', { p: args.project });
    await clickhouse.close();
  }
  return summary;
}

async function main(): Promise<void> {
  let args: GenerateArgs | 'help';
  try {
    args = parseGenerateArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    process.exit(2);
  }
  if (args === 'help') {
    console.log(HELP);
    return;
  }
  const summary = await runGenerate(args);
  if (args.json) {
    console.log(JSON.stringify(summary));
  } else {
    for (const [key, value] of Object.entries(summary)) {
      console.log(`${key.padEnd(22)} ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
    }
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}
