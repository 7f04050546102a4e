import type { HitConsumer } from '@stat/schemas';
import type { ClickHouseClient } from '@stat/storage';
import { KafkaConsumer, KafkaDeadLetters, type KafkaBusConfig, type KafkaWatch, type LogBus } from '@stat/bus';
import { createAggregator, loadGeo, storeGeoDictionary, storeSystemDictionary, type Aggregator } from '@stat/aggregator';
import type { Db } from '@stat/api';
import { startDemoSeed, type DemoSeeding } from '../demo/seed.js';
import type { Spool } from '../spool.js';
import { sleep, within, type ProcessKit } from './kit.js';
import { counterSettingsLoader } from './stores.js';

/** What the aggregator of embedded or cluster mode reads from: the hit log, or Kafka (with a watch of its lag). */
export type AggregatorSource = { kind: 'log'; bus: LogBus } | { kind: 'kafka'; kafka: KafkaBusConfig; watch: KafkaWatch };

/** The aggregator prepared: its dictionaries written, the demo seed ready; it consumes once started. */
export interface PreparedAggregator {
  /** The demo seed to run after «ready», when it does not run before. */
  seedLater: (() => DemoSeeding) | null;
  /** Consumes the bus; counter settings come from `db` (none without Postgres). */
  start(db: Db | null): Promise<RunningIngestion>;
}

interface RunningIngestion {
  /** Stores what was acknowledged while storage takes it, then stops consuming, by the deadline. */
  stop(deadline: number): Promise<void>;
}

/**
 * Prepares the aggregator before the api starts (the demo seed writes through the stores): the
 * geo database opened once, the names of its places and of the traffic systems written, the demo
 * seeded now (DEMO_SEED_WAIT) or later.
 */
export async function prepareAggregator(kit: ProcessKit, store: ClickHouseClient, source: AggregatorSource, spool: Spool): Promise<PreparedAggregator> {
  const { config, log } = kit;
  // The geo database opens once here rather than on the first hit.
  await loadGeo();
  // The names of its places, for the reports (ch_geo); written only when the files changed.
  const places = await storeGeoDictionary(store);
  if (places > 0) log(`geo dictionary: ${places} places written to ch_geo`);
  // And the names of the traffic systems its referrer tables know (ch_traffic_systems).
  const systems = await storeSystemDictionary(store);
  if (systems > 0) log(`traffic systems: ${systems} names written to ch_traffic_systems`);
  let seedLater: (() => DemoSeeding) | null = null;
  if (config.DEMO_SEED) {
    const seed = (): DemoSeeding => startDemoSeed(store, { days: config.DEMO_DAYS, visitsPerDay: config.DEMO_VISITS_PER_DAY }, log);
    // A month of a site of thousands of visits a day takes the aggregator minutes on two
    // cores: by default the service is ready first and the demo's reports fill from the oldest day.
    if (config.DEMO_SEED_WAIT) await seed().done;
    else seedLater = seed;
  }
  return { seedLater, start: (db) => startIngestion(kit, store, source, spool, db) };
}

async function startIngestion(kit: ProcessKit, store: ClickHouseClient, source: AggregatorSource, spool: Spool, db: Db | null): Promise<RunningIngestion> {
  const { metrics, log, logger } = kit;
  const aggregatorLog = logger.child({ part: 'aggregator' });
  const deadLetters = source.kind === 'kafka' ? await KafkaDeadLetters.open(source.kafka) : undefined;
  const aggregator = createAggregator(store, {
    siteRules: db ? counterSettingsLoader(db) : null,
    deadLetters,
    metrics,
    log: (m) => aggregatorLog.warn(m),
  });
  kit.health.writer = () => aggregator.health();
  metrics.track('newestStoredAt', () => aggregator.newestStoredAt());
  if (source.kind === 'kafka') metrics.track('consumerLag', () => source.watch.lag());
  if (!db) log('aggregator: no Postgres in this process (DATABASE_URL unset): counter settings are not applied to hits');
  const consumer: HitConsumer = source.kind === 'kafka' ? new KafkaConsumer(source.kafka, kit.config.KAFKA_GROUP, (m) => aggregatorLog.warn(m)) : source.bus;
  if (source.kind === 'log') await restoreSpooled(kit, source.bus, spool);
  await consumer.start(aggregator.handle);
  return {
    stop: async (deadline) => {
      if (source.kind === 'log') {
        // Store what was acknowledged while storage takes it; once writes fail, waiting
        // only spends the time the stop has.
        while (source.bus.pending > 0 && Date.now() < deadline && !aggregator.health().failing) await sleep(50);
      }
      // A write that is retrying an outage gives up now; in cluster mode its offsets stay
      // uncommitted in Kafka, in embedded mode its hits stay in the hit log for the next start.
      aggregator.stop();
      await within(Math.max(0, deadline - Date.now()), consumer.stop(), 'the consumer did not stop in time').catch((error: unknown) => logger.warn(String(error)));
      if (deadLetters) await within(1_000, deadLetters.close(), 'the dead-letter producer did not close in time').catch((error: unknown) => logger.warn(String(error)));
      logStats(kit, aggregator);
    },
  };
}

function logStats(kit: ProcessKit, aggregator: Aggregator): void {
  const { stored, droppedBots, droppedByRules, droppedNoProject, skippedReplays, deadLettered } = aggregator.stats;
  kit.log(
    `aggregator: ${stored} events stored, ${droppedBots} bot hits dropped, ${droppedByRules} hits excluded by counter settings, ` +
      `${droppedNoProject} hits of unknown or deleted projects dropped, ${deadLettered} set aside in dead_hits, ${skippedReplays} replayed hits skipped`,
  );
}

/** Moves the hits an earlier version kept at its stop (DATA_DIR/spool) into the durable log. */
async function restoreSpooled(kit: ProcessKit, bus: LogBus, spool: Spool): Promise<void> {
  for (const { file, hits } of spool.read()) {
    await bus.keep(hits);
    spool.remove(file);
    kit.log(`${hits.length} hits kept at an earlier stop moved into the hit log from ${file}`);
  }
}
