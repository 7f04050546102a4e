import type { BatchHandler, BatchPosition, DeadLetterPublisher, WriterHealth } from '@stat/schemas';
import type { ClickHouseClient } from '@stat/storage';
import type { Metrics } from '@stat/telemetry';
import { VisitCutter } from './sessions.js';
import { EventStore } from './storage.js';
import { createEnricher, type Enricher } from './enrich/index.js';
import { SiteRulesCache, type SiteRulesLoader } from './site-rules.js';
import { oldestOf, readBatch } from './batch/messages.js';
import { BatchPipeline } from './batch/pipeline.js';
import { SliceRebuilder } from './batch/rebuild-slices.js';
import { ReplayCheck } from './batch/replay-check.js';
import { ResentCheck } from './batch/resent-check.js';
import { Tally, type AggregatorStats } from './batch/tally.js';
import { BatchTries } from './batch/tries.js';
import { VisitRecall } from './batch/visit-recall.js';
import { BatchWriter } from './batch/write-batch.js';

export type { DeadLetterReason } from './batch/cut-batch.js';
export type { AggregatorStats };

export interface AggregatorOptions {
  /** Pause between tries of a batch that met an outage; doubles up to maxRetryMs. */
  retryMs: number;
  maxRetryMs: number;
  /**
   * Look up visits left open by a previous run for visitors this process has not seen yet.
   * Off only for writing history into a project known to be empty (the demo seed).
   */
  restoreVisits: boolean;
  enricher: Enricher;
  /**
   * Reads the projects' counter settings (whitelist, blacklist, merging, hashes). Without it
   * every hit counts under the address it came with (the demo seed, tests without Postgres).
   */
  siteRules: SiteRulesLoader | null;
  /**
   * Where dead letters go besides ClickHouse's dead_hits (cluster mode: Kafka's dead-letter
   * topic, see KafkaDeadLetters). A failure to publish is an outage: the batch is tried again.
   */
  deadLetters: DeadLetterPublisher | null;
  log: (message: string) => void;
  /** The process's metrics (batch sizes, write latency, stored, dropped and dead-lettered events); none by default. */
  metrics: Metrics | null;
}

const DEFAULTS: Omit<AggregatorOptions, 'enricher'> = {
  retryMs: 250,
  maxRetryMs: 10_000,
  restoreVisits: true,
  siteRules: null,
  deadLetters: null,
  log: (m) => console.error(m),
  metrics: null,
};

/** Whether the aggregator keeps up, for a health check: the writer of the health report. */
export type AggregatorHealth = WriterHealth;

/** The aggregator: the bus's batch handler and what it tells the operator. */
export interface Aggregator {
  /**
   * Stores a batch. Resolves once every message is stored, dropped or set aside as a dead
   * letter; while an outage lasts it waits and tries again, never resolving, so the bus never
   * moves past an unwritten batch.
   */
  handle: BatchHandler;
  /** live counters, see AggregatorStats */
  stats: AggregatorStats;
  /**
   * Makes a handle that is waiting out an outage reject at once (its sleep and its requests in
   * flight interrupted) with Error('aggregator stopped'). Later calls still try once, and reject
   * so only if that try fails.
   */
  stop(): void;
  health(): AggregatorHealth;
  /** server time (epoch ms) of the newest hit this aggregator stored, or null before the first */
  newestStoredAt(): number | null;
  /** the visits open in this process */
  visits: VisitCutter;
}

/**
 * Turns bus batches into `events` rows and writes them, through the pipeline of batch/pipeline.ts:
 * skipping what a replayed batch already stored, the steps of each hit (steps/), restoring visits
 * and visit numbers, and the visit state's journal (a batch not stored is cut again from the
 * state before it).
 *
 * Bad data is a value: a message that is no accepted hit, or a row ClickHouse refuses, becomes a
 * dead letter (dead_hits, and options.deadLetters) and the rest of the batch is stored. An outage
 * is an exception: the batch is tried again, with growing pauses, until it is stored or stop().
 */
export function createAggregator(clickhouse: ClickHouseClient, options: Partial<AggregatorOptions> = {}): Aggregator {
  const opts: AggregatorOptions = { ...DEFAULTS, enricher: options.enricher ?? createEnricher(), ...options };
  const tries = new BatchTries(opts);
  const store = new EventStore(clickhouse, () => tries.signal());
  const rebuilder = new SliceRebuilder(clickhouse, () => tries.signal());
  const visits = new VisitCutter();
  const tally = new Tally(opts.metrics);
  const pipeline = new BatchPipeline({
    replays: new ReplayCheck(store, (tokens) => rebuilder.rebuild(tokens)),
    resends: new ResentCheck(store),
    rules: opts.siteRules ? new SiteRulesCache(opts.siteRules) : null,
    enricher: opts.enricher,
    visits,
    recall: new VisitRecall(store, visits, { restore: opts.restoreVisits, startedAt: Date.now() }),
    writer: new BatchWriter(store, opts.deadLetters, opts.metrics),
    tally,
  });

  const handle = async (bodies: readonly unknown[], position?: BatchPosition): Promise<void> => {
    const messages = readBatch(bodies, position);
    if (messages.length === 0) return;
    opts.metrics?.batchSize.observe(messages.length);
    const batch = pipeline.start(messages);
    try {
      await tries.run(messages.length, oldestOf(messages, Date.now()), (afterFailedTry) => batch.attempt(afterFailedTry));
    } catch (error) {
      batch.abandon();
      throw error;
    }
  };

  return {
    handle,
    visits,
    stats: tally.stats,
    stop: () => tries.stop(),
    health: (): AggregatorHealth => ({ ...tries.health }),
    newestStoredAt: () => tally.newestStoredAt,
  };
}
