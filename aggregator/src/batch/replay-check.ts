import type { BusPlace } from '../rows.js';
import type { EventStore } from '../storage.js';

/** The hit a message or row holds, as far as the replay check reads it: its project and server time. */
export interface HitScope {
  project: number;
  at: number;
}

/** Something of a batch the replay check can find in storage: its place on the bus, and its hit if it is one. */
export interface Replayable {
  place: BusPlace | undefined;
  /** null for a message that is no accepted hit: only its partition's recorded offset can tell it stored */
  scope: HitScope | null;
}

/** The reads of storage the check makes. */
export type ReplayStore = Pick<EventStore, 'writtenOffset' | 'storedAmong'>;

/** Makes the views' tables agree with the events over what these inserts touched (SliceRebuilder). */
export type InsertRepair = (tokens: readonly string[]) => Promise<void>;

const keyOf = (place: BusPlace): string => `${place.topic}:${place.partition}`;

/**
 * The exactly-once check: which messages of a batch are stored already, so that a batch the bus
 * hands over again (a crash before its offsets were committed) or a try that failed half-way
 * stores nothing twice. One check for both, run before a batch is cut and again before a failed
 * try's writes are tried again.
 */
export class ReplayCheck {
  /** The highest offset stored of each partition, as last read from storage or stored here. */
  private readonly written = new Map<string, number>();
  /** Partitions this process has stored a batch of: their recorded offset is their truth since. */
  private readonly verified = new Set<string>();

  constructor(
    private readonly store: ReplayStore,
    private readonly repair: InsertRepair,
  ) {}

  /**
   * The items that are stored: at or below their partition's recorded offset (ingest_offsets), or
   * found in `events` by their offsets. The events are read for the partitions this process has
   * not stored a batch of yet, and after a failed try for every partition: there a crash, or an
   * insert that failed half-way, may have stored events above the recorded offset (the offsets'
   * view writes them after the events). After a failed try the recorded offsets are read again.
   *
   * Where the events are read, they are read for every item of the partition, the ones at or
   * below the recorded offset too: an insert a crash or a failed try cut short may have stored
   * the events and the offsets' view but not every rollup. What the inserts found touched is
   * rebuilt in every view's table (SliceRebuilder) before their items count as stored, so none
   * is skipped with a rollup missing it, nor counted twice.
   */
  async storedAmong<T extends Replayable>(items: readonly T[], afterFailedTry: boolean): Promise<Set<T>> {
    const offsets = await this.recordedOffsets(items, afterFailedTry);
    const stored = new Set(items.filter((item) => item.place !== undefined && item.place.offset <= (offsets.get(keyOf(item.place)) ?? -1)));
    const inserts = new Set<string>();
    for (const group of this.partitionsToRead(items, afterFailedTry)) {
      const found = await this.store.storedAmong(
        group[0]!.place,
        group.map((item) => item.place.offset),
        { projects: group.map((item) => item.scope.project), times: group.map((item) => item.scope.at) },
      );
      for (const item of group) {
        const token = found.get(item.place.offset);
        if (token === undefined) continue;
        stored.add(item);
        if (token !== '') inserts.add(token);
      }
    }
    await this.repair([...inserts]);
    return stored;
  }

  /** Keeps the places of a stored batch: each partition's highest offset, and the partition as verified. */
  handled(places: Iterable<BusPlace | undefined>): void {
    for (const place of places) {
      if (!place) continue;
      const key = keyOf(place);
      if (place.offset > (this.written.get(key) ?? -1)) this.written.set(key, place.offset);
      this.verified.add(key);
    }
  }

  /** The recorded offset of each partition among `items`, read from storage when not known or `fresh`. */
  private async recordedOffsets(items: readonly Replayable[], fresh: boolean): Promise<Map<string, number>> {
    const offsets = new Map<string, number>();
    for (const { place } of items) {
      if (!place) continue;
      const key = keyOf(place);
      if (offsets.has(key)) continue;
      let offset = fresh ? undefined : this.written.get(key);
      if (offset === undefined) {
        offset = await this.store.writtenOffset(place.topic, place.partition);
        this.written.set(key, offset);
      }
      offsets.set(key, offset);
    }
    return offsets;
  }

  /** The hits whose events are to be read, grouped by partition. */
  private partitionsToRead<T extends Replayable>(items: readonly T[], afterFailedTry: boolean): (T & { place: BusPlace; scope: HitScope })[][] {
    const groups = new Map<string, (T & { place: BusPlace; scope: HitScope })[]>();
    for (const item of items) {
      if (!item.place || !item.scope) continue;
      const key = keyOf(item.place);
      if (!afterFailedTry && this.verified.has(key)) continue;
      const group = groups.get(key) ?? [];
      group.push(item as T & { place: BusPlace; scope: HitScope });
      groups.set(key, group);
    }
    return [...groups.values()];
  }
}
