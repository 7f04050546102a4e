import type { AcceptedHit } from '@stat/schemas';
import { VISIT_RETAIN_MS, visitorKey, type VisitCutter } from '../sessions.js';
import type { EventStore } from '../storage.js';

/** The reads of storage the recall makes. */
export type VisitStore = Pick<EventStore, 'openVisits' | 'visitCounts'>;

/** Visitors looked up per query, so the parameters stay small over HTTP. */
const RECALL_CHUNK = 1000;

/** A visitor of a project. */
interface Visitor {
  project: number;
  visitor: string;
}

/**
 * Tells the visit cutter what storage knows of a batch's visitors it holds no open visit for, so
 * that visits and their numbers go on across a restart of the aggregator.
 */
export class VisitRecall {
  constructor(
    private readonly store: VisitStore,
    private readonly visits: VisitCutter,
    /**
     * `restore` off only for writing history into a project known to be empty (the demo seed);
     * `startedAt` the time this process started
     */
    private readonly options: { restore: boolean; startedAt: number },
  ) {}

  /** Restores the hits' visitors' open visits, then recalls how many visits they have stored. */
  async recall(hits: readonly AcceptedHit[]): Promise<void> {
    await this.restoreOpenVisits(hits);
    await this.recallVisitCounts(hits);
  }

  /** Brings back visits that were open before a restart, for visitors this process has not seen. */
  private async restoreOpenVisits(hits: readonly AcceptedHit[]): Promise<void> {
    if (!this.options.restore || hits.length === 0) return;
    const earliest = hits.reduce((min, hit) => Math.min(min, hit.at), Infinity);
    await this.lookUpVisitorsNotHeld(
      hits,
      // A visit of a previous run is past keeping by startedAt + VISIT_RETAIN_MS; a visitor
      // unknown after that has no visit to find.
      (hit) => hit.at < this.options.startedAt + VISIT_RETAIN_MS,
      (visitors) => this.store.openVisits(visitors, earliest),
      ({ project, visitor }, visit) => this.visits.restore(project, visitor, visit),
    );
  }

  /** Tells the cutter how many visits the visitors have stored, so that a returning visitor's new visit gets the next number. */
  private recallVisitCounts(hits: readonly AcceptedHit[]): Promise<void> {
    return this.lookUpVisitorsNotHeld(
      hits,
      () => true,
      (visitors) => this.store.visitCounts(visitors),
      ({ project, visitor }, count) => this.visits.recallVisits(project, visitor, count),
    );
  }

  /**
   * Looks up in storage the visitors of `hits` the cutter holds no open visit for (among the
   * hits `wanted` accepts), in chunks, and hands each answer found to `take`.
   */
  private async lookUpVisitorsNotHeld<T>(
    hits: readonly AcceptedHit[],
    wanted: (hit: AcceptedHit) => boolean,
    lookup: (visitors: Visitor[]) => Promise<Map<string, T>>,
    take: (visitor: Visitor, found: T) => void,
  ): Promise<void> {
    const unknown = new Map<string, Visitor>();
    for (const hit of hits) {
      if (wanted(hit) && !this.visits.knows(hit.hit.p, hit.hit.v)) unknown.set(visitorKey(hit.hit.p, hit.hit.v), { project: hit.hit.p, visitor: hit.hit.v });
    }
    const lookups = [...unknown.values()];
    for (let i = 0; i < lookups.length; i += RECALL_CHUNK) {
      for (const [key, found] of await lookup(lookups.slice(i, i + RECALL_CHUNK))) take(unknown.get(key)!, found);
    }
  }
}
