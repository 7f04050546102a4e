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
 * Handles one batch; resolving means the batch is stored, and only then does the bus move
 * its offset. Rejecting means "not stored": the batch is delivered again.
 */
export type BatchHandler = (hits: AcceptedHit[]) => Promise<void>;

export interface HitConsumer {
  /** Starts delivering batches to the handler; resolves once consumption has started. */
  start(handler: BatchHandler): Promise<void>;
  /** Stops after the batch in hand is handled; nothing delivered is lost. */
  stop(): Promise<void>;
}
