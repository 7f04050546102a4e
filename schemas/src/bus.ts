import type { AcceptedHit } from './hit.js';

/**
 * The bus between the collector and the aggregator: Kafka in cluster mode, the collector's
 * durable hit log read in the same process in embedded mode. Only these two shapes cross it.
 */
export interface HitPublisher {
  /** Resolves once the bus holds the hits durably (Kafka acknowledged, or fsynced in the hit log). */
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
 * Handles one batch; resolving means the batch is stored (or each message of it dropped or set
 * aside as a dead letter), and only then does the bus move its offsets. Rejecting means "not
 * stored" because of an outage: the batch is delivered again. The messages are untrusted
 * (`unknown`): the hit log hands over the collector's objects (or, replayed after a start, the
 * text of each record), Kafka the text of each message; the handler validates them
 * (acceptedHitSchema). messages[i] sat at the i-th offset of the position: a Kafka partition's,
 * or the hit log's offsets under a topic named by the log's identity.
 */
export type BatchHandler = (messages: readonly unknown[], position?: BatchPosition) => Promise<void>;

/**
 * A message the aggregator could not store and will not try again: why, and the message
 * itself as it came (JSON text), so an operator can look at it and send it again once fixed.
 * Kept in ClickHouse's `dead_hits` (30 days) and, in cluster mode, on a Kafka topic too.
 */
export interface DeadLetter {
  /** what made it unstorable, e.g. `p: must be at most 2147483647` or ClickHouse's refusal */
  reason: string;
  /** the message as it came, JSON text (lone surrogates and NUL escaped, so it is storable) */
  raw: string;
  /** the event id when the message had one, else '' */
  eventId: string;
  /** the project id when the message had a usable one, else 0 */
  projectId: number;
  /** when it was set aside, epoch ms */
  at: number;
}

/** Where dead letters go besides `dead_hits`: Kafka's dead-letter topic in cluster mode. */
export interface DeadLetterPublisher {
  publish(letters: readonly DeadLetter[]): Promise<void>;
  close(): Promise<void>;
}

export interface HitConsumer {
  /** Starts delivering batches to the handler; resolves once consumption has started. */
  start(handler: BatchHandler): Promise<void>;
  /** Stops after the batch in hand is handled; nothing delivered is lost. */
  stop(): Promise<void>;
}
