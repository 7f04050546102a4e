/**
 * A set that keeps at most `capacity` members: adding one more forgets the one least recently
 * added or found (`has`). For per-process caches of ids, which must not grow with every id ever seen.
 */
export class LruSet<T> {
  // A Set iterates in insertion order: re-inserting a member makes it the most recent.
  private readonly members = new Set<T>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, not ${capacity}`);
  }

  get size(): number {
    return this.members.size;
  }

  /** Whether `value` is kept; a member found becomes the most recent. */
  has(value: T): boolean {
    if (!this.members.delete(value)) return false;
    this.members.add(value);
    return true;
  }

  add(value: T): void {
    this.members.delete(value);
    this.members.add(value);
    if (this.members.size > this.capacity) this.members.delete(this.members.values().next().value as T);
  }

  delete(value: T): boolean {
    return this.members.delete(value);
  }
}
