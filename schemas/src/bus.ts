import type { AcceptedHit } from './hit.js';

/**
 * The bus between the collector and the aggregator: Kafka in cluster mode, a queue in the
 * process in embedded mode. Only these two shapes cross it.
 */
export interface HitPublisher {
  /** Resolves once the bus holds the hits durably (Kafka acknowledged, or queued in-process). */
  publish(hits: readonly AcceptedHit[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Where a batch sat on a durable bus: Kafka's topic and partition, and the offset of each hit
 * (offsets[i] belongs to hits[i]). Stored with the events, it lets a replayed batch be
 * recognised and skipped, which makes the at-least-once bus exactly-once in storage.
 */
export interface BusPosition {
  topic: string;
  partition: number;
  offsets: number[];
}

/**
 * Where a batch sat on the bus: one partition's position, or several partitions' batches
 * merged into one (their hits in the order of the positions: the first position's offsets
 * cover the first hits, and so on).
 */
export type BatchPosition = BusPosition | readonly BusPosition[];

/**
 * Handles one batch; resolving means the batch is stored, and only then does the bus move
 * its offsets. Rejecting means "not stored": the batch is delivered again. The in-process
 * bus gives no position (it has no replay).
 */
export type BatchHandler = (hits: AcceptedHit[], position?: BatchPosition) => Promise<void>;

export interface HitConsumer {
  /** Starts delivering batches to the handler; resolves once consumption has started. */
  start(handler: BatchHandler): Promise<void>;
  /** Stops after the batch in hand is handled; nothing delivered is lost. */
  stop(): Promise<void>;
}
