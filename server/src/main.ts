import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createClickHouse, migrateClickHouse, type ClickHouseClient, type HitConsumer, type HitPublisher } from '@stat/schemas';
import { KafkaConsumer, KafkaPublisher, MemoryBus, type KafkaBusConfig } from '@stat/bus';
import { HitBuffer, startCollector, type RunningCollector } from '@stat/collector';
import { createAggregator, loadGeo, siteRulesFrom, storeGeoDictionary, type SiteRulesLoader } from '@stat/aggregator';
import { openDb, readCounterSettings, startApi, type Db, type RunningApi } from '@stat/api';
import { readConfig, type Config } from './config.js';
import { DEMO_PROJECT_ID, seedDemo } from './demo/seed.js';

/**
 * Starts the parts named by ROLES in this process. Embedded mode (the default) runs them all
 * with chDB and an in-process bus; cluster mode splits them over processes joined by Kafka.
 */
export async function main(config: Config): Promise<() => Promise<void>> {
  const roles = new Set(config.ROLES);
  const log = (m: string): void => console.log(m);
  const stops: (() => Promise<void>)[] = [];

  let clickhouse: ClickHouseClient | null = null;
  if (roles.has('aggregator') || roles.has('api')) {
    clickhouse = openClickHouse(config);
    await migrateClickHouse(clickhouse);
  }

  const kafka: KafkaBusConfig | null =
    config.KAFKA_BROKERS.length > 0
      ? { brokers: config.KAFKA_BROKERS, topic: config.KAFKA_TOPIC, partitions: config.KAFKA_PARTITIONS, clientId: 'stat' }
      : null;
  const memoryBus = kafka ? null : new MemoryBus();

  // The aggregator is built first (the demo seed writes through it) but consumes the bus only
  // once the api is up: it reads the projects' counter settings from the api's Postgres.
  let startConsuming: ((db: Db | null) => Promise<void>) | null = null;
  if (roles.has('aggregator') && clickhouse) {
    const store = clickhouse;
    // The geo database opens once here rather than on the first hit.
    await loadGeo();
    // The names of its places, for the reports (ch_geo); written only when the files changed.
    const places = await storeGeoDictionary(store);
    if (places > 0) log(`geo dictionary: ${places} places written to ch_geo`);
    if (config.DEMO_SEED) {
      const started = Date.now();
      // History for an empty project: no visit of a previous run can be open.
      const seeder = createAggregator(store, { restoreVisits: false });
      const written = await seedDemo(store, seeder.handle, config.DEMO_DAYS);
      if (written > 0) log(`demo project ${DEMO_PROJECT_ID}: ${written} events generated in ${Date.now() - started} ms`);
    }
    startConsuming = async (db) => {
      const aggregator = createAggregator(store, { siteRules: db ? counterSettingsLoader(db) : null });
      if (!db) log('aggregator: no Postgres in this process (DATABASE_URL unset): counter settings are not applied to hits');
      const consumer: HitConsumer = kafka ? new KafkaConsumer(kafka, config.KAFKA_GROUP) : (memoryBus as MemoryBus);
      await consumer.start(aggregator.handle);
      // Stopped before the api closes the Postgres it reads settings from.
      stops.unshift(async () => {
        await consumer.stop();
        aggregator.stop();
        const { stored, droppedBots, droppedByRules, droppedNoProject, skippedReplays } = aggregator.stats;
        log(
          `aggregator: ${stored} events stored, ${droppedBots} bot hits dropped, ${droppedByRules} hits excluded by counter settings, ` +
            `${droppedNoProject} hits of unknown or deleted projects dropped, ${skippedReplays} replayed hits skipped`,
        );
      });
    };
  }

  let api: RunningApi | null = null;
  if (roles.has('api') && clickhouse) {
    api = await startApi(
      {
        host: config.HOST,
        port: config.API_PORT,
        prefix: config.API_PREFIX,
        webDir: config.webDir,
        snippetDir: config.snippetDir,
        postgres: config.DATABASE_URL
          ? { kind: 'postgres', url: config.DATABASE_URL }
          : { kind: 'pglite', dataDir: join(config.DATA_DIR, 'postgres') },
        redisUrl: config.REDIS_URL,
        publicUrl: config.apiPublicUrl,
        collectorPublicUrl: config.collectorPublicUrl,
        cookieSecure: config.COOKIE_SECURE,
        sessionTtlS: config.SESSION_TTL_S,
        refreshTtlS: config.REFRESH_TTL_S,
        registrationOpen: config.REGISTRATION_OPEN,
        trustProxy: config.TRUST_PROXY,
      },
      clickhouse,
    );
    stops.push(() => (api as RunningApi).close());
    log(`web app:   http://${config.HOST}:${config.API_PORT}/stat/projects/${DEMO_PROJECT_ID}/new/report/summary`);
    log(`api:       http://${config.HOST}:${config.API_PORT}/${config.API_PREFIX}/api/report/v1.0/...`);
    log(`snippet:   http://${config.HOST}:${config.API_PORT}/counter/counter.js`);
  }

  if (startConsuming) {
    let db: Db | null = api?.db ?? null;
    if (!db && config.DATABASE_URL) {
      const own = await openDb({ kind: 'postgres', url: config.DATABASE_URL, max: 2 });
      db = own;
      stops.push(() => own.close());
    }
    await startConsuming(db);
  }

  if (roles.has('collector')) {
    const publisher: HitPublisher = kafka ? await KafkaPublisher.open(kafka) : (memoryBus as MemoryBus);
    const buffer = new HitBuffer(publisher, {
      capacity: config.COLLECTOR_BUFFER,
      maxBatch: config.COLLECTOR_BATCH,
      flushMs: config.COLLECTOR_FLUSH_MS,
      retryMs: 500,
    });
    const collector: RunningCollector = await startCollector(
      { host: config.HOST, port: config.COLLECTOR_PORT, trustProxy: config.TRUST_PROXY },
      buffer,
    );
    // Stopped first: no new hits, then everything accepted goes to the bus before it closes.
    stops.unshift(async () => {
      collector.close();
      await buffer.drain();
      if (kafka) await publisher.close();
    });
    log(`collector: http://${config.HOST}:${config.COLLECTOR_PORT}/hit`);
  }

  if (clickhouse) {
    const client = clickhouse;
    stops.push(() => client.close());
  }
  log(`ready (${[...roles].join(', ')})`);
  return async () => {
    for (const stop of stops) await stop();
  };
}

function openClickHouse(config: Config): ClickHouseClient {
  if (config.CLICKHOUSE_URL) {
    return createClickHouse({
      kind: 'http',
      url: config.CLICKHOUSE_URL,
      username: config.CLICKHOUSE_USER,
      password: config.CLICKHOUSE_PASSWORD,
      database: config.CLICKHOUSE_DATABASE,
    });
  }
  const path = join(config.DATA_DIR, 'clickhouse');
  mkdirSync(path, { recursive: true });
  return createClickHouse({ kind: 'chdb', path });
}

async function run(): Promise<void> {
  let config: Config;
  try {
    config = readConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  }
  const stop = await main(config);
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('stop failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

/** The aggregator's reader of counter settings, from the api's Postgres. */
function counterSettingsLoader(db: Db): SiteRulesLoader {
  return async (projects) => {
    const settings = await readCounterSettings(db, projects);
    return new Map([...settings].map(([id, s]) => [id, siteRulesFrom(s)]));
  };
}
