import type { AcceptedHit, BatchHandler, HitConsumer, HitPublisher } from '@stat/schemas';

export interface MemoryBusOptions {
  /** Most hits handed to the handler at once. */
  maxBatch: number;
  /** Pause before a batch whose handler failed is delivered again. */
  retryMs: number;
  /**
   * Hits held at most (the collector's buffer size): past it publish refuses, the collector's
   * buffer fills and the collector answers 503, so memory stays bounded while storage is down.
   */
  capacity: number;
}

const DEFAULTS: MemoryBusOptions = { maxBatch: 10_000, retryMs: 500, capacity: 200_000 };

/** Thrown by publish when the bus holds its capacity; the publisher keeps the hits and tries later. */
export class BusFullError extends Error {
  override readonly name = 'BusFullError';
}

/**
 * The bus of embedded mode: a bounded queue inside the process. A batch leaves the queue only
 * after the handler resolved, so a failed write is delivered again, as Kafka would.
 */
export class MemoryBus implements HitPublisher, HitConsumer {
  private readonly options: MemoryBusOptions;
  private readonly queue: AcceptedHit[] = [];
  private handler: BatchHandler | null = null;
  private draining: Promise<void> | null = null;
  private stopped = false;
  /** Hits ever queued, and hits ever handled: FIFO positions for {@link handledThrough}. */
  private queuedCount = 0;
  private handledCount = 0;
  private readonly waiters: { through: number; resolve: () => void }[] = [];

  constructor(options: Partial<MemoryBusOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  async publish(hits: readonly AcceptedHit[]): Promise<void> {
    if (this.queue.length + hits.length > this.options.capacity) {
      throw new BusFullError(`the in-process bus holds ${this.queue.length} hits, its capacity is ${this.options.capacity}`);
    }
    this.enqueue(hits);
  }

  /**
   * Queues hits whatever the capacity: hits set aside on disk at the last stop, or the
   * collector's buffer at a stop. Returns the position that {@link handledThrough} waits for.
   */
  requeue(hits: readonly AcceptedHit[]): number {
    this.enqueue(hits);
    return this.queuedCount;
  }

  async close(): Promise<void> {
    await this.stop();
  }

  async start(handler: BatchHandler): Promise<void> {
    this.handler = handler;
    this.stopped = false;
    this.kick();
  }

  /**
   * Stops delivering: the batch in hand is waited for (the handler must settle: a stopped
   * aggregator rejects at once), nothing else is handed over. What is left stays queued for
   * {@link takeAll}.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    while (this.draining) await this.draining;
  }

  /** Resolves once every queued hit has been handled, or after `timeoutMs`; true if empty. */
  async drained(timeoutMs: number): Promise<boolean> {
    if (this.queue.length === 0) return true;
    return new Promise<boolean>((resolve) => {
      const waiter = { through: this.queuedCount, resolve: () => resolve(true) };
      this.waiters.push(waiter);
      setTimeout(() => {
        const at = this.waiters.indexOf(waiter);
        if (at < 0) return;
        this.waiters.splice(at, 1);
        resolve(false);
      }, timeoutMs);
    });
  }

  /** Resolves once the hits up to queue position `through` (from {@link requeue}) are handled. */
  handledThrough(through: number): Promise<void> {
    if (this.handledCount >= through) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ through, resolve }));
  }

  /** Removes and returns every hit not handled yet (after stop, to keep them on disk). */
  takeAll(): AcceptedHit[] {
    return this.queue.splice(0, this.queue.length);
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

  private enqueue(hits: readonly AcceptedHit[]): void {
    for (const hit of hits) this.queue.push(hit);
    this.queuedCount += hits.length;
    this.kick();
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
      try {
        await handler(batch);
      } catch {
        // Not stored: the batch stays at the head of the queue and is delivered again.
        if (this.stopped) return;
        await new Promise((resolve) => setTimeout(resolve, this.options.retryMs));
        continue;
      }
      this.queue.splice(0, batch.length);
      this.handledCount += batch.length;
      this.wake();
    }
  }

  private wake(): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i]!;
      if (this.handledCount >= waiter.through) {
        this.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }
}
