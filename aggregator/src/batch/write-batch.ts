import type { DeadLetterPublisher } from '@stat/schemas';
import type { Metrics } from '@stat/telemetry';
import type { EventStore } from '../storage.js';
import { writeSplitting } from '../steps/write.js';
import { setAside, type CutBatch, type Writing } from './cut-batch.js';

/** The writes of a batch's inserts. */
export type BatchStore = Pick<EventStore, 'insert' | 'insertDropped' | 'insertDead'>;

/**
 * Writes a cut batch: dropped hits, dead letters, then the events. Tried again after an outage,
 * it writes only what is not written yet; a row ClickHouse refuses is set aside (see writeSplitting).
 */
export class BatchWriter {
  constructor(
    private readonly store: BatchStore,
    /** where dead letters go besides dead_hits; a failure to publish is an outage */
    private readonly deadLetters: DeadLetterPublisher | null,
    private readonly metrics: Metrics | null,
  ) {}

  async write(batch: CutBatch): Promise<void> {
    // Dropped hits and dead letters first: if a later insert fails, the batch comes again and
    // they are written again, which the tables' keys make one.
    await writeSplitting(
      batch.dropped.filter((d) => !d.done),
      (items) => this.store.insertDropped(items.map((d) => d.dropped)),
      {
        stored: (items) => items.forEach((d) => (d.done = true)),
        refused: (item, reason) => this.refuse(batch, item, reason),
      },
    );
    await this.writeDead(batch);
    await writeSplitting(
      batch.rows.filter((r) => !r.done),
      (items) => this.timed(this.store.insert(items.map((r) => r.row))),
      {
        stored: (items) =>
          items.forEach((r) => {
            r.done = true;
            r.stored = true;
          }),
        refused: (item, reason) => this.refuse(batch, item, reason),
      },
    );
  }

  /** Writes the dead letters not written yet: dead_hits, then the publisher. */
  private async writeDead(batch: CutBatch): Promise<void> {
    if (batch.dead.length === 0) return;
    const letters = batch.dead;
    await this.store.insertDead(letters);
    await this.deadLetters?.publish(letters.map((l) => l.letter));
    batch.dead = [];
    batch.deadWritten += letters.length;
  }

  /** Sets aside a row or dropped hit that ClickHouse refused, before anything after it is written. */
  private async refuse(batch: CutBatch, item: Writing, reason: string): Promise<void> {
    item.done = true;
    setAside(batch, item.body, reason, 'storage_refused');
    await this.writeDead(batch);
  }

  /** An insert of event rows, its duration observed whether it succeeds or fails. */
  private async timed<T>(insert: Promise<T>): Promise<T> {
    const end = this.metrics?.storageWriteSeconds.startTimer();
    try {
      return await insert;
    } finally {
      end?.();
    }
  }
}
