import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { healthOf, type AcceptedHit, type HealthReport, type HealthSources, type HitConsumer, type HitPublisher } from '@stat/schemas';
import { createClickHouse, migrateClickHouse, type ClickHouseClient } from '@stat/storage';
import { KafkaConsumer, KafkaDeadLetters, KafkaPublisher, KafkaWatch, MemoryBus, type KafkaBusConfig } from '@stat/bus';
import { createLogger, createMetrics, opsAnswer, readinessFrom, type Logger, type Metrics, type OpsEndpoints, type Probe } from '@stat/telemetry';
import { HitBuffer, startCollector, type RunningCollector } from '@stat/collector';
import { createAggregator, loadGeo, siteRulesFrom, storeGeoDictionary, storeSystemDictionary, type SiteRulesLoader } from '@stat/aggregator';
import { openDb, readCounterSettings, startApi, type Db, type RunningApi } from '@stat/api';
import { readConfig, type Config } from './config.js';
import { Spool } from './spool.js';
import { stopOnSignals } from './signals.js';
import { DEMO_PROJECT_ID, startDemoSeed, type DemoSeeding } from './demo/seed.js';
import { localCollector, startDemoLive } from './demo/live.js';

/**
 * Starts the parts named by ROLES in this process. Embedded mode (the default) runs them all
 * with chDB and an in-process bus; cluster mode splits them over processes joined by Kafka.
 */
export async function main(config: Config, logger: Logger = createLogger({ role: config.ROLES.join('+'), level: config.LOG_LEVEL })): Promise<RunningService> {
  const roles = new Set(config.ROLES);
  const log = (m: string): void => logger.info(m);
  const stops: (() => Promise<void>)[] = [];
  // One registry for the process; the servers it needs, probed for /ready (the api adds its own).
  const metrics = createMetrics();
  const probes: Probe[] = [];

  let clickhouse: ClickHouseClient | null = null;
  if (roles.has('aggregator') || roles.has('api')) {
    clickhouse = openClickHouse(config);
    await migrateClickHouse(clickhouse);
  }

  const kafkaLog = logger.child({ part: 'kafka' });
  const kafka: KafkaBusConfig | null =
    config.KAFKA_BROKERS.length > 0
      ? {
          brokers: config.KAFKA_BROKERS,
          topic: config.KAFKA_TOPIC,
          partitions: config.KAFKA_PARTITIONS,
          clientId: 'stat',
          log: ({ level, namespace, message }) => kafkaLog[level]({ namespace }, message),
        }
      : null;
  // Bounded like the collector's buffer: when storage is down the backlog stops growing here and
  // the collector answers 503, which the snippet retries.
  const memoryBus = kafka ? null : new MemoryBus({ capacity: config.COLLECTOR_BUFFER });
  if (memoryBus) metrics.track('busBacklog', () => memoryBus.pending);
  const spool = new Spool(config.DATA_DIR);
  const health: HealthSources = { bus: memoryBus };
  const healthReport = () => healthOf(health);
  const ops: OpsEndpoints = { metrics, ready: readinessFrom(healthReport, probes) };
  if (clickhouse && !roles.has('api')) {
    // The api probes ClickHouse itself; an aggregator without it here.
    const store = clickhouse;
    probes.push({
      name: 'ClickHouse',
      check: async () => {
        const ping = await store.ping();
        if (!ping.success) throw ping.error;
      },
    });
  }
  const watch = kafka ? new KafkaWatch(kafka, config.KAFKA_GROUP) : null;
  if (watch) {
    probes.push({ name: 'Kafka', check: () => watch.reachable() });
    stops.push(() => watch.close());
  }
  // What a stop does before the api and the stores close: store or keep on disk what was acknowledged.
  let stopIngestion: (deadline: number) => Promise<void> = async () => {};

  // The aggregator is built first (the demo seed writes through it) but consumes the bus only
  // once the api is up: it reads the projects' counter settings from the api's Postgres.
  let startConsuming: ((db: Db | null) => Promise<void>) | null = null;
  /** The demo seed, when it runs after «ready». */
  let seedLater: (() => DemoSeeding) | null = null;
  /** Whether that seed is still filling the demo (the api tells the demo's readers). */
  let demoFilling = false;
  if (roles.has('aggregator') && clickhouse) {
    const store = clickhouse;
    const aggregatorLog = logger.child({ part: 'aggregator' });
    // The geo database opens once here rather than on the first hit.
    await loadGeo();
    // The names of its places, for the reports (ch_geo); written only when the files changed.
    const places = await storeGeoDictionary(store);
    if (places > 0) log(`geo dictionary: ${places} places written to ch_geo`);
    // And the names of the traffic systems its referrer tables know (ch_traffic_systems).
    const systems = await storeSystemDictionary(store);
    if (systems > 0) log(`traffic systems: ${systems} names written to ch_traffic_systems`);
    if (config.DEMO_SEED) {
      const seed = (): DemoSeeding => startDemoSeed(store, { days: config.DEMO_DAYS, visitsPerDay: config.DEMO_VISITS_PER_DAY }, log);
      // A month of a site of thousands of visits a day takes the aggregator minutes on two
      // cores: by default the service is ready first and the demo's reports fill from the oldest day.
      if (config.DEMO_SEED_WAIT) await seed().done;
      else seedLater = seed;
    }
    startConsuming = async (db) => {
      const deadLetters = kafka ? await KafkaDeadLetters.open(kafka) : undefined;
      const aggregator = createAggregator(store, {
        siteRules: db ? counterSettingsLoader(db) : null,
        deadLetters,
        metrics,
        log: (m) => aggregatorLog.warn(m),
      });
      health.writer = () => aggregator.health();
      metrics.track('newestStoredAt', () => aggregator.newestStoredAt());
      if (watch) metrics.track('consumerLag', () => watch.lag());
      if (!db) log('aggregator: no Postgres in this process (DATABASE_URL unset): counter settings are not applied to hits');
      const consumer: HitConsumer = kafka ? new KafkaConsumer(kafka, config.KAFKA_GROUP, (m) => aggregatorLog.warn(m)) : (memoryBus as MemoryBus);
      if (memoryBus) restoreSpooled(memoryBus);
      await consumer.start(aggregator.handle);
      const logStats = (): void => {
        const { stored, droppedBots, droppedByRules, droppedNoProject, skippedReplays, deadLettered } = aggregator.stats;
        log(
          `aggregator: ${stored} events stored, ${droppedBots} bot hits dropped, ${droppedByRules} hits excluded by counter settings, ` +
            `${droppedNoProject} hits of unknown or deleted projects dropped, ${deadLettered} set aside in dead_hits, ${skippedReplays} replayed hits skipped`,
        );
      };
      stopIngestion = async (deadline) => {
        if (memoryBus) {
          // Store what was acknowledged while storage takes it; once writes fail, waiting
          // only spends the time the stop has.
          while (memoryBus.pending > 0 && Date.now() < deadline && !aggregator.health().failing) await sleep(50);
        }
        // A write that is retrying an outage gives up now; in cluster mode its offsets stay
        // uncommitted in Kafka, in embedded mode its hits stay queued for the spool below.
        aggregator.stop();
        await within(Math.max(0, deadline - Date.now()), consumer.stop(), 'the consumer did not stop in time').catch((error: unknown) => logger.warn(String(error)));
        if (memoryBus) keepOnDisk(memoryBus.takeAll(), 'not stored');
        if (deadLetters) await within(1_000, deadLetters.close(), 'the dead-letter producer did not close in time').catch((error: unknown) => logger.warn(String(error)));
        logStats();
      };
    };
  }

  /** Hits a stop could not store: on disk for the next start (a second restart would lose them in memory). */
  const keepOnDisk = (hits: AcceptedHit[], what: string): void => {
    const file = spool.write(hits);
    if (file) log(`${hits.length} acknowledged hits ${what}: kept in ${file}, stored at the next start`);
  };

  /** Hands the hits kept by earlier stops to the in-process bus; each file goes once its hits are stored. */
  const restoreSpooled = (bus: MemoryBus): void => {
    for (const { file, hits } of spool.read()) {
      const through = bus.requeue(hits);
      log(`${hits.length} hits kept at the last stop queued again from ${file}`);
      void bus.handledThrough(through).then(() => spool.remove(file));
    }
  };

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
        health: healthReport,
        demoState: () => ({ filling: demoFilling }),
        reportRequestsPerMinute: config.REPORT_REQUESTS_PER_MINUTE,
        goalCreationsPerMinute: config.GOAL_CREATIONS_PER_MINUTE,
        reportMaxMemoryBytes: config.REPORT_MAX_MEMORY_BYTES,
        reportMaxRowsToRead: config.REPORT_MAX_ROWS_TO_READ,
        reportSampleMinEvents: config.REPORT_SAMPLE_MIN_EVENTS,
        metrics,
        logger: logger.child({ part: 'api' }),
        ready: ops.ready,
      },
      clickhouse,
    );
    probes.push(...api.probes);
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
      // Every batch reads the projects' counter settings from it.
      probes.push({ name: 'Postgres', check: () => own.query('SELECT 1') });
    }
    await startConsuming(db);
  }

  let stopCollector: (deadline: number) => Promise<void> = async () => {};
  if (roles.has('collector')) {
    const publisher: HitPublisher = kafka ? await KafkaPublisher.open(kafka) : (memoryBus as MemoryBus);
    if (kafka) await publishSpooled(publisher);
    const buffer = new HitBuffer(publisher, {
      capacity: config.COLLECTOR_BUFFER,
      maxBatch: config.COLLECTOR_BATCH,
      flushMs: config.COLLECTOR_FLUSH_MS,
      retryMs: 500,
    });
    health.buffer = buffer;
    const collector: RunningCollector = await startCollector(
      { host: config.HOST, port: config.COLLECTOR_PORT, trustProxy: config.TRUST_PROXY, health: healthReport, compatPort: config.COLLECTOR_COMPAT_PORT, ops },
      buffer,
    );
    stopCollector = async (deadline) => {
      collector.close();
      if (memoryBus) {
        // The bus is in this process: everything acknowledged joins its queue, whatever its bound.
        memoryBus.requeue(await buffer.takeAll());
        return;
      }
      await buffer.drain(Math.max(0, deadline - Date.now())).catch((error: unknown) => logger.warn(`collector: ${String(error)}`));
      keepOnDisk(await buffer.takeAll(), 'not on the bus');
      await within(1_000, publisher.close(), 'the Kafka producer did not close in time').catch((error: unknown) => logger.warn(String(error)));
    };
    log(`collector: http://${config.HOST}:${config.COLLECTOR_PORT}/hit`);
    if (config.COLLECTOR_COMPAT_PORT !== undefined) log(`collector (HTTP/1.0 proxies): http://${config.HOST}:${config.COLLECTOR_COMPAT_PORT}/hit`);
  }

  /** Cluster mode: hits a stop could not put on Kafka go to Kafka now, before new ones. */
  async function publishSpooled(publisher: HitPublisher): Promise<void> {
    for (const { file, hits } of spool.read()) {
      await publisher.publish(hits);
      spool.remove(file);
      log(`${hits.length} hits kept at the last stop published from ${file}`);
    }
  }

  // A process with neither the api nor the collector (an aggregator alone) has no port of its
  // own: /health, /live, /ready and /metrics get one, so that every process can say how it is.
  if (!roles.has('api') && !roles.has('collector')) {
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const answer = req.method !== 'GET' ? Promise.resolve(null) : path === '/health' ? Promise.resolve({ status: 200, contentType: 'application/json', body: JSON.stringify(healthReport()) }) : opsAnswer(path, ops);
      answer.then(
        (found) => {
          res.writeHead(found?.status ?? 404, { 'content-type': found?.contentType ?? 'application/json', 'cache-control': 'no-store' });
          res.end(found?.body ?? '{"error":"not found"}');
        },
        (error: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: String(error) }));
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.HEALTH_PORT, config.HOST, resolve);
    });
    stops.push(() => new Promise((resolve) => server.close(() => resolve())));
    log(`health:    http://${config.HOST}:${config.HEALTH_PORT}/health (and /live, /ready, /metrics)`);
  }

  log(`ready (${[...roles].join(', ')})`);
  const demo = seedLater?.() ?? null;
  demoFilling = demo !== null;
  // Storing failed (an outage that outlasted the stop, a full disk): the service goes on without it.
  demo?.done
    .catch((error: unknown) => logger.error(`demo project ${DEMO_PROJECT_ID}: the seed failed: ${String(error)}`))
    .finally(() => {
      demoFilling = false;
    });
  // The demo's live visits, through this process's own collector (embedded mode).
  const live = config.DEMO_SEED && config.DEMO_LIVE && roles.has('collector') && roles.has('aggregator')
    ? startDemoLive({ collectorUrl: localCollector(config.HOST, config.COLLECTOR_PORT), visitsPerDay: config.DEMO_VISITS_PER_DAY }, log)
    : null;
  const stop = async (deadline = Date.now() + STOP_MS): Promise<void> => {
    // Leave time after ingestion to close the api and the stores.
    const ingestionDeadline = deadline - 2_000;
    live?.stop();
    // The demo seed first: what it has not stored is generated again at the next start.
    if (demo) await demo.stop(Math.min(ingestionDeadline, Date.now() + 5_000));
    await stopCollector(ingestionDeadline);
    await stopIngestion(ingestionDeadline);
    for (const stop of stops) await within(Math.max(500, deadline - Date.now()), stop(), 'a part did not close in time').catch((error: unknown) => logger.warn(String(error)));
    if (clickhouse) await within(1_000, clickhouse.close(), 'ClickHouse did not close in time').catch((error: unknown) => logger.warn(String(error)));
  };
  return { stop, clickhouse, health: healthReport, metrics };
}

/** The parts of one process, started. */
export interface RunningService {
  /**
   * Stops: no new hits, everything acknowledged stored or (storage down) kept on disk in
   * DATA_DIR/spool, then the api and the stores closed; by the deadline (default STOP_MS).
   */
  stop(deadline?: number): Promise<void>;
  /** The ClickHouse client of the aggregator and the api, for tests; null for a collector alone. */
  clickhouse: ClickHouseClient | null;
  /** What GET /health answers. */
  health(): HealthReport;
  /** The process's metrics (GET /metrics on its ports). */
  metrics: Metrics;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** How long a stop may take: it stores or sets aside on disk everything acknowledged within it. */
export const STOP_MS = 15_000;

/** The promise, or a rejection once `ms` passed (what is stopped must not hold the exit forever). */
async function within<T>(ms: number, promise: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
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
    // No logger yet: its level is configuration too.
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  }
  const logger = createLogger({ role: config.ROLES.join('+'), level: config.LOG_LEVEL });
  try {
    const { stop } = await main(config, logger);
    stopOnSignals({ on: (signal, listener) => process.on(signal, listener), exit: (code) => process.exit(code), log: (line) => logger.info(line) }, stop, STOP_MS);
  } catch (error) {
    logger.fatal({ err: error }, 'the service could not start');
    process.exit(1);
  }
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
