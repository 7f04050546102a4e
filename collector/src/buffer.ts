import type { AcceptedHit, HitPublisher } from '@stat/schemas';

export interface HitBufferOptions {
  /** Hits held at most; past this the collector answers 503 and the snippet retries. */
  capacity: number;
  /** Hits sent to the bus in one batch at most. */
  maxBatch: number;
  /** Longest a hit waits before its batch is sent. */
  flushMs: number;
  /** Pause after a failed publish before the next try. */
  retryMs: number;
}

/**
 * Hits accepted but not yet on the bus. Bounded: a full buffer refuses hits instead of
 * growing, and a batch the bus refused stays at the head to be sent again, never dropped.
 */
export class HitBuffer {
  private readonly hits: AcceptedHit[] = [];
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> | null = null;
  private lastError: unknown = null;

  constructor(
    private readonly publisher: HitPublisher,
    private readonly options: HitBufferOptions,
  ) {}

  /** Takes a hit; false when the buffer is full and the hit was not taken. */
  offer(hit: AcceptedHit): boolean {
    if (this.hits.length >= this.options.capacity) return false;
    this.hits.push(hit);
    if (this.hits.length >= this.options.maxBatch) this.send();
    else this.schedule(this.options.flushMs);
    return true;
  }

  get size(): number {
    return this.hits.length;
  }

  get capacity(): number {
    return this.options.capacity;
  }

  /** Server time of the oldest hit held, or null when none is. */
  get oldestAt(): number | null {
    return this.hits[0]?.at ?? null;
  }

  /**
   * Removes and returns every hit held, once nothing is being sent (at a stop: they go to disk
   * or straight to the in-process bus). Waits for a publish in flight, so no hit is both
   * handed over and kept.
   */
  async takeAll(): Promise<AcceptedHit[]> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.sending) await this.sending;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return this.hits.splice(0, this.hits.length);
  }

  /** The last publish failure, cleared by the next success; for health reporting. */
  get error(): unknown {
    return this.lastError;
  }

  /** Sends everything held, retrying until the bus takes it or the deadline passes. */
  async drain(deadlineMs = 30_000): Promise<void> {
    const until = Date.now() + deadlineMs;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while ((this.hits.length > 0 || this.sending) && Date.now() < until) {
      if (!this.sending) this.send();
      await this.sending;
      if (this.lastError && this.hits.length > 0) await sleep(this.options.retryMs);
    }
    if (this.hits.length > 0) throw new Error(`${this.hits.length} hits could not reach the bus`);
  }

  private schedule(ms: number): void {
    if (this.timer || this.sending) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.send();
    }, ms);
  }

  private send(): void {
    if (this.sending) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.hits.slice(0, this.options.maxBatch);
    if (batch.length === 0) return;
    this.sending = this.publisher.publish(batch).then(
      () => {
        this.hits.splice(0, batch.length);
        this.lastError = null;
      },
      (error: unknown) => {
        this.lastError = error;
      },
    );
    void this.sending.finally(() => {
      this.sending = null;
      if (this.hits.length > 0) this.schedule(this.lastError ? this.options.retryMs : 0);
    });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
