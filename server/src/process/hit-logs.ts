import { join } from 'node:path';
import type { HitPublisher } from '@stat/schemas';
import { KafkaWithLog, LogBus, type HitLogGauges } from '@stat/bus';
import type { ProcessKit } from './kit.js';

/**
 * The durable hit log of embedded mode, the bus, with its metrics; says what a crash left in it.
 * It keeps stored hits until `settleStorage` (chDB's files synced) says they survive a power cut.
 * Bounded like the collector's buffer: when storage is down the backlog stops growing here and
 * the collector answers 503 (not taken).
 */
export function openHitLog(kit: ProcessKit, settleStorage: (() => Promise<void>) | null): LogBus {
  const { config, metrics, log } = kit;
  const bus = LogBus.open({
    dir: join(config.DATA_DIR, 'hitlog'),
    capacity: config.COLLECTOR_BUFFER,
    segmentBytes: config.HITLOG_SEGMENT_BYTES,
    settleStorage,
    releaseEveryMs: config.HITLOG_RELEASE_MS,
  });
  const { records, tornBytes, damaged } = bus.recovery;
  if (records.length > 0) log(`hit log: ${records.length} hits not known to be stored queued again (what storage holds already is skipped)`);
  if (tornBytes > 0) log(`hit log: ${tornBytes} bytes of a write a crash interrupted cut from its tail (never acknowledged)`);
  for (const file of damaged) log(`hit log: a damaged record and what followed it set aside in ${file}`);
  metrics.track('busBacklog', () => bus.pending);
  observeLog(kit, bus);
  return bus;
}

/** The collector's publisher of cluster mode, Kafka with the durable log behind it, and the log's metrics. */
export function openKafkaWithLog(kit: ProcessKit, kafka: HitPublisher, kafkaDown: unknown): KafkaWithLog {
  const { config, log } = kit;
  const publisher = KafkaWithLog.open(kafka, {
    dir: join(config.DATA_DIR, 'hitlog'),
    segmentBytes: config.HITLOG_SEGMENT_BYTES,
    maxBytes: config.HITLOG_MAX_BYTES,
    maxBatch: config.COLLECTOR_BATCH,
    retryMs: 1_000,
    warn: log,
  }, kafkaDown);
  if (publisher.pending > 0) log(`hit log: ${publisher.pending} acknowledged hits not yet on Kafka are sent first`);
  observeLog(kit, publisher);
  return publisher;
}

/** The log's gauges and fsync times in the process's metrics. */
function observeLog({ metrics }: ProcessKit, source: { disk: HitLogGauges; oldestAt: number | null }): void {
  source.disk.onSync = (seconds) => metrics.hitLogSyncSeconds.observe(seconds);
  metrics.track('hitLogBytes', () => source.disk.bytes);
  metrics.track('hitLogSegments', () => source.disk.segmentCount);
  metrics.track('hitLogOldestAt', () => source.oldestAt);
}
