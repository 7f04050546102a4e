import type { HealthReport } from '@stat/schemas';
import type { ClickHouseClient } from '@stat/storage';
import { KafkaWatch } from '@stat/bus';
import { createLogger, type Logger, type Metrics } from '@stat/telemetry';
import { readConfig, type Config } from './config.js';
import { Spool } from './spool.js';
import { stopOnSignals } from './signals.js';
import { prepareAggregator, type AggregatorSource } from './process/aggregator.js';
import { startApiRole } from './process/api.js';
import { startCollectorRole } from './process/collector.js';
import { startDemo, type RunningDemo } from './process/demo.js';
import { startHealthPort } from './process/health-port.js';
import { openHitLog } from './process/hit-logs.js';
import { createKit, sleep, STOP_MS, within } from './process/kit.js';
import { counterSettingsDb, kafkaOf, openClickHouse, storageSettler } from './process/stores.js';

/**
 * Starts the parts named by ROLES in this process, in this order: ClickHouse (migrated), the
 * bus (the durable hit log of embedded mode, or Kafka), the aggregator prepared, the api, the
 * aggregator consuming, the collector, a health port for a process that has no other, then the
 * demo. Embedded mode (the default) runs them all with chDB and its durable hit log as the bus;
 * cluster mode splits them over processes joined by Kafka. A stop runs the other way round.
 */
export async function main(config: Config, logger: Logger = createLogger({ role: config.ROLES.join('+'), level: config.LOG_LEVEL })): Promise<RunningService> {
  const roles = new Set(config.ROLES);
  const kit = createKit(config, logger);
  const spool = new Spool(config.DATA_DIR);

  // The stores first: the aggregator writes ClickHouse and the api reads it (the api probes it itself).
  const clickhouse = roles.has('aggregator') || roles.has('api') ? await openClickHouse(kit, !roles.has('api')) : null;

  // The bus: in embedded mode the collector's durable log, read by the aggregator in this process.
  const kafka = kafkaOf(kit);
  const logBus = kafka || !roles.has('collector') ? null : openHitLog(kit, clickhouse ? await storageSettler(kit) : null);
  kit.health.bus = logBus;
  const watch = kafka ? new KafkaWatch(kafka, config.KAFKA_GROUP) : null;
  if (watch) {
    kit.probes.push({ name: 'Kafka', check: () => watch.reachable() });
    kit.closers.push(() => watch.close());
  }

  // The aggregator before the api (the demo seed writes through the stores), consuming only once
  // the api is up: it reads the projects' counter settings from the api's Postgres.
  const source: AggregatorSource | null = kafka && watch ? { kind: 'kafka', kafka, watch } : logBus ? { kind: 'log', bus: logBus } : null;
  const prepared = roles.has('aggregator') && clickhouse && source ? await prepareAggregator(kit, clickhouse, source, spool) : null;

  let demo: RunningDemo | null = null;
  const api = roles.has('api') && clickhouse ? await startApiRole(kit, clickhouse, () => demo?.filling() ?? false) : null;
  const ingestion = prepared ? await prepared.start(await counterSettingsDb(kit, api)) : null;
  const collector = roles.has('collector') ? await startCollectorRole(kit, kafka, logBus, spool) : null;
  if (!api && !collector) await startHealthPort(kit);

  kit.log(`ready (${[...roles].join(', ')})`);
  demo = startDemo(kit, prepared?.seedLater ?? null, roles.has('collector') && roles.has('aggregator'));

  const stop = async (deadline = Date.now() + config.STOP_DRAIN_MS + STOP_MS): Promise<void> => {
    kit.markStopping();
    // Serve on, unready, while a balancer notices; the stop's own time comes after.
    if (config.STOP_DRAIN_MS > 0) await sleep(Math.min(config.STOP_DRAIN_MS, deadline - STOP_MS - Date.now()));
    // Leave time after ingestion to close the api and the stores.
    const ingestionDeadline = deadline - 2_000;
    // The demo first: what its seed has not stored is generated again at the next start.
    await demo?.stop(ingestionDeadline);
    await collector?.stop(ingestionDeadline);
    await ingestion?.stop(ingestionDeadline);
    // Each close bounded: what is still open at the deadline is left to the exit (every group the
    // hit log took is fsynced already, so a close cut short loses nothing).
    const closeBy = (ms: number, closing: Promise<void>, what: string): Promise<void> =>
      within(ms, closing, `${what} did not close in time`).catch((error: unknown) => logger.warn(String(error)));
    if (logBus) await closeBy(Math.max(500, deadline - Date.now()), logBus.close(), 'the hit log');
    for (const close of kit.closers) await closeBy(Math.max(500, deadline - Date.now()), close(), 'a part');
    if (clickhouse) await closeBy(1_000, clickhouse.close(), 'ClickHouse');
  };
  return { stop, clickhouse, health: kit.healthReport, metrics: kit.metrics };
}

/** The parts of one process, started. */
export interface RunningService {
  /**
   * Stops: no new hits, everything acknowledged answered and stored, or (storage down) left in
   * the hit log or Kafka for the next start; then the api and the stores closed; by the deadline
   * (default STOP_DRAIN_MS, serving on while unready, and then STOP_MS).
   */
  stop(deadline?: number): Promise<void>;
  /** The ClickHouse client of the aggregator and the api, for tests; null for a collector alone. */
  clickhouse: ClickHouseClient | null;
  /** What GET /health answers. */
  health(): HealthReport;
  /** The process's metrics (GET /metrics on its ports). */
  metrics: Metrics;
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
    stopOnSignals({ on: (signal, listener) => process.on(signal, listener), exit: (code) => process.exit(code), log: (line) => logger.info(line) }, stop, config.STOP_DRAIN_MS + STOP_MS);
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
