import { createHash } from 'node:crypto';
import type { VisitSource } from './rows.js';

/** A visit ends after 30 minutes without a hit (the specification's visit time-out). */
export const VISIT_TIMEOUT_MS = 30 * 60 * 1000;

/** A visit as the cutter knows it: its id, when it began, and its latest hit. */
export interface Visit {
  id: bigint;
  startAt: number;
  lastAt: number;
  /** where the visit came from; set from its first hit */
  source?: VisitSource;
}

/** The key of a visitor within a project. */
export function visitorKey(project: number, visitor: string): string {
  return `${project}:${visitor}`;
}

/**
 * Cuts visits: a visitor's hit more than the time-out after their previous one starts a new
 * visit. The visit id is derived from the visitor and the visit's first hit, so the same
 * stream cut twice gives the same ids.
 */
export class VisitCutter {
  private readonly open = new Map<string, Visit>();

  constructor(private readonly timeoutMs: number = VISIT_TIMEOUT_MS) {}

  /** The visit of a hit at `at` (epoch ms) by `visitor` of `project`. */
  visitOf(project: number, visitor: string, at: number): Visit {
    const key = visitorKey(project, visitor);
    const current = this.open.get(key);
    if (current && at - current.lastAt <= this.timeoutMs && at >= current.startAt - this.timeoutMs) {
      current.lastAt = Math.max(current.lastAt, at);
      return current;
    }
    const visit = { id: visitId(key, at), startAt: at, lastAt: at };
    this.open.set(key, visit);
    return visit;
  }

  /** Whether the cutter holds an open visit for the visitor. */
  knows(project: number, visitor: string): boolean {
    return this.open.has(visitorKey(project, visitor));
  }

  /** Takes back a visit that was open before a restart, as read from storage. */
  restore(project: number, visitor: string, visit: Visit): void {
    const key = visitorKey(project, visitor);
    const current = this.open.get(key);
    if (!current || current.lastAt < visit.lastAt) this.open.set(key, visit);
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
