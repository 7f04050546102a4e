import type { BatchHandler, BusPosition } from '@stat/schemas';

interface Waiting {
  hits: readonly unknown[];
  position: BusPosition;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Merges the batches of several partitions into one write ("group commit"): a batch that
 * arrives while a write runs waits for the next one, which takes every batch waiting by then.
 * Each partition's promise resolves only when the write holding its batch is stored, so each
 * partition moves its offset only after its own hits are in storage. One write at a time: the
 * handler (the aggregator) never runs twice at once.
 */
export class BatchMerger {
  private readonly waiting: Waiting[] = [];
  private running = false;

  constructor(
    private readonly handler: BatchHandler,
    /** Most hits in one write; a larger single batch still goes whole. */
    private readonly maxHits = 50_000,
  ) {}

  /** Resolves once the batch is stored; rejects when the write holding it failed. */
  submit(hits: readonly unknown[], position: BusPosition): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ hits, position, resolve, reject });
      this.kick();
    });
  }

  private kick(): void {
    if (this.running || this.waiting.length === 0) return;
    this.running = true;
    void this.writeNext().finally(() => {
      this.running = false;
      this.kick();
    });
  }

  private async writeNext(): Promise<void> {
    // The other partitions of the same fetch are handed over in the same turn: take them too.
    await new Promise((resolve) => setImmediate(resolve));
    const taken: Waiting[] = [];
    let size = 0;
    while (this.waiting.length > 0 && (taken.length === 0 || size + this.waiting[0]!.hits.length <= this.maxHits)) {
      const next = this.waiting.shift()!;
      taken.push(next);
      size += next.hits.length;
    }
    try {
      await this.handler(
        taken.flatMap((t) => t.hits),
        taken.map((t) => t.position),
      );
      for (const t of taken) t.resolve();
    } catch (error) {
      for (const t of taken) t.reject(error);
    }
  }
}
