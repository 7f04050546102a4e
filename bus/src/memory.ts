import type { AcceptedHit, BatchHandler, HitConsumer, HitPublisher } from '@stat/schemas';

export interface MemoryBusOptions {
  /** Most hits handed to the handler at once. */
  maxBatch: number;
  /** Pause before a batch whose handler failed is delivered again. */
  retryMs: number;
}

/**
 * The bus of embedded mode: a queue inside the process. A batch leaves the queue only after
 * the handler resolved, so a failed write is delivered again, as Kafka would.
 */
export class MemoryBus implements HitPublisher, HitConsumer {
  private readonly queue: AcceptedHit[] = [];
  private handler: BatchHandler | null = null;
  private draining: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: MemoryBusOptions = { maxBatch: 10_000, retryMs: 500 }) {}

  async publish(hits: readonly AcceptedHit[]): Promise<void> {
    this.queue.push(...hits);
    this.kick();
  }

  async close(): Promise<void> {
    await this.stop();
  }

  async start(handler: BatchHandler): Promise<void> {
    this.handler = handler;
    this.stopped = false;
    this.kick();
  }

  /** Waits until every queued hit has been handled, then stops delivering. */
  async stop(): Promise<void> {
    while (this.draining) await this.draining;
    this.stopped = true;
  }

  /** Hits waiting to be handled. */
  get pending(): number {
    return this.queue.length;
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
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, this.options.maxBatch);
      try {
        await handler(batch);
      } catch {
        // Not stored: the batch stays at the head of the queue and is delivered again.
        await new Promise((resolve) => setTimeout(resolve, this.options.retryMs));
        continue;
      }
      this.queue.splice(0, batch.length);
    }
  }
}
