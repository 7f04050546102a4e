import type { WriterHealth } from '@stat/schemas';
import { retrying } from '@stat/storage';

/** How a batch that met an outage is tried again. */
export interface TryOptions {
  /** pause after the first failed try; doubles up to maxRetryMs */
  retryMs: number;
  maxRetryMs: number;
  log: (message: string) => void;
}

/**
 * Tries each batch until it is written, through storage's `retrying`, and tells the health
 * report meanwhile. stop() makes a batch waiting out an outage give up at once.
 */
export class BatchTries {
  readonly health: WriterHealth = { failing: null, failingSince: null, oldestUnstoredAt: null };
  /** The batch in hand's interruption: stop() aborts its wait and its requests in flight. */
  private interrupt: AbortController | null = null;
  private stopped = false;

  constructor(private readonly options: TryOptions) {}

  /** The signal of the batch in hand, for the store's requests. */
  signal(): AbortSignal | undefined {
    return this.interrupt?.signal;
  }

  stop(): void {
    this.stopped = true;
    this.interrupt?.abort();
  }

  /**
   * Runs `attempt` until it resolves, with pauses that double from retryMs up to maxRetryMs.
   * Every error is tried again, not only storage's transient ones: a row ClickHouse refuses
   * never reaches here (the write sets it aside), so what does is ClickHouse down or not set up
   * (a table missing), the counter settings' Postgres, or the dead-letter publisher. Once stop()
   * is called a failed try is the last, and rejects with Error('aggregator stopped').
   *
   * @param size the batch's messages, for the log
   * @param oldestAt the server time of the batch's oldest hit, for the health report
   */
  async run(size: number, oldestAt: number, attempt: (afterFailedTry: boolean) => Promise<void>): Promise<void> {
    this.health.oldestUnstoredAt = oldestAt;
    const controller = new AbortController();
    this.interrupt = controller;
    try {
      await retrying((tried) => attempt(tried > 1), {
        attempts: Infinity,
        initialDelayMs: this.options.retryMs,
        maxDelayMs: this.options.maxRetryMs,
        retryOn: () => !this.stopped,
        onRetry: (error, _tried, delayMs) => this.failed(error, size, delayMs),
        signal: controller.signal,
      });
      this.health.failing = null;
      this.health.failingSince = null;
    } catch (error) {
      throw this.stopped ? new Error('aggregator stopped', { cause: error }) : error;
    } finally {
      this.health.oldestUnstoredAt = null;
      if (this.interrupt === controller) this.interrupt = null;
    }
  }

  /** Shows a failed try in the health report and the log. */
  private failed(error: unknown, size: number, delayMs: number): void {
    this.health.failing = error instanceof Error ? error.message : String(error);
    this.health.failingSince ??= Date.now();
    this.options.log(`aggregator: write of ${size} messages failed, retrying in ${delayMs} ms: ${String(error)}`);
  }
}
