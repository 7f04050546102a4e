import { isDataRefusal } from '@stat/storage';

/** What a batch write reports of its items. */
export interface WriteOutcome<T> {
  /** These items are stored, by one insert. */
  stored(items: readonly T[]): void;
  /**
   * ClickHouse refused this item on its own, for `reason` (its message): set it aside. The write
   * goes on once this resolves, so the item is set aside before any later item is stored.
   */
  refused(item: T, reason: string): Promise<void>;
}

/** ClickHouse's message of a refusal, as the reason a dead letter gives. */
function refusalReason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).trim();
}

/**
 * The batch write: one insert when ClickHouse takes the batch. When ClickHouse refuses it for
 * what it holds ({@link isDataRefusal}), the batch is split in halves, recursively, down to the
 * items ClickHouse refuses on their own; those go to `refused`, the others are stored. A batch
 * with one poison row costs about 2·log2(n) inserts. Items are taken in order, so those stored
 * or set aside are always a prefix of the batch: a write that an outage broke resumes after
 * them, and a bus offset stored never passes an item not yet stored or set aside.
 *
 * An outage (any other error), met at once or in the middle of a split, is thrown: retrying may
 * cure it, so nothing is set aside for it.
 */
export async function writeSplitting<T>(
  items: readonly T[],
  insert: (items: readonly T[]) => Promise<void>,
  outcome: WriteOutcome<T>,
): Promise<void> {
  if (items.length === 0) return;
  try {
    await insert(items);
  } catch (error) {
    if (!isDataRefusal(error)) throw error;
    if (items.length === 1) {
      await outcome.refused(items[0]!, refusalReason(error));
      return;
    }
    const half = Math.ceil(items.length / 2);
    await writeSplitting(items.slice(0, half), insert, outcome);
    await writeSplitting(items.slice(half), insert, outcome);
    return;
  }
  outcome.stored(items);
}
