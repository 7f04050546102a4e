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
  /**
   * Makes what storage wrote so far survive a power cut (chDB's files synced to the disk), or
   * null when nothing here can (storage on another machine). With it, the log keeps a stored
   * hit until storage's copy is on the disk: a storage that acknowledges from the page cache
   * loses its last seconds in a power cut, and then the log still has them.
   */
  settleStorage: (() => Promise<void>) | null;
  /** How often, at most, storage is settled and the log released up to what was stored before it. */
  releaseEveryMs: number;
}

const DEFAULTS = { maxBatch: 10_000, retryMs: 500, capacity: 200_000, segmentBytes: 16 * 1024 * 1024, settleStorage: null, releaseEveryMs: 5_000 };

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
  /** the release in flight (settling storage first), if any */
  private releasing: Promise<void> | null = null;
  private releaseTimer: NodeJS.Timeout | null = null;
  /** The opener settled storage just before (the service does at its start): the interval runs from now. */
  private lastSettledAt = Date.now();

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

  /** Stops, releases what was stored (storage settled first), and closes the log. */
  async close(): Promise<void> {
    await this.stop();
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    this.releaseTimer = null;
    while (this.releasing) await this.releasing;
    await this.releaseStored();
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
      this.scheduleRelease();
      this.wake();
    }
  }

  /**
   * Releases what was stored, at once without a storage to settle; with one, at most every
   * `releaseEveryMs` and one at a time, so that syncing storage's files costs a few syncs a
   * minute, off the path of hits and batches.
   */
  private scheduleRelease(): void {
    if (!this.options.settleStorage) {
      void this.releaseStored();
      return;
    }
    if (this.releasing || this.releaseTimer) return;
    const wait = Math.max(0, this.lastSettledAt + this.options.releaseEveryMs - Date.now());
    this.releaseTimer = setTimeout(() => {
      this.releaseTimer = null;
      this.releasing = this.releaseStored().finally(() => {
        this.releasing = null;
      });
    }, wait);
  }

  /**
   * Settles storage, then releases the log up to what was stored before the settle began. A
   * settle or a release that fails costs only a longer replay after a crash: the aggregator skips
   * what storage holds, and the records stay until the next try.
   */
  private async releaseStored(): Promise<void> {
    const through = this.handled;
    if (through <= this.log.releasedThrough) return;
    try {
      if (this.options.settleStorage) {
        await this.options.settleStorage();
        this.lastSettledAt = Date.now();
      }
      await this.log.release(through);
    } catch {
      // Kept for the next try (see above).
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
