import type { ClickHouseClient } from '@clickhouse/client';
import type { AcceptedHit, BatchPosition, BusPosition, HitType } from '@stat/schemas';
import { VISIT_RETAIN_MS, VisitCutter, visitorKey, type HitRole } from './sessions.js';
import { sourceOf, toEventRow, type BusPlace, type EventRow } from './rows.js';
import { EventStore, type DroppedHit } from './storage.js';
import { createEnricher, type Enricher } from './enrich/index.js';
import { applySiteRules, SiteRulesCache, type SiteRulesLoader } from './site-rules.js';

export interface AggregatorOptions {
  /** Pause between tries of a failed write; doubles up to maxRetryMs. */
  retryMs: number;
  maxRetryMs: number;
  /**
   * Look up visits left open by a previous run for visitors this process has not seen yet.
   * Off only for writing history into a project known to be empty (the demo seed).
   */
  restoreVisits: boolean;
  enricher: Enricher;
  /**
   * Reads the projects' counter settings (whitelist, blacklist, merging, hashes). Without it
   * every hit counts under the address it came with (the demo seed, tests without Postgres).
   */
  siteRules: SiteRulesLoader | null;
  log: (message: string) => void;
}

const DEFAULTS: Omit<AggregatorOptions, 'enricher'> = { retryMs: 250, maxRetryMs: 10_000, restoreVisits: true, siteRules: null, log: (m) => console.error(m) };

/** What the aggregator has done since it started, for the operator. */
export interface AggregatorStats {
  stored: number;
  droppedBots: number;
  /** hits of pages the project's whitelist or blacklist excludes */
  droppedByRules: number;
  /** hits of projects that are unknown or deleted (only with counter settings to read) */
  droppedNoProject: number;
  skippedReplays: number;
}

/** The partitions' positions of a batch, one or several. */
function segmentsOf(position: BatchPosition): readonly BusPosition[] {
  return Array.isArray(position) ? position : [position as BusPosition];
}

/** What each hit type is to its visit. */
function roleOf(type: HitType): HitRole {
  switch (type) {
    case 'pageview':
      return 'pageview';
    case 'engagement':
    case 'read':
      return 'report';
    case 'event':
    case 'click':
    case 'show':
    case 'outbound':
      return 'action';
  }
}

/** Visitors looked up per query, so the parameters stay small over HTTP. */
const RESTORE_CHUNK = 1000;

/** A visitor of a project. */
interface Visitor {
  project: number;
  visitor: string;
}

interface Placed {
  hit: AcceptedHit;
  place: BusPlace | undefined;
}

/**
 * Turns bus batches into `events` rows and writes them. The handler resolves only after
 * ClickHouse took the batch; while ClickHouse refuses, it waits and tries again, so the bus
 * never moves past an unwritten batch. Hits of a batch replayed from Kafka that are already
 * stored (their offset is at or below the partition's stored offset) are skipped.
 */
export function createAggregator(clickhouse: ClickHouseClient, options: Partial<AggregatorOptions> = {}) {
  const opts: AggregatorOptions = { ...DEFAULTS, enricher: options.enricher ?? createEnricher(), ...options };
  const stats: AggregatorStats = { stored: 0, droppedBots: 0, droppedByRules: 0, droppedNoProject: 0, skippedReplays: 0 };
  const rules = opts.siteRules ? new SiteRulesCache(opts.siteRules) : null;
  const store = new EventStore(clickhouse);
  const visits = new VisitCutter();
  const written = new Map<string, number>();
  const startedAt = Date.now();
  let stopped = false;

  const storedOffset = async (topic: string, partition: number, fresh: boolean): Promise<number> => {
    const key = `${topic}:${partition}`;
    let offset = written.get(key);
    if (offset === undefined || fresh) {
      offset = await store.writtenOffset(topic, partition);
      written.set(key, offset);
    }
    return offset;
  };

  /** The hits of the batch that are not stored yet, with their places on the bus. */
  const unwritten = async (hits: AcceptedHit[], position: BatchPosition | undefined, fresh: boolean): Promise<Placed[]> => {
    if (!position) return hits.map((hit) => ({ hit, place: undefined }));
    const placed: Placed[] = [];
    let next = 0;
    for (const segment of segmentsOf(position)) {
      const stored = await storedOffset(segment.topic, segment.partition, fresh);
      for (const offset of segment.offsets) {
        const hit = hits[next++];
        if (hit && offset > stored) placed.push({ hit, place: { topic: segment.topic, partition: segment.partition, offset } });
      }
    }
    if (!fresh) stats.skippedReplays += hits.length - placed.length;
    return placed;
  };

  /**
   * Looks up in storage the batch's visitors this process holds no open visit for (among the
   * hits `wanted` accepts), in chunks so the parameters stay small over HTTP, and hands each
   * answer found to `take`.
   */
  const lookUpVisitorsNotHeld = async <T>(
    placed: Placed[],
    wanted: (hit: AcceptedHit) => boolean,
    lookup: (visitors: Visitor[]) => Promise<Map<string, T>>,
    take: (visitor: Visitor, found: T) => void,
  ): Promise<void> => {
    const unknown = new Map<string, Visitor>();
    for (const { hit } of placed) {
      if (wanted(hit) && !visits.knows(hit.hit.p, hit.hit.v)) unknown.set(visitorKey(hit.hit.p, hit.hit.v), { project: hit.hit.p, visitor: hit.hit.v });
    }
    const lookups = [...unknown.values()];
    for (let i = 0; i < lookups.length; i += RESTORE_CHUNK) {
      for (const [key, found] of await lookup(lookups.slice(i, i + RESTORE_CHUNK))) take(unknown.get(key)!, found);
    }
  };

  /** Brings back visits that were open before a restart, for visitors this process has not seen. */
  const restoreVisits = async (placed: Placed[]): Promise<void> => {
    if (!opts.restoreVisits) return;
    const earliest = placed.reduce((min, p) => Math.min(min, p.hit.at), Infinity);
    await lookUpVisitorsNotHeld(
      placed,
      // A visit of a previous run is past keeping by startedAt + VISIT_RETAIN_MS; a visitor
      // unknown after that has no visit to find.
      (hit) => hit.at < startedAt + VISIT_RETAIN_MS,
      (visitors) => store.openVisits(visitors, earliest),
      ({ project, visitor }, visit) => visits.restore(project, visitor, visit),
    );
  };

  /**
   * Tells the cutter how many visits the batch's visitors without an open visit here have
   * stored, so that a returning visitor's new visit gets the next number, after a restart too.
   */
  const recallVisitCounts = (placed: Placed[]): Promise<void> =>
    lookUpVisitorsNotHeld(
      placed,
      () => true,
      (visitors) => store.visitCounts(visitors),
      ({ project, visitor }, count) => visits.recallVisits(project, visitor, count),
    );

  /**
   * Applies the project's counter settings, enriches and cuts visits (the hits of live projects
   * only, see handle); hits of excluded pages and bots are dropped here, to be counted and
   * recorded in dropped_hits for the operator and the site's owner.
   */
  const toRows = (placed: Placed[]): { rows: EventRow[]; dropped: DroppedHit[] } => {
    const rows: EventRow[] = [];
    const dropped: DroppedHit[] = [];
    for (const placedHit of placed) {
      const { place } = placedHit;
      let { hit } = placedHit;
      const siteRules = rules?.get(hit.hit.p) ?? null;
      if (siteRules) {
        const ruled = applySiteRules(hit.hit.u, siteRules);
        if (ruled.kind === 'drop') {
          dropped.push({ hit, reason: ruled.reason });
          continue;
        }
        if (ruled.url !== hit.hit.u) hit = { ...hit, hit: { ...hit.hit, u: ruled.url } };
      }
      const enriched = opts.enricher.enrichHit(hit, siteRules?.siteHost);
      if (enriched.kind === 'drop') {
        dropped.push({ hit, reason: enriched.reason });
        continue;
      }
      const step = visits.step(hit.hit.p, hit.hit.v, hit.at, roleOf(hit.hit.t));
      step.visit.source ??= sourceOf(enriched.enrichment);
      rows.push(toEventRow(hit, enriched.enrichment, step, place));
    }
    return { rows, dropped };
  };

  const handle = async (messages: readonly unknown[], position?: BatchPosition): Promise<void> => {
    const hits = messages as AcceptedHit[];
    // A bus that sends offsets not matching its hits is a bug, not an outage: no retry helps.
    const offsets = position ? segmentsOf(position).reduce((n, segment) => n + segment.offsets.length, 0) : hits.length;
    if (offsets !== hits.length) throw new Error(`a batch of ${hits.length} hits came with ${offsets} bus offsets`);
    let wait = opts.retryMs;
    for (let attempt = 0; ; attempt++) {
      try {
        // After a failed try, ask ClickHouse again: the insert may have landed all the same.
        const placed = await unwritten(hits, position, attempt > 0);
        if (placed.length === 0) return;
        // Hits arrive in server-time order per visitor; sort so visits are cut in order.
        placed.sort((a, b) => a.hit.at - b.hit.at);
        // Visit state changes only with a stored batch: a failed try is undone and cut again.
        // The projects' settings first: hits of unknown or deleted projects (their counters stopped
        // collecting) are set aside before any visit is looked up for them.
        await rules?.load(placed.map((p) => p.hit.hit.p));
        const live = rules ? placed.filter((p) => rules.get(p.hit.hit.p) !== null) : placed;
        visits.begin();
        await restoreVisits(live);
        await recallVisitCounts(live);
        const { rows, dropped } = toRows(live);
        // Dropped hits first: if the events' insert fails, the batch comes again and the same
        // ids are written again, which the table's key makes one.
        if (dropped.length > 0) await store.insertDropped(dropped);
        if (rows.length > 0) await store.insert(rows);
        stats.stored += rows.length;
        const bots = dropped.filter((d) => d.reason === 'bot').length;
        stats.droppedBots += bots;
        stats.droppedByRules += dropped.length - bots;
        stats.droppedNoProject += placed.length - live.length;
        // The highest stored offset of each partition, as the insert recorded it.
        for (const { place } of placed) {
          if (!place) continue;
          const key = `${place.topic}:${place.partition}`;
          if (place.offset > (written.get(key) ?? -1)) written.set(key, place.offset);
        }
        visits.commit();
        // Sweep by the stream's own clock, so replayed or generated history is cut the same way.
        visits.sweep(placed[placed.length - 1]!.hit.at);
        return;
      } catch (error) {
        visits.rollback();
        if (stopped) throw error;
        opts.log(`aggregator: write of ${hits.length} events failed, retrying in ${wait} ms: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(wait * 2, opts.maxRetryMs);
      }
    }
  };

  return {
    handle,
    visits,
    stats,
    stop: (): void => {
      stopped = true;
    },
  };
}
