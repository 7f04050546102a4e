import type { HitPublisher } from '@stat/schemas';
import { ReconnectingKafkaPublisher, type KafkaBusConfig, type KafkaWithLog, type LogBus } from '@stat/bus';
import { HitBuffer, startCollector } from '@stat/collector';
import type { Spool } from '../spool.js';
import { openKafkaWithLog } from './hit-logs.js';
import { within, type ProcessKit } from './kit.js';

/** How often a collector's send to Kafka is tried again before its group goes to the durable log instead. */
const KAFKA_SEND_RETRIES = 2;

export interface RunningCollectorRole {
  /** Closes the ports, answers every hit taken (durable or 503), and sends the log on to Kafka while the deadline allows. */
  stop(deadline: number): Promise<void>;
}

/**
 * Starts the collector on COLLECTOR_PORT (and the compat port): into the hit log of embedded
 * mode, or Kafka with the durable log behind it in cluster mode.
 */
export async function startCollectorRole(kit: ProcessKit, kafka: KafkaBusConfig | null, logBus: LogBus | null, spool: Spool): Promise<RunningCollectorRole> {
  const { config, logger, log } = kit;
  // Cluster mode: Kafka, and the durable log while Kafka cannot take a group.
  const kafkaWithLog = kafka ? await openKafka(kit, kafka) : null;
  const publisher: HitPublisher | null = kafkaWithLog ?? logBus;
  if (!publisher) throw new Error('the collector has neither Kafka nor the hit log to write to');
  if (kafkaWithLog) {
    kit.health.bus = kafkaWithLog;
    await publishSpooled(kit, kafkaWithLog, spool);
  }
  const buffer = new HitBuffer(publisher, {
    capacity: config.COLLECTOR_BUFFER,
    maxBatch: config.COLLECTOR_BATCH,
    flushMs: config.COLLECTOR_FLUSH_MS,
  });
  kit.health.buffer = buffer;
  const collector = await startCollector(
    { host: config.HOST, port: config.COLLECTOR_PORT, trustProxy: config.TRUST_PROXY, health: kit.healthReport, compatPort: config.COLLECTOR_COMPAT_PORT, ops: kit.ops },
    buffer,
  );
  log(`collector: http://${config.HOST}:${config.COLLECTOR_PORT}/hit`);
  if (config.COLLECTOR_COMPAT_PORT !== undefined) log(`collector (HTTP/1.0 proxies): http://${config.HOST}:${config.COLLECTOR_COMPAT_PORT}/hit`);
  return {
    stop: async (deadline) => {
      collector.close();
      // The hits taken and not yet answered are written and answered (durable or 503).
      await within(Math.max(0, deadline - Date.now()), buffer.drain(), 'the last group of hits was not written in time').catch((error: unknown) => logger.warn(`collector: ${String(error)}`));
      // What the log holds for Kafka is sent while the stop has time; the rest at the next start.
      if (kafkaWithLog) await sendLogOn(kit, kafkaWithLog, deadline);
    },
  };
}

/** How long a starting collector tries Kafka before it takes hits into its log and tries on behind. */
const KAFKA_START_MS = 5_000;

/**
 * Kafka with the durable log behind it. A collector does not wait for Kafka to start: when Kafka
 * cannot be reached within KAFKA_START_MS, hits go to the log from the first, and are sent on
 * once Kafka answers.
 */
async function openKafka(kit: ProcessKit, kafka: KafkaBusConfig): Promise<KafkaWithLog> {
  const publisher = new ReconnectingKafkaPublisher(kafka, KAFKA_SEND_RETRIES);
  const down = await within(KAFKA_START_MS, publisher.connect(), `no answer within ${KAFKA_START_MS} ms`).then(
    () => null,
    (error: unknown) => error,
  );
  if (down !== null) kit.logger.warn(`collector: Kafka cannot be reached (${String(down)}): hits go to the hit log, sent on once Kafka answers`);
  return openKafkaWithLog(kit, publisher, down);
}

async function sendLogOn(kit: ProcessKit, kafkaWithLog: KafkaWithLog, deadline: number): Promise<void> {
  const sending = Math.max(1_000, deadline - Date.now());
  await within(sending + 1_000, kafkaWithLog.close(Date.now() + sending), 'the Kafka producer did not close in time').catch((error: unknown) => kit.logger.warn(String(error)));
  if (kafkaWithLog.pending > 0) kit.log(`${kafkaWithLog.pending} acknowledged hits stay in the hit log for Kafka: sent at the next start`);
}

/** Hits an earlier version kept at its stop (DATA_DIR/spool) go to Kafka (or the log) now, before new ones. */
async function publishSpooled(kit: ProcessKit, publisher: HitPublisher, spool: Spool): Promise<void> {
  for (const { file, hits } of spool.read()) {
    await publisher.publish(hits);
    spool.remove(file);
    kit.log(`${hits.length} hits kept at the last stop published from ${file}`);
  }
}
