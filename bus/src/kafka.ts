import { Kafka, logLevel, type Admin, type Consumer, type Producer } from 'kafkajs';
import type { AcceptedHit, BatchHandler, DeadLetter, DeadLetterPublisher, HitConsumer, HitPublisher } from '@stat/schemas';
import { BatchMerger } from './merge.js';

export interface KafkaBusConfig {
  brokers: string[];
  topic: string;
  /** Partitions of the topic when this process creates it. */
  partitions: number;
  clientId: string;
  /** Where kafkajs's own warnings and errors go (default: kafkajs's console lines). */
  log?: (entry: KafkaLogEntry) => void;
}

/** A line kafkajs logs, at warn or error. */
export interface KafkaLogEntry {
  level: 'error' | 'warn';
  /** kafkajs's part, e.g. Connection, Consumer */
  namespace: string;
  message: string;
}

function connect(config: KafkaBusConfig): Kafka {
  const log = config.log;
  return new Kafka({
    clientId: config.clientId,
    brokers: config.brokers,
    logLevel: logLevel.WARN,
    retry: { retries: 8, initialRetryTime: 200 },
    ...(log
      ? {
          logCreator: () => (entry) => {
            if (entry.level === logLevel.ERROR || entry.level === logLevel.WARN) {
              log({ level: entry.level === logLevel.ERROR ? 'error' : 'warn', namespace: entry.namespace, message: String(entry.log.message) });
            }
          },
        }
      : {}),
  });
}

/** Creates the hits topic when it is missing; safe to call from every process. */
export async function ensureTopic(config: KafkaBusConfig): Promise<void> {
  const admin = connect(config).admin();
  await admin.connect();
  try {
    const topics = await admin.listTopics();
    if (!topics.includes(config.topic)) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: [{ topic: config.topic, numPartitions: config.partitions, replicationFactor: 1 }],
      });
    }
  } finally {
    await admin.disconnect();
  }
}

/**
 * How far a consumer group has committed: the sum over partitions of the committed offsets,
 * which is the number of messages the group has finished with (for operators and tests).
 */
export async function committedMessages(config: KafkaBusConfig, groupId: string): Promise<number> {
  const admin = connect(config).admin();
  await admin.connect();
  try {
    const [topic] = await admin.fetchOffsets({ groupId, topics: [config.topic] });
    return (topic?.partitions ?? []).reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
  } finally {
    await admin.disconnect();
  }
}

/** The partition key keeps one visitor's hits of one project in order on one partition. */
export function partitionKey(hit: AcceptedHit): string {
  return `${hit.hit.p}:${hit.hit.v}`;
}

export class KafkaPublisher implements HitPublisher {
  private constructor(
    private readonly producer: Producer,
    private readonly topic: string,
  ) {}

  /**
   * @param retries how often a send is tried again before it rejects: few for a collector that
   *   has its durable log to fall back on (a request waits for the answer), kafkajs's own otherwise
   */
  static async open(config: KafkaBusConfig, retries?: number): Promise<KafkaPublisher> {
    await ensureTopic(config);
    const producer = connect(config).producer({
      idempotent: true,
      maxInFlightRequests: 1,
      ...(retries === undefined ? {} : { retry: { retries, initialRetryTime: 100, maxRetryTime: 1_000 } }),
    });
    await producer.connect();
    return new KafkaPublisher(producer, config.topic);
  }

  async publish(hits: readonly AcceptedHit[]): Promise<void> {
    if (hits.length === 0) return;
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: hits.map((h) => ({ key: partitionKey(h), value: JSON.stringify(h) })),
    });
  }

  async close(): Promise<void> {
    await this.producer.disconnect();
  }
}

/** The dead-letter topic of a hits topic: where the aggregator sets aside what it cannot store. */
export function deadLetterTopic(topic: string): string {
  return `${topic}-dead`;
}

/**
 * A publisher to Kafka that connects when first used, and again after a connection failed: a
 * collector starts while Kafka is away, its hits going to the durable log meanwhile, and sends
 * them on once Kafka is back.
 */
export class ReconnectingKafkaPublisher implements HitPublisher {
  private opening: Promise<KafkaPublisher> | null = null;
  private opened: KafkaPublisher | null = null;

  /** @param retries as KafkaPublisher.open's */
  constructor(
    private readonly config: KafkaBusConfig,
    private readonly retries?: number,
  ) {}

  /** Connects (the topic made when missing); rejects while Kafka cannot be reached. */
  async connect(): Promise<void> {
    await this.publisher();
  }

  async publish(hits: readonly AcceptedHit[]): Promise<void> {
    if (hits.length === 0) return;
    await (await this.publisher()).publish(hits);
  }

  /** Closes the connection if there is one; a connection still being tried is left to the process's exit. */
  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = null;
    this.opening = null;
    await opened?.close();
  }

  private publisher(): Promise<KafkaPublisher> {
    this.opening ??= KafkaPublisher.open(this.config, this.retries).then(
      (publisher) => (this.opened = publisher),
      (error: unknown) => {
        this.opening = null;
        throw error;
      },
    );
    return this.opening;
  }
}

/**
 * Publishes dead letters to the hits topic's dead-letter topic (`${topic}-dead`, created at open
 * like the hits topic), keyed by project id (0 when the message had no usable one), the value
 * the letter as JSON. What the aggregator sets aside besides ClickHouse's dead_hits, for an
 * operator or a tool to read and send again once fixed.
 */
export class KafkaDeadLetters implements DeadLetterPublisher {
  private constructor(
    private readonly producer: Producer,
    /** the dead-letter topic */
    readonly topic: string,
  ) {}

  /** Opens a producer to `${config.topic}-dead`, creating the topic when it is missing. */
  static async open(config: KafkaBusConfig): Promise<KafkaDeadLetters> {
    const topic = deadLetterTopic(config.topic);
    await ensureTopic({ ...config, topic });
    const producer = connect(config).producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    return new KafkaDeadLetters(producer, topic);
  }

  /** Resolves once Kafka holds the letters (acks from all in-sync replicas). */
  async publish(letters: readonly DeadLetter[]): Promise<void> {
    if (letters.length === 0) return;
    await this.producer.send({
      topic: this.topic,
      acks: -1,
      messages: letters.map((letter) => ({ key: String(letter.projectId), value: JSON.stringify(letter) })),
    });
  }

  async close(): Promise<void> {
    await this.producer.disconnect();
  }
}

/** How often a consumer busy with one batch tells the group it is alive. */
const HEARTBEAT_MS = 3_000;
/** Pause before a consumer that crashed for good joins its group again. */
const RESTART_MS = 2_000;

export class KafkaConsumer implements HitConsumer {
  private consumer: Consumer | null = null;
  private stopping = false;

  constructor(
    private readonly config: KafkaBusConfig,
    private readonly groupId: string,
    private readonly log: (message: string) => void = (m) => console.error(m),
  ) {}

  async start(handler: BatchHandler): Promise<void> {
    this.stopping = false;
    await ensureTopic(this.config);
    await this.join(handler);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.consumer?.disconnect();
    this.consumer = null;
  }

  private async join(handler: BatchHandler): Promise<void> {
    const consumer = connect(this.config).consumer({ groupId: this.groupId, maxBytesPerPartition: 4 << 20 });
    // The partitions' batches of a fetch are handed over at once and stored in one write.
    const merger = new BatchMerger(handler);
    this.consumer = consumer;
    // kafkajs restarts a consumer after retriable failures itself; after the others (e.g. the
    // group forgot this member) it gives up, and an aggregator that stops consuming loses
    // nothing but stalls. Join again instead; uncommitted batches come again and the store
    // skips what it already holds.
    consumer.on(consumer.events.CRASH, (event) => {
      if (event.payload.restart || this.stopping) return;
      this.log(`kafka consumer crashed (${String(event.payload.error)}); joining the group again`);
      setTimeout(() => {
        if (this.stopping) return;
        consumer
          .disconnect()
          .catch(() => undefined)
          .then(() => this.join(handler))
          .catch((error: unknown) => this.log(`kafka consumer could not join again: ${String(error)}`));
      }, RESTART_MS);
    });
    await consumer.connect();
    await consumer.subscribe({ topic: this.config.topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: Math.max(1, this.config.partitions),
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        if (!isRunning() || isStale() || batch.messages.length === 0) return;
        // Every message goes to the handler as its text, untrusted: the handler stores it or sets
        // it aside, so none is skipped unseen. A message without a value is the empty text.
        const texts = batch.messages.map((message) => message.value?.toString('utf8') ?? '');
        const offsets = batch.messages.map((message) => Number(message.offset));
        // The handler resolves only once the batch is stored, which may take as long as the
        // store is down; the group must keep hearing from this member meanwhile.
        const beat = setInterval(() => void heartbeat().catch(() => undefined), HEARTBEAT_MS);
        try {
          await merger.submit(texts, { topic: batch.topic, partition: batch.partition, offsets });
        } finally {
          clearInterval(beat);
        }
        // Only now, with the batch stored, does the offset move.
        const last = batch.messages[batch.messages.length - 1];
        if (!last) return;
        resolveOffset(last.offset);
        await consumer.commitOffsets([
          { topic: batch.topic, partition: batch.partition, offset: (BigInt(last.offset) + 1n).toString() },
        ]);
        await heartbeat();
      },
    });
  }
}

/** How long a sample of the consumer lag is reused: a scrape every few seconds costs Kafka one pair of requests. */
const LAG_SAMPLE_MS = 5_000;

/**
 * An operator's view of the bus: the consumer group's lag per partition and whether the brokers
 * answer, over one admin connection kept open (GET /metrics and GET /ready ask often).
 */
export class KafkaWatch {
  private sampled: { at: number; lag: Promise<Map<number, number>> } | null = null;
  private connected: Promise<void> | null = null;
  private readonly admin: Admin;

  constructor(
    private readonly config: KafkaBusConfig,
    private readonly groupId: string,
  ) {
    this.admin = new Kafka({ clientId: config.clientId, brokers: config.brokers, logLevel: logLevel.NOTHING, retry: { retries: 1, initialRetryTime: 200 } }).admin();
  }

  /**
   * Messages of the topic the group has not committed, by partition: the partition's high
   * watermark less the group's committed offset (less its low watermark while the group has
   * committed nothing). Sampled at most every LAG_SAMPLE_MS.
   */
  lag(): Promise<Map<number, number>> {
    const now = Date.now();
    if (this.sampled && now - this.sampled.at < LAG_SAMPLE_MS) return this.sampled.lag;
    const lag = this.readLag();
    this.sampled = { at: now, lag };
    // A failed sample is not reused.
    lag.catch(() => {
      if (this.sampled?.lag === lag) this.sampled = null;
    });
    return lag;
  }

  /** Resolves when a broker answers with the cluster's description; rejects otherwise. */
  async reachable(): Promise<void> {
    await this.connect();
    await this.admin.describeCluster();
  }

  async close(): Promise<void> {
    if (this.connected) await this.admin.disconnect();
    this.connected = null;
  }

  private connect(): Promise<void> {
    this.connected ??= this.admin.connect().catch((error: unknown) => {
      this.connected = null;
      throw error;
    });
    return this.connected;
  }

  private async readLag(): Promise<Map<number, number>> {
    await this.connect();
    const [ends, [committed]] = await Promise.all([
      this.admin.fetchTopicOffsets(this.config.topic),
      this.admin.fetchOffsets({ groupId: this.groupId, topics: [this.config.topic] }),
    ]);
    const done = new Map((committed?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
    const lag = new Map<number, number>();
    for (const { partition, high, low } of ends) {
      const at = done.get(partition) ?? -1;
      lag.set(partition, Math.max(0, Number(high) - (at >= 0 ? at : Number(low))));
    }
    return lag;
  }
}
