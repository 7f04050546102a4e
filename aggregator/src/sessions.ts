import { createHash } from 'node:crypto';
import { sourceOf, startsNewVisit, type VisitSource } from './source.js';

/** A visit ends after 30 minutes without a hit (the specification's visit time-out). */
export const VISIT_TIMEOUT_MS = 30 * 60 * 1000;

/** A visit of one page view is a bounce while it has lasted, and been engaged, less than this. */
export const BOUNCE_MS = 15_000;

/**
 * How long an ended visit is kept to take the reports that arrive after it: a page left open
 * and visible for an hour reports its engaged time and reading depth when it is hidden.
 */
export const VISIT_RETAIN_MS = 4 * VISIT_TIMEOUT_MS;

/**
 * What a hit is to its visit: a page view; an action of the visitor (a custom event, a click,
 * an outbound link), which keeps the visit alive; or a report about a page view already
 * counted (engaged time, reading depth), which belongs to the visit however late it comes.
 */
export type HitRole = 'pageview' | 'action' | 'report';

/** A visit as the cutter knows it: its id, its number, when it began, and its latest hit. */
export interface Visit {
  id: bigint;
  /** the visitor's how-many-th visit to the project this is, from 1 (the catalogue's session_number) */
  number: number;
  startAt: number;
  /** the time of its latest page view or action (reports do not count) */
  lastAt: number;
  /** events and page views of the visit so far */
  events: number;
  pageViews: number;
  /** the engaged time its engagement reports add up to, ms */
  engagedMs: number;
  /**
   * Whether the visit counts as a bounce now: the sum of the bounce deltas written for it so
   * far (true: 1, false: 0). Kept, not derived, so that every delta moves the sum between 0 and 1.
   */
  bounce: boolean;
  /** where the visit came from; set from its first hit */
  source?: VisitSource;
}

/** What the cutter needs to know of a hit besides its visitor, time and role. */
export interface HitFacts {
  /**
   * The hit's own source (its referrer and page address classified). A new visit takes it; a
   * page view from another source starts a new visit (see startsNewVisit). Without it, only
   * the time-out cuts.
   */
  source?: VisitSource;
  /** whether the hit's referrer is on the site's own pages (internal navigation never cuts) */
  internal?: boolean;
  /** the engaged time an engagement report carries, ms */
  engagedMs?: number;
}

/** What one hit adds to its visit, for the rollups: see toEventRow. */
export interface VisitStep {
  visit: Visit;
  /** the hit's number within the visit, from 1 */
  eventNumber: number;
  /**
   * +1 when the hit makes the visit a bounce (its first page view), -1 when it makes it no
   * longer one (see isBounce), else 0: a visit's deltas sum to 1 for a bounce and 0 otherwise.
   */
  bounceDelta: number;
  /** how much longer the visit has become, ms */
  durationDelta: number;
}

/**
 * Whether a visit is a bounce: one page view, and neither lasted (first hit to latest page view
 * or action) nor engaged (reported visible time) 15 s. Once false it stays false: page views,
 * duration and engaged time only grow.
 */
function isBounce(visit: Visit): boolean {
  return visit.pageViews === 1 && visit.lastAt - visit.startAt < BOUNCE_MS && visit.engagedMs < BOUNCE_MS;
}

/** The key of a visitor within a project. */
export function visitorKey(project: number, visitor: string): string {
  return `${project}:${visitor}`;
}

/**
 * Cuts visits: a visitor's hit more than the time-out after their previous one starts a new
 * visit, and so does a page view arriving from another source (see startsNewVisit). The visit
 * id is derived from the visitor and the visit's first hit (and, for a visit cut by its
 * source, from the visit before it), so the same stream cut twice gives the same ids.
 */
export class VisitCutter {
  private readonly open = new Map<string, Visit>();
  /**
   * How many visits stored visitors had, for visitors without an open visit here: read from
   * storage before a batch (see recallVisits), taken by the visitor's next new visit.
   */
  private readonly pastVisits = new Map<string, number>();
  /** The state before the first change of each visit since begin(), for rollback(). */
  private journal: Map<string, Visit | undefined> | null = null;

  constructor(private readonly timeoutMs: number = VISIT_TIMEOUT_MS) {}

  /** The visit of a hit at `at` (epoch ms) by `visitor` of `project`, and what the hit adds to it. */
  step(project: number, visitor: string, at: number, role: HitRole, facts: HitFacts = {}): VisitStep {
    const key = visitorKey(project, visitor);
    const current = this.open.get(key);
    this.remember(key, current);
    let visit: Visit;
    const inTime = current !== undefined && at - current.lastAt <= this.timeoutMs && at >= current.startAt - this.timeoutMs;
    const lateReport = role === 'report' && current !== undefined && at - current.lastAt <= VISIT_RETAIN_MS;
    const goesOn = current !== undefined && (inTime || lateReport);
    const cutBySource =
      goesOn && role === 'pageview' && current.source !== undefined && facts.source !== undefined && startsNewVisit(current.source, facts.source, facts.internal ?? false);
    if (goesOn && !cutBySource) {
      visit = { ...current };
    } else {
      const before = current?.number ?? this.pastVisits.get(key) ?? 0;
      // A visit cut by its source may start in the very millisecond of the one before it.
      const id = cutBySource ? visitId(key, at, current.id) : visitId(key, at);
      visit = { id, number: before + 1, startAt: at, lastAt: at, events: 0, pageViews: 0, engagedMs: 0, bounce: false };
    }
    if (visit.source === undefined && facts.source !== undefined) visit.source = sourceOf(facts.source);
    // A report neither lengthens its visit nor keeps it alive.
    const durationDelta = role === 'report' ? 0 : Math.max(0, at - visit.lastAt);
    if (role !== 'report') visit.lastAt = Math.max(visit.lastAt, at);
    visit.events += 1;
    if (role === 'pageview') visit.pageViews += 1;
    visit.engagedMs += facts.engagedMs ?? 0;
    const wasBounce = visit.bounce;
    visit.bounce = isBounce(visit);
    const bounceDelta = Number(visit.bounce) - Number(wasBounce);
    this.open.set(key, visit);
    return { visit, eventNumber: visit.events, bounceDelta, durationDelta };
  }

  /** The visit of a hit, counting it as a page view. */
  visitOf(project: number, visitor: string, at: number): Visit {
    return this.step(project, visitor, at, 'pageview').visit;
  }

  /** Starts recording changes, so that a batch that failed to store can be undone. */
  begin(): void {
    this.journal = new Map();
  }

  /** Keeps the changes since begin(). */
  commit(): void {
    this.journal = null;
  }

  /** Undoes the changes since begin(): the batch will be cut again from the same state. */
  rollback(): void {
    if (!this.journal) return;
    for (const [key, before] of this.journal) {
      if (before) this.open.set(key, before);
      else this.open.delete(key);
    }
    this.journal = null;
  }

  private remember(key: string, before: Visit | undefined): void {
    if (this.journal && !this.journal.has(key)) this.journal.set(key, before);
  }

  /**
   * Tells the cutter how many visits a visitor without an open visit here had before (from
   * storage), so that their next visit is numbered after them. Not undone by rollback: it is a
   * stored fact, not a change of this batch.
   */
  recallVisits(project: number, visitor: string, visits: number): void {
    this.pastVisits.set(visitorKey(project, visitor), visits);
  }

  /** Whether the cutter holds an open visit for the visitor. */
  knows(project: number, visitor: string): boolean {
    return this.open.has(visitorKey(project, visitor));
  }

  /** Takes back a visit that was open before a restart, as read from storage. */
  restore(project: number, visitor: string, visit: Visit): void {
    const key = visitorKey(project, visitor);
    const current = this.open.get(key);
    if (!current || current.lastAt < visit.lastAt) {
      this.remember(key, current);
      this.open.set(key, visit);
    }
  }

  /** Forgets visits past keeping by `now`, so memory is bounded by recently active visitors. */
  sweep(now: number): void {
    // Recalled counts serve the batch they were read for; the next batch reads them again.
    this.pastVisits.clear();
    for (const [key, visit] of this.open) {
      if (now - visit.lastAt > VISIT_RETAIN_MS) {
        this.remember(key, visit);
        this.open.delete(key);
      }
    }
  }

  get size(): number {
    return this.open.size;
  }
}

function visitId(key: string, startAt: number, previous?: bigint): bigint {
  const seed = previous === undefined ? `${key}:${startAt}` : `${key}:${startAt}:${previous}`;
  return createHash('sha1').update(seed).digest().readBigUInt64BE(0);
}
