import { createHash } from 'node:crypto';

/** A visit ends after 30 minutes without a hit (the specification's visit time-out). */
export const VISIT_TIMEOUT_MS = 30 * 60 * 1000;

interface OpenVisit {
  id: bigint;
  lastAt: number;
}

/**
 * Cuts visits: a visitor's hit more than the time-out after their previous one starts a new
 * visit. The visit id is derived from the visitor and the visit's first hit, so the same
 * stream cut twice gives the same ids.
 */
export class VisitCutter {
  private readonly open = new Map<string, OpenVisit>();

  constructor(private readonly timeoutMs: number = VISIT_TIMEOUT_MS) {}

  /** The visit id of a hit at `at` (epoch ms) by `visitor` of `project`. */
  visitOf(project: number, visitor: string, at: number): bigint {
    const key = `${project}:${visitor}`;
    const current = this.open.get(key);
    if (current && at - current.lastAt <= this.timeoutMs && at >= current.lastAt - this.timeoutMs) {
      current.lastAt = Math.max(current.lastAt, at);
      return current.id;
    }
    const id = visitId(key, at);
    this.open.set(key, { id, lastAt: at });
    return id;
  }

  /** Forgets visits that have timed out by `now`, keeping memory bounded by active visitors. */
  sweep(now: number): void {
    for (const [key, visit] of this.open) if (now - visit.lastAt > this.timeoutMs) this.open.delete(key);
  }

  get size(): number {
    return this.open.size;
  }
}

function visitId(key: string, startAt: number): bigint {
  return createHash('sha1').update(`${key}:${startAt}`).digest().readBigUInt64BE(0);
}
