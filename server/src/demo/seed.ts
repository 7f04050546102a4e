import { MOSCOW_OFFSET_MS, moscowDate, moscowDayStart, type AcceptedHit } from '@stat/schemas';
import type { ClickHouseClient } from '@stat/storage';
import { createAggregator } from '@stat/aggregator';
import { generateTraffic, type TrafficOptions, type TrafficStats } from './traffic.js';

/** The demo project of the specification, read-only for all but administrators. */
export const DEMO_PROJECT_ID = 7596044;

/** The demo site's address and the seed of its traffic: the demo looks the same on every machine. */
const DEMO_SITE_URL = 'https://demo.stat.example';
const DEMO_SEED = 7596044;

/**
 * Visits of an ordinary day of demo traffic (weekends fewer, news days more): a site large
 * enough that every report, down to a campaign or a block, has something to show. 35 days of it
 * are about a million events.
 */
export const DEMO_VISITS_PER_DAY = 5_000;

/**
 * Hits handed to the aggregator at once. Its handler runs the steps of a batch without a break,
 * so a smaller batch keeps the api and the collector of the same process answering while a
 * seed runs beside them; below some ten thousand, ClickHouse's inserts start to cost more.
 */
const BATCH = 10_000;

/**
 * A gap since the demo's latest event shorter than this is not filled: a restart a few minutes
 * later adds nothing (at night the demo's hits are minutes apart).
 */
export const TOP_UP_MIN_MS = 30 * 60_000;

const DAY = 86_400_000;

/** The demo's traffic over a period, as the seed generates it: the same period gives the same hits. */
export function demoTraffic(fromMs: number, untilMs: number, visitsPerDay: number): TrafficOptions {
  return {
    projectId: DEMO_PROJECT_ID,
    siteUrl: DEMO_SITE_URL,
    visitsPerDay,
    fromMs,
    untilMs,
    // Another stream for each start of a period, so that a top-up never repeats an event id.
    seed: (DEMO_SEED ^ Math.floor(fromMs / 60_000)) >>> 0,
  };
}

export interface SeedOptions {
  /** days of traffic: from Moscow midnight `days - 1` days before `now` */
  days: number;
  visitsPerDay: number;
  /** where the traffic ends, epoch ms (default: now) */
  now?: number;
  /** hits per handler call (default 10 000) */
  batch?: number;
  /** stops the seed between batches: what is stored stays, and the next seed goes on from it */
  signal?: AbortSignal;
  /** told the period once it is known, before anything is written */
  onPlan?: (fromMs: number, untilMs: number) => void;
}

/** What a seed did. */
export interface SeedResult {
  /** events handed to the aggregator and stored */
  events: number;
  /** the period generated; null when the demo was up to date */
  fromMs: number | null;
  untilMs: number | null;
  /** the generator's account of the period; null when nothing was generated or the seed was stopped */
  stats: TrafficStats | null;
}

/**
 * The period the demo lacks at `now`: `days` of traffic for an empty project; otherwise the
 * time since its latest event (at most `days`), or null when that is under TOP_UP_MIN_MS. So a
 * second start adds only the time that passed, and a seed stopped half way (a stop, a crash)
 * goes on from what it stored.
 */
async function demoPeriod(clickhouse: ClickHouseClient, days: number, now: number): Promise<{ fromMs: number; untilMs: number } | null> {
  const result = await clickhouse.query({
    query: 'SELECT count() AS n, toUnixTimestamp64Milli(max(ts)) AS latest FROM events WHERE project_id = {project:UInt32}',
    query_params: { project: DEMO_PROJECT_ID },
    format: 'JSONEachRow',
  });
  const [row] = await result.json<{ n: string | number; latest: string | number }>();
  const firstDay = moscowDayStart(moscowDate(now - (days - 1) * DAY));
  const fromMs = Number(row?.n ?? 0) > 0 ? Math.max(firstDay, Number(row?.latest) + 1) : firstDay;
  return now - fromMs < TOP_UP_MIN_MS ? null : { fromMs, untilMs: now };
}

/**
 * Brings the demo project's generated traffic up to `now` (see demoPeriod) through the
 * aggregator's own handler, oldest first. The next batch is generated while the previous one
 * is stored; the handler is never called twice at once. Between slices the event loop gets a
 * turn, so a process that serves requests meanwhile keeps answering.
 */
export async function seedDemo(
  clickhouse: ClickHouseClient,
  handle: (hits: AcceptedHit[]) => Promise<void>,
  options: SeedOptions,
): Promise<SeedResult> {
  const now = options.now ?? Date.now();
  const period = await demoPeriod(clickhouse, options.days, now);
  if (!period) return { events: 0, fromMs: null, untilMs: null, stats: null };
  options.onPlan?.(period.fromMs, period.untilMs);
  const size = options.batch ?? BATCH;
  const traffic = generateTraffic(demoTraffic(period.fromMs, period.untilMs, options.visitsPerDay));
  let written = 0;
  let batch: AcceptedHit[] = [];
  let pending: Promise<void> = Promise.resolve();
  const flush = async (): Promise<void> => {
    const hits = batch;
    batch = [];
    await pending;
    pending = handle(hits).then(() => {
      written += hits.length;
    });
  };
  const stopped = (): boolean => options.signal?.aborted === true;
  try {
    for (;;) {
      if (stopped()) break;
      const next = traffic.next();
      if (next.done) {
        if (batch.length > 0) await flush();
        await pending;
        return { events: written, ...period, stats: next.value };
      }
      for (const hit of next.value) batch.push(hit);
      if (batch.length >= size) await flush();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await pending;
    return { events: written, ...period, stats: null };
  } finally {
    // A failed handler leaves the promise rejected: awaited above, or reported by the caller.
    pending.catch(() => {});
  }
}

/** A demo seed under way (see startDemoSeed). */
export interface DemoSeeding {
  /** what it did; rejects when storing failed */
  done: Promise<SeedResult>;
  /**
   * Stops it between batches and waits for the batch in hand until `deadline` (epoch ms); past
   * that, the aggregator's requests in flight are interrupted. The next start goes on from what
   * was stored.
   */
  stop(deadline: number): Promise<void>;
}

/** 2026-11-21 17:00 MSK */
function moscowTime(epochMs: number): string {
  return `${new Date(epochMs + MOSCOW_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ')} MSK`;
}

/**
 * Seeds the demo project (seedDemo) through an aggregator of its own, telling `log` the period
 * and the outcome. The embedded service runs it after «ready», beside the live traffic, or
 * before it with DEMO_SEED_WAIT.
 */
export function startDemoSeed(clickhouse: ClickHouseClient, options: Omit<SeedOptions, 'signal' | 'onPlan'>, log: (line: string) => void): DemoSeeding {
  const started = Date.now();
  const controller = new AbortController();
  // The demo's generated visitors are new to storage: no visit of theirs can be open.
  const aggregator = createAggregator(clickhouse, { restoreVisits: false });
  const name = `demo project ${DEMO_PROJECT_ID}`;
  const done = seedDemo(clickhouse, aggregator.handle, {
    ...options,
    signal: controller.signal,
    onPlan: (from, until) => log(`${name}: generating its traffic from ${moscowTime(from)} to ${moscowTime(until)}, ${options.visitsPerDay} visits an ordinary day`),
  }).then((result) => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (result.stats) log(`${name}: ${result.events} events of ${result.stats.visits} visits stored in ${seconds} s`);
    else if (result.fromMs !== null) log(`${name}: stopped after ${result.events} events in ${seconds} s; the next start goes on from there`);
    return result;
  });
  return {
    done,
    async stop(deadline) {
      controller.abort();
      const settled = done.then(
        () => true,
        () => true,
      );
      const wait = (ms: number): Promise<boolean> =>
        Promise.race([settled, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), Math.max(0, ms)).unref())]);
      if (await wait(deadline - Date.now())) return;
      aggregator.stop();
      await wait(1_000);
    },
  };
}
