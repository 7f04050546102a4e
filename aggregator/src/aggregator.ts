import type { AcceptedHit, BatchHandler, BatchPosition, BusPosition, DeadLetterPublisher, EventRow, WriterHealth } from '@stat/schemas';
import type { ClickHouseClient } from '@stat/storage';
import type { Metrics } from '@stat/telemetry';
import { VISIT_RETAIN_MS, VisitCutter, visitorKey } from './sessions.js';
import type { BusPlace } from './rows.js';
import { EventStore, type DroppedHit, type SetAside } from './storage.js';
import { createEnricher, type Enricher } from './enrich/index.js';
import { SiteRulesCache, type SiteRulesLoader } from './site-rules.js';
import { deadLetterOf, parseMessage } from './steps/parse.js';
import { applySiteRulesStep } from './steps/site-rules.js';
import { checkBot } from './steps/bot-check.js';
import { enrichStep, type EnrichedHit } from './steps/enrich.js';
import { cutVisitStep } from './steps/visits.js';
import { toRowStep } from './steps/row.js';
import { writeSplitting } from './steps/write.js';
import type { StepResult } from './steps/result.js';

export interface AggregatorOptions {
  /** Pause between tries of a batch that met an outage; doubles up to maxRetryMs. */
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
  /**
   * Where dead letters go besides ClickHouse's dead_hits (cluster mode: Kafka's dead-letter
   * topic, see KafkaDeadLetters). A failure to publish is an outage: the batch is tried again.
   */
  deadLetters: DeadLetterPublisher | null;
  log: (message: string) => void;
  /** The process's metrics (batch sizes, write latency, stored, dropped and dead-lettered events); none by default. */
  metrics: Metrics | null;
}

const DEFAULTS: Omit<AggregatorOptions, 'enricher'> = {
  retryMs: 250,
  maxRetryMs: 10_000,
  restoreVisits: true,
  siteRules: null,
  deadLetters: null,
  log: (m) => console.error(m),
  metrics: null,
};

/**
 * Why a message went to dead_hits, the `reason` label of stat_events_dead_lettered_total: not an
 * accepted hit (the parse step), a hit a later step could not turn into a row, a row ClickHouse refused.
 */
export type DeadLetterReason = 'invalid_message' | 'invalid_hit' | 'storage_refused';

/** What the aggregator has done since it started, for the operator. */
export interface AggregatorStats {
  stored: number;
  droppedBots: number;
  /** hits of pages the project's whitelist or blacklist excludes */
  droppedByRules: number;
  /** hits of projects that are unknown or deleted (only with counter settings to read) */
  droppedNoProject: number;
  skippedReplays: number;
  /** messages set aside in dead_hits: not accepted hits, or rows ClickHouse refused */
  deadLettered: number;
}

/** Whether the aggregator keeps up, for a health check: the writer of the health report. */
export type AggregatorHealth = WriterHealth;

/** The aggregator: the bus's batch handler and what it tells the operator. */
export interface Aggregator {
  /**
   * Stores a batch. Resolves once every message is stored, dropped or set aside as a dead
   * letter; while an outage lasts it waits and tries again, never resolving, so the bus never
   * moves past an unwritten batch.
   */
  handle: BatchHandler;
  /** live counters, see AggregatorStats */
  stats: AggregatorStats;
  /**
   * Makes a handle that is waiting out an outage reject at once (its sleep and its requests in
   * flight interrupted) with Error('aggregator stopped'). Later calls still try once, and reject
   * so only if that try fails.
   */
  stop(): void;
  health(): AggregatorHealth;
  /** server time (epoch ms) of the newest hit this aggregator stored, or null before the first */
  newestStoredAt(): number | null;
  /** the visits open in this process */
  visits: VisitCutter;
}

/** The partitions' positions of a batch, one or several. */
function segmentsOf(position: BatchPosition): readonly BusPosition[] {
  return Array.isArray(position) ? position : [position as BusPosition];
}

/** The place on the bus of each message of a batch (none for the in-process bus). */
function placesOf(position: BatchPosition | undefined, count: number): (BusPlace | undefined)[] {
  if (!position) return new Array<undefined>(count).fill(undefined);
  return segmentsOf(position).flatMap(({ topic, partition, offsets }) => offsets.map((offset) => ({ topic, partition, offset })));
}

/** Goes on with the value of a step that let it through; a drop or a dead letter ends the hit's way. */
function then<A, B>(result: StepResult<A>, step: (value: A) => StepResult<B>): StepResult<B> {
  return 'ok' in result ? step(result.ok) : result;
}

/** Waits `ms`, or less when the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Visitors looked up per query, so the parameters stay small over HTTP. */
const RESTORE_CHUNK = 1000;

/** A visitor of a project. */
interface Visitor {
  project: number;
  visitor: string;
}

/** A message of a batch: as it came, where it sat on the bus, and what the parse step made of it. */
interface Message {
  index: number;
  body: unknown;
  place: BusPlace | undefined;
  parsed: StepResult<AcceptedHit>;
}

/** Something of a batch to write, and whether it is written (stored or set aside) yet. */
interface Writing {
  body: unknown;
  done: boolean;
}

interface RowWriting extends Writing {
  row: EventRow;
  /** the hit's server time */
  at: number;
  place: BusPlace | undefined;
  stored: boolean;
}

interface DropWriting extends Writing {
  dropped: DroppedHit;
}

/**
 * A batch cut into what to write. Kept while its writes are tried again: the visits it cut stay
 * cut, and what is written already is not written again.
 */
interface Prepared {
  /** the messages not stored before (a replay's stored part skipped) */
  messages: Message[];
  /** event rows in the batch's order (bus offsets ascending per partition) */
  rows: RowWriting[];
  dropped: DropWriting[];
  /** dead letters not written yet */
  dead: SetAside[];
  deadWritten: number;
  droppedBots: number;
  droppedByRules: number;
  droppedNoProject: number;
  /** dead letters of the batch by reason, written or to be written */
  deadReasons: Map<DeadLetterReason, number>;
  /** the latest server time of the batch's hits, the stream's clock for sweeping visits */
  latestAt: number | null;
}

/**
 * Turns bus batches into `events` rows and writes them, as a pipeline of small steps (steps/):
 * parse, site rules, bot check, enrich, visits, row, then the batch write. What is per batch stays
 * here: skipping what a replayed Kafka batch already stored (its offset is at or below the
 * partition's stored offset), loading the projects' settings, restoring visits and visit numbers,
 * and the visit state's journal (a batch not stored is cut again from the state before it).
 *
 * Bad data is a value: a message that is no accepted hit, or a row ClickHouse refuses, becomes a
 * dead letter (dead_hits, and options.deadLetters) and the rest of the batch is stored. An outage
 * is an exception: the batch is tried again, with growing pauses, until it is stored or stop().
 */
export function createAggregator(clickhouse: ClickHouseClient, options: Partial<AggregatorOptions> = {}): Aggregator {
  const opts: AggregatorOptions = { ...DEFAULTS, enricher: options.enricher ?? createEnricher(), ...options };
  const stats: AggregatorStats = { stored: 0, droppedBots: 0, droppedByRules: 0, droppedNoProject: 0, skippedReplays: 0, deadLettered: 0 };
  /** server time of the newest hit stored, for stat_freshness_seconds */
  let newestStoredAt: number | null = null;
  const metrics = opts.metrics;
  if (metrics) {
    // Every reason from zero, so that a rate over it exists before the first.
    for (const reason of ['bot', 'counter_settings', 'no_project', 'replay']) metrics.eventsDropped.inc({ reason }, 0);
    for (const reason of ['invalid_message', 'invalid_hit', 'storage_refused']) metrics.eventsDeadLettered.inc({ reason }, 0);
  }
  const health: AggregatorHealth = { failing: null, failingSince: null, oldestUnstoredAt: null };
  const rules = opts.siteRules ? new SiteRulesCache(opts.siteRules) : null;
  /** The batch in hand's interruption: stop() aborts its sleep and its requests in flight. */
  let interrupt: AbortController | null = null;
  const store = new EventStore(clickhouse, () => interrupt?.signal);
  const visits = new VisitCutter();
  const written = new Map<string, number>();
  const startedAt = Date.now();
  let stopped = false;

  const applyRules = applySiteRulesStep(rules ? (project) => rules.get(project) : null);
  const enrich = enrichStep(opts.enricher);
  const cutVisit = cutVisitStep(visits);

  /** The highest stored offset of each partition among `places`, read from ClickHouse when not known or `fresh`. */
  const storedOffsets = async (places: Iterable<BusPlace | undefined>, fresh: boolean): Promise<Map<string, number>> => {
    const offsets = new Map<string, number>();
    for (const place of places) {
      if (!place) continue;
      const key = `${place.topic}:${place.partition}`;
      if (offsets.has(key)) continue;
      let offset = fresh ? undefined : written.get(key);
      if (offset === undefined) {
        offset = await store.writtenOffset(place.topic, place.partition);
        written.set(key, offset);
      }
      offsets.set(key, offset);
    }
    return offsets;
  };

  /** Whether the place is at or below its partition's stored offset. */
  const isStored = (place: BusPlace | undefined, offsets: Map<string, number>): boolean =>
    place !== undefined && place.offset <= (offsets.get(`${place.topic}:${place.partition}`) ?? -1);

  /**
   * Looks up in storage the visitors of `hits` this process holds no open visit for (among the
   * hits `wanted` accepts), in chunks so the parameters stay small over HTTP, and hands each
   * answer found to `take`.
   */
  const lookUpVisitorsNotHeld = async <T>(
    hits: readonly AcceptedHit[],
    wanted: (hit: AcceptedHit) => boolean,
    lookup: (visitors: Visitor[]) => Promise<Map<string, T>>,
    take: (visitor: Visitor, found: T) => void,
  ): Promise<void> => {
    const unknown = new Map<string, Visitor>();
    for (const hit of hits) {
      if (wanted(hit) && !visits.knows(hit.hit.p, hit.hit.v)) unknown.set(visitorKey(hit.hit.p, hit.hit.v), { project: hit.hit.p, visitor: hit.hit.v });
    }
    const lookups = [...unknown.values()];
    for (let i = 0; i < lookups.length; i += RESTORE_CHUNK) {
      for (const [key, found] of await lookup(lookups.slice(i, i + RESTORE_CHUNK))) take(unknown.get(key)!, found);
    }
  };

  /** Brings back visits that were open before a restart, for visitors this process has not seen. */
  const restoreVisits = async (hits: readonly AcceptedHit[]): Promise<void> => {
    if (!opts.restoreVisits || hits.length === 0) return;
    const earliest = hits.reduce((min, hit) => Math.min(min, hit.at), Infinity);
    await lookUpVisitorsNotHeld(
      hits,
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
  const recallVisitCounts = (hits: readonly AcceptedHit[]): Promise<void> =>
    lookUpVisitorsNotHeld(
      hits,
      () => true,
      (visitors) => store.visitCounts(visitors),
      ({ project, visitor }, count) => visits.recallVisits(project, visitor, count),
    );

  /**
   * Runs the steps over the batch's messages not stored yet: what to store, to record as
   * dropped, and to set aside. Opens the visit journal (see handle).
   */
  const prepare = async (all: readonly Message[], fresh: boolean): Promise<Prepared> => {
    const offsets = await storedOffsets(
      all.map((m) => m.place),
      fresh,
    );
    const messages = all.filter((m) => !isStored(m.place, offsets));
    // After a failed try, what is stored now was stored by that try, not by an earlier run.
    if (!fresh) {
      stats.skippedReplays += all.length - messages.length;
      metrics?.eventsDropped.inc({ reason: 'replay' }, all.length - messages.length);
    }
    const batch: Prepared = { messages, rows: [], dropped: [], dead: [], deadWritten: 0, droppedBots: 0, droppedByRules: 0, droppedNoProject: 0, deadReasons: new Map(), latestAt: null };
    const setAside = (message: Message, reason: string, kind: DeadLetterReason = 'invalid_hit'): void => {
      batch.dead.push(deadLetterOf(message.body, reason, Date.now()));
      batch.deadReasons.set(kind, (batch.deadReasons.get(kind) ?? 0) + 1);
    };
    const valid: { message: Message; hit: AcceptedHit }[] = [];
    for (const message of messages) {
      if ('ok' in message.parsed) valid.push({ message, hit: message.parsed.ok });
      else if ('deadLetter' in message.parsed) setAside(message, message.parsed.deadLetter, 'invalid_message');
    }
    if (valid.length === 0) return batch;
    // Hits arrive in server-time order per visitor; sort so visits are cut in order.
    valid.sort((a, b) => a.hit.at - b.hit.at);
    batch.latestAt = valid[valid.length - 1]!.hit.at;
    // The projects' settings first: hits of unknown or deleted projects (their counters stopped
    // collecting), excluded pages and bots are set aside before any visit is looked up for them.
    await rules?.load(valid.map((v) => v.hit.hit.p));
    const enriched: { message: Message; hit: EnrichedHit }[] = [];
    for (const { message, hit } of valid) {
      const result = then(then(applyRules(hit), checkBot), enrich);
      if ('ok' in result) enriched.push({ message, hit: result.ok });
      else if ('deadLetter' in result) setAside(message, result.deadLetter);
      else if (result.drop === 'no_project') batch.droppedNoProject += 1;
      else {
        batch.dropped.push({ body: message.body, dropped: { hit, reason: result.drop }, done: false });
        if (result.drop === 'bot') batch.droppedBots += 1;
        else batch.droppedByRules += 1;
      }
    }
    // Visit state changes only with a stored batch: a batch given up is undone (rollback).
    visits.begin();
    const hits = enriched.map((e) => e.hit.accepted);
    await restoreVisits(hits);
    await recallVisitCounts(hits);
    const rows: (RowWriting & { index: number })[] = [];
    for (const { message, hit } of enriched) {
      const result = then(cutVisit(hit), (visited) => toRowStep(visited, message.place));
      if ('ok' in result) rows.push({ index: message.index, body: message.body, row: result.ok, at: hit.accepted.at, place: message.place, done: false, stored: false });
      else if ('deadLetter' in result) setAside(message, result.deadLetter);
    }
    // Written in the batch's order, so that a partition's stored offset never passes a hit
    // neither stored nor set aside (see writeSplitting).
    batch.rows = rows.sort((a, b) => a.index - b.index);
    return batch;
  };

  /** Writes the dead letters not written yet: dead_hits, then the publisher. */
  const writeDead = async (batch: Prepared): Promise<void> => {
    if (batch.dead.length === 0) return;
    const letters = batch.dead;
    await store.insertDead(letters);
    await opts.deadLetters?.publish(letters.map((l) => l.letter));
    batch.dead = [];
    batch.deadWritten += letters.length;
  };

  /** Sets aside a row or dropped hit that ClickHouse refused, before anything after it is written. */
  const refuse = async (batch: Prepared, item: Writing, reason: string): Promise<void> => {
    item.done = true;
    batch.dead.push(deadLetterOf(item.body, reason, Date.now()));
    batch.deadReasons.set('storage_refused', (batch.deadReasons.get('storage_refused') ?? 0) + 1);
    await writeDead(batch);
  };

  /**
   * Writes a prepared batch: dropped hits, dead letters, then the events. Tried again after an
   * outage, it writes only what is not written yet.
   */
  const write = async (batch: Prepared, again: boolean): Promise<void> => {
    if (again) {
      // An insert that failed may have landed all the same: rows at or below their partition's
      // stored offset are stored.
      const offsets = await storedOffsets(
        batch.rows.filter((r) => !r.done).map((r) => r.place),
        true,
      );
      for (const r of batch.rows) {
        if (!r.done && isStored(r.place, offsets)) {
          r.done = true;
          r.stored = true;
        }
      }
    }
    // Dropped hits and dead letters first: if a later insert fails, the batch comes again and
    // they are written again, which the tables' keys make one.
    await writeSplitting(
      batch.dropped.filter((d) => !d.done),
      (items) => store.insertDropped(items.map((d) => d.dropped)),
      {
        stored: (items) => items.forEach((d) => (d.done = true)),
        refused: (item, reason) => refuse(batch, item, reason),
      },
    );
    await writeDead(batch);
    await writeSplitting(
      batch.rows.filter((r) => !r.done),
      (items) => timed(store.insert(items.map((r) => r.row))),
      {
        stored: (items) =>
          items.forEach((r) => {
            r.done = true;
            r.stored = true;
          }),
        refused: (item, reason) => refuse(batch, item, reason),
      },
    );
  };

  /** An insert of event rows, its duration observed whether it succeeds or fails. */
  const timed = async <T>(insert: Promise<T>): Promise<T> => {
    const end = metrics?.storageWriteSeconds.startTimer();
    try {
      return await insert;
    } finally {
      end?.();
    }
  };

  /** Counts a stored batch and keeps its visits and offsets. */
  const finish = (batch: Prepared): void => {
    const stored = batch.rows.filter((r) => r.stored);
    stats.stored += stored.length;
    stats.droppedBots += batch.droppedBots;
    stats.droppedByRules += batch.droppedByRules;
    stats.droppedNoProject += batch.droppedNoProject;
    stats.deadLettered += batch.deadWritten;
    for (const { at } of stored) if (newestStoredAt === null || at > newestStoredAt) newestStoredAt = at;
    if (metrics) {
      metrics.eventsStored.inc(stored.length);
      metrics.eventsDropped.inc({ reason: 'bot' }, batch.droppedBots);
      metrics.eventsDropped.inc({ reason: 'counter_settings' }, batch.droppedByRules);
      metrics.eventsDropped.inc({ reason: 'no_project' }, batch.droppedNoProject);
      for (const [reason, count] of batch.deadReasons) metrics.eventsDeadLettered.inc({ reason }, count);
    }
    // The highest handled offset of each partition.
    for (const { place } of batch.messages) {
      if (!place) continue;
      const key = `${place.topic}:${place.partition}`;
      if (place.offset > (written.get(key) ?? -1)) written.set(key, place.offset);
    }
    visits.commit();
    // Sweep by the stream's own clock, so replayed or generated history is cut the same way.
    if (batch.latestAt !== null) visits.sweep(batch.latestAt);
  };

  const handle = async (messages: readonly unknown[], position?: BatchPosition): Promise<void> => {
    // A bus that sends offsets not matching its messages is a bug, not an outage: no retry helps.
    const places = placesOf(position, messages.length);
    if (places.length !== messages.length) throw new Error(`a batch of ${messages.length} hits came with ${places.length} bus offsets`);
    if (messages.length === 0) return;
    metrics?.batchSize.observe(messages.length);
    const receivedAt = Date.now();
    // Parsing is pure: once per batch, whatever the tries.
    const parsed = messages.map((body, index): Message => ({ index, body, place: places[index], parsed: parseMessage(body) }));
    // A message that is no hit has no time of its own: it waits since it came.
    health.oldestUnstoredAt = parsed.reduce((min, m) => Math.min(min, 'ok' in m.parsed ? m.parsed.ok.at : receivedAt), Infinity);
    const controller = new AbortController();
    interrupt = controller;
    let batch: Prepared | null = null;
    let wait = opts.retryMs;
    const giveUp = (error: unknown): Error => {
      visits.rollback();
      return new Error('aggregator stopped', { cause: error });
    };
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          batch ??= await prepare(parsed, attempt > 0);
          await write(batch, attempt > 0);
          finish(batch);
          health.failing = null;
          health.failingSince = null;
          return;
        } catch (error) {
          if (stopped) throw giveUp(error);
          // A batch that failed before it was cut is cut again from the state before it; one cut
          // keeps its visits while its writes are tried again.
          if (batch === null) visits.rollback();
          health.failing = error instanceof Error ? error.message : String(error);
          health.failingSince ??= Date.now();
          opts.log(`aggregator: write of ${messages.length} messages failed, retrying in ${wait} ms: ${String(error)}`);
          await sleep(wait, controller.signal);
          if (stopped) throw giveUp(error);
          wait = Math.min(wait * 2, opts.maxRetryMs);
        }
      }
    } finally {
      health.oldestUnstoredAt = null;
      if (interrupt === controller) interrupt = null;
    }
  };

  return {
    handle,
    visits,
    stats,
    stop: (): void => {
      stopped = true;
      interrupt?.abort();
    },
    health: (): AggregatorHealth => ({ ...health }),
    newestStoredAt: () => newestStoredAt,
  };
}
