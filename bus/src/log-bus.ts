import type { AcceptedHit, BatchHandler, BusPosition, HitConsumer, HitPublisher } from '@stat/schemas';
import { atOf, HitLog, type HitLogGauges, type Recovery } from './hit-log.js';

export interface LogBusOptions {
  /** The durable log's directory (DATA_DIR/hitlog). */
  dir: string;
  /** Most hits handed to the handler at once. */
  maxBatch: number;
  /** Pause before a batch whose handler failed is delivered again. */
  retryMs: number;
  /**
   * Hits not yet stored, at most: past it publish refuses and the collector answers 503, so the
   * log and the queue stay bounded while storage is down.
   */
  capacity: number;
  /** A new log segment is started once the active one holds this many bytes. */
  segmentBytes: number;
}

const DEFAULTS = { maxBatch: 10_000, retryMs: 500, capacity: 200_000, segmentBytes: 16 * 1024 * 1024 };

/** Thrown by publish when the bus holds its capacity; the collector answers 503 (not taken). */
export class BusFullError extends Error {
  override readonly name = 'BusFullError';
}

interface Queued {
  /** the hit as published (an object), or as read back from the log (its JSON text) */
  message: AcceptedHit | string;
  offset: number;
  /** server time of the hit, for the age of the oldest unstored one */
  at: number;
}

/**
 * The bus of embedded mode: the collector's durable log on disk, read by the aggregator in the
 * same process. publish resolves once its hits are fsynced in the log; a batch leaves the queue
 * only after the handler stored it, and only then is its part of the log released. At open the
 * log's records are queued again: the aggregator skips what storage already holds (each batch
 * carries its log offsets as a bus position, like Kafka's), so a crash at any instant loses
 * nothing and stores nothing twice.
 */
export class LogBus implements HitPublisher, HitConsumer {
  private readonly queue: Queued[] = [];
  private handler: BatchHandler | null = null;
  private draining: Promise<void> | null = null;
  private stopped = false;
  private readonly waiters: { through: number; resolve: () => void }[] = [];
  /** the highest offset handled, -1 before the first */
  private handled = -1;

  private constructor(
    private readonly log: HitLog,
    private readonly options: LogBusOptions,
    /** what opening found: records queued again, a torn tail cut */
    readonly recovery: Recovery,
  ) {
    for (const { offset, payload } of recovery.records) this.queue.push({ message: payload, offset, at: atOf(payload) });
  }

  /** Opens the log under `options.dir` and queues what it holds. */
  static open(options: Partial<LogBusOptions> & Pick<LogBusOptions, 'dir'>): LogBus {
    const full: LogBusOptions = { ...DEFAULTS, ...options };
    const { log, recovery } = HitLog.open({ dir: full.dir, segmentBytes: full.segmentBytes });
    return new LogBus(log, full, recovery);
  }

  /** The position's topic: the log's identity, so that a log made anew never inherits stored offsets. */
  get topic(): string {
    return `hitlog-${this.log.id}`;
  }

  /** The log on disk, for its gauges. */
  get disk(): HitLogGauges {
    return this.log;
  }

  /**
   * Writes the hits to the log as one group and resolves once they are durable; rejects when
   * they are not (a full disk, the bus at capacity): then none of them may be acknowledged.
   */
  async publish(hits: readonly AcceptedHit[]): Promise<void> {
    if (hits.length === 0) return;
    if (this.queue.length + hits.length > this.options.capacity) {
      throw new BusFullError(`the hit log holds ${this.queue.length} unstored hits, its capacity is ${this.options.capacity}`);
    }
    await this.keep(hits);
  }

  /** Writes hits to the log whatever the capacity: hits an earlier version kept on disk at its stop. */
  async keep(hits: readonly AcceptedHit[]): Promise<void> {
    if (hits.length === 0) return;
    const first = await this.log.append(hits.map((hit) => JSON.stringify(hit)));
    hits.forEach((hit, i) => this.queue.push({ message: hit, offset: first + i, at: hit.at }));
    this.kick();
  }

  async close(): Promise<void> {
    await this.stop();
    await this.log.close();
  }

  async start(handler: BatchHandler): Promise<void> {
    this.handler = handler;
    this.stopped = false;
    this.kick();
  }

  /** Stops delivering after the batch in hand (the handler must settle: a stopped aggregator rejects at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    while (this.draining) await this.draining;
  }

  /** Resolves once every hit queued now has been handled, or after `timeoutMs`; true if it was. */
  async drained(timeoutMs: number): Promise<boolean> {
    const last = this.queue[this.queue.length - 1];
    if (!last) return true;
    return new Promise<boolean>((resolve) => {
      const waiter = { through: last.offset, resolve: () => resolve(true) };
      this.waiters.push(waiter);
      setTimeout(() => {
        const at = this.waiters.indexOf(waiter);
        if (at < 0) return;
        this.waiters.splice(at, 1);
        resolve(false);
      }, timeoutMs);
    });
  }

  /** Hits waiting to be handled. */
  get pending(): number {
    return this.queue.length;
  }

  /** The same as pending: what a health report counts as held. */
  get size(): number {
    return this.queue.length;
  }

  get capacity(): number {
    return this.options.capacity;
  }

  /** Server time of the oldest hit waiting, or null when none waits. */
  get oldestAt(): number | null {
    return this.queue[0]?.at ?? null;
  }

  private kick(): void {
    if (this.draining || !this.handler || this.stopped || this.queue.length === 0) return;
    this.draining = this.drain().finally(() => {
      this.draining = null;
      this.kick();
    });
  }

  private async drain(): Promise<void> {
    const handler = this.handler;
    if (!handler) return;
    // Yield once so that hits published in the same tick travel in one batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length > 0 && !this.stopped) {
      const batch = this.queue.slice(0, this.options.maxBatch);
      const position: BusPosition = { topic: this.topic, partition: 0, offsets: batch.map((q) => q.offset) };
      try {
        await handler(
          batch.map((q) => q.message),
          position,
        );
      } catch {
        // Not stored: the batch stays at the head of the queue and is delivered again.
        if (this.stopped) return;
        await new Promise((resolve) => setTimeout(resolve, this.options.retryMs));
        continue;
      }
      this.queue.splice(0, batch.length);
      this.handled = batch[batch.length - 1]!.offset;
      // A release that cannot be written costs only a longer replay: the aggregator skips what is stored.
      this.log.release(this.handled).catch(() => undefined);
      this.wake();
    }
  }

  private wake(): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i]!;
      if (this.handled >= waiter.through) {
        this.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }
}
