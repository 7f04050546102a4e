import type { AcceptedHit, HitPublisher } from '@stat/schemas';

export interface HitBufferOptions {
  /** Hits waiting for their group's write at most; past this the collector answers 503 (not taken: a sender that reads answers sends again). */
  capacity: number;
  /** Hits written in one group at most: a full group is written at once. */
  maxBatch: number;
  /**
   * How long a group gathers hits at most while the collector is busy (a write in flight): it is
   * written when the write before it settles, or when this window is out, whichever comes first;
   * an idle collector writes a hit at once (with the hits of the same turn of the event loop). A
   * hit's answer waits at most about this window and one write.
   */
  flushMs: number;
}

/** Told once whether the hit is durable (then the collector acknowledges it) or not (503). */
export type Answered = (durable: boolean) => void;

interface Waiting {
  hit: AcceptedHit;
  answered: Answered;
}

/**
 * Group commit: the hits that arrive while a write is in flight are written together (one fsync,
 * one Kafka send for all of them) as soon as it settles, or once the flush window is out, a full
 * group at once, and a hit that finds the collector idle (no write in flight, no group gathering)
 * at once too: light traffic waits only for its own write, heavy traffic is written in groups as
 * large as a write takes, which grow with the load and keep the cost per hit low (a Kafka send of
 * 10 hits costs about ten times as much per hit as one of 1 000), while a hit waits about one write,
 * not a whole window (a client that waits for its answer sends its next hit sooner). Each
 * hit is answered only when its group's write resolved: durable (fsynced in the log, or
 * acknowledged by Kafka's in-sync replicas) or not, never before.
 * A write that fails answers its whole group "not durable" (503: not taken, a sender that reads answers sends again);
 * nothing is held in memory after its answer, so nothing acknowledged can be lost by a crash.
 * Bounded: past `capacity` waiting hits a hit is refused at once.
 */
export class HitBuffer {
  private group: Waiting[] = [];
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  /** hits whose write is in flight */
  private writing = 0;
  /** server time of the first hit of each group in flight, in write order (writes may settle out of it) */
  private readonly writingSince = new Map<Promise<void>, number>();
  private readonly writes = new Set<Promise<void>>();
  private lastError: unknown = null;

  constructor(
    private readonly publisher: HitPublisher,
    private readonly options: HitBufferOptions,
  ) {}

  /** Takes a hit into the next group; false when the buffer is full and the hit was not taken. */
  offer(hit: AcceptedHit, answered: Answered): boolean {
    if (this.size >= this.options.capacity) return false;
    this.group.push({ hit, answered });
    if (this.group.length >= this.options.maxBatch) this.write();
    else if (this.immediate === null && this.timer === null) {
      if (this.writes.size === 0) this.immediate = setImmediate(() => this.write());
      else this.timer = setTimeout(() => this.write(), this.options.flushMs);
    }
    return true;
  }

  /** Hits taken and not yet answered: gathering, or in a write. */
  get size(): number {
    return this.group.length + this.writing;
  }

  get capacity(): number {
    return this.options.capacity;
  }

  /** Server time of the oldest hit not yet answered, or null when none is. */
  get oldestAt(): number | null {
    // The first group in flight is the oldest: groups are written in arrival order.
    for (const at of this.writingSince.values()) return at;
    return this.group[0]?.hit.at ?? null;
  }

  /** The last write failure, cleared by the next success; for health reporting. */
  get error(): unknown {
    return this.lastError;
  }

  /** Writes the group gathering now and waits for every write in flight (at a stop: every hit taken is answered). */
  async drain(): Promise<void> {
    this.write();
    while (this.writes.size > 0) await Promise.all([...this.writes]);
  }

  /** Hands the gathered group to the bus, and answers each of its hits when the write settles. */
  private write(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    const group = this.group;
    if (group.length === 0) return;
    this.group = [];
    this.writing += group.length;
    const done = this.publisher
      .publish(group.map((w) => w.hit))
      .then(
        () => {
          this.lastError = null;
          return true;
        },
        (error: unknown) => {
          this.lastError = error;
          return false;
        },
      )
      .then((durable) => {
        this.writing -= group.length;
        this.writingSince.delete(done);
        for (const { answered } of group) answerSafely(answered, durable);
        // The group that gathered meanwhile goes now, without waiting out its window.
        if (this.group.length > 0) this.write();
      });
    this.writes.add(done);
    this.writingSince.set(done, group[0]!.hit.at);
    void done.finally(() => this.writes.delete(done));
  }
}

/** One answer that throws (a socket in a state we did not foresee) must not leave the rest of its group unanswered. */
function answerSafely(answered: Answered, durable: boolean): void {
  try {
    answered(durable);
  } catch {
    // That client gets no answer; it sends the hit again.
  }
}
