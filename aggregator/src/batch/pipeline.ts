import type { AcceptedHit } from '@stat/schemas';
import type { Enricher } from '../enrich/index.js';
import type { SiteRules, SiteRulesCache } from '../site-rules.js';
import type { VisitCutter } from '../sessions.js';
import { checkBot } from '../steps/bot-check.js';
import { enrichStep, type EnrichedHit } from '../steps/enrich.js';
import type { Step, StepResult } from '../steps/result.js';
import { toRowStep } from '../steps/row.js';
import { applySiteRulesStep } from '../steps/site-rules.js';
import { cutVisitStep, type VisitedHit } from '../steps/visits.js';
import { acceptedInTimeOrder, emptyBatch, rowsOf, screenEach, type CutBatch } from './cut-batch.js';
import type { Message } from './messages.js';
import type { ReplayCheck } from './replay-check.js';
import type { ResentCheck } from './resent-check.js';
import type { Tally } from './tally.js';
import type { VisitRecall } from './visit-recall.js';
import type { BatchWriter } from './write-batch.js';

/** What the pipeline is made of, built once per aggregator. */
export interface PipelineParts {
  replays: ReplayCheck;
  resends: ResentCheck;
  /** the projects' counter settings; null when none are read (every hit counts) */
  rules: SiteRulesCache | null;
  enricher: Enricher;
  visits: VisitCutter;
  recall: VisitRecall;
  writer: BatchWriter;
  tally: Tally;
}

/** A batch in hand: tried until it is written, or given up. */
export interface BatchTry {
  attempt(afterFailedTry: boolean): Promise<void>;
  /** Undoes the visits a batch given up had cut. */
  abandon(): void;
}

/** Goes on with the value of a step that let it through; a drop or a dead letter ends the hit's way. */
function then<A, B>(result: StepResult<A>, step: (value: A) => StepResult<B>): StepResult<B> {
  return 'ok' in result ? step(result.ok) : result;
}

/**
 * The steps of one hit before its visit. Site rules first: a hit of an unknown project is only
 * counted, never recorded in dropped_hits, be it a bot or not. The bot check before the
 * enrichment, which costs more (the enricher still drops the crawlers it knows).
 */
function screenStep(rulesOf: ((project: number) => SiteRules | null) | null, enricher: Enricher): Step<AcceptedHit, EnrichedHit> {
  const applyRules = applySiteRulesStep(rulesOf);
  const enrich = enrichStep(enricher);
  return (hit) => then(then(applyRules(hit), checkBot), enrich);
}

/**
 * The aggregator's batch, step by step: skip what is stored, set aside what is no hit, screen each
 * hit (site rules, bot check, enrichment), recall the visitors' visits, cut each hit's visit and
 * its row, write (dropped hits, dead letters, events), keep the visits and offsets.
 */
export class BatchPipeline {
  private readonly screen: Step<AcceptedHit, EnrichedHit>;
  private readonly cutVisit: Step<EnrichedHit, VisitedHit>;

  constructor(private readonly parts: PipelineParts) {
    const { rules } = parts;
    this.screen = screenStep(rules ? (project) => rules.get(project) : null, parts.enricher);
    this.cutVisit = cutVisitStep(parts.visits);
  }

  /** A batch's tries: cut once (its visits stay cut while its writes are tried again), written until all is. */
  start(messages: readonly Message[]): BatchTry {
    let batch: CutBatch | null = null;
    return {
      attempt: async (afterFailedTry) => {
        try {
          batch ??= await this.cut(messages, afterFailedTry);
        } catch (error) {
          // A batch that failed before it was cut is cut again from the state before it.
          this.parts.visits.rollback();
          throw error;
        }
        await this.write(batch, afterFailedTry);
        this.keep(batch);
      },
      abandon: () => this.parts.visits.rollback(),
    };
  }

  /** Cuts a batch into what to write, to record as dropped, and to set aside. Opens the visit journal. */
  async cut(all: readonly Message[], afterFailedTry: boolean): Promise<CutBatch> {
    // What is stored leaves before any step reads it: no hit is cut into a visit twice. A hit
    // Kafka holds twice (sent again from the collector's log) leaves by its id.
    const batch = emptyBatch(await this.withoutCopies(await this.withoutStored(all, afterFailedTry), afterFailedTry));
    // No later step can read a message that is no accepted hit. The hits go on in server-time
    // order, the order per visitor that the visit cutter needs.
    const hits = acceptedInTimeOrder(batch);
    if (hits.length === 0) return batch;
    batch.latestAt = hits[hits.length - 1]!.hit.at;
    // The projects' settings for the screen; every drop comes before the visitors' look-ups, so
    // that none is spent on a bot, an excluded page or an unknown project.
    await this.parts.rules?.load(hits.map((h) => h.hit.hit.p));
    const screened = screenEach(batch, hits, this.screen);
    // Visit state changes only with a written batch: the journal opens before its first change.
    this.parts.visits.begin();
    await this.parts.recall.recall(screened.map((s) => s.hit.accepted));
    // A row holds its hit's visit: the visit is cut first.
    batch.rows = rowsOf(batch, screened, (hit, place) => then(this.cutVisit(hit), (visited) => toRowStep(visited, place)));
    return batch;
  }

  /** Writes what of a cut batch is not written yet. */
  async write(batch: CutBatch, afterFailedTry: boolean): Promise<void> {
    // A failed try's insert may have landed all the same: the same check as before the cut.
    if (afterFailedTry) {
      const landed = await this.parts.replays.storedAmong(
        batch.rows.filter((r) => !r.done),
        true,
      );
      for (const row of landed) {
        row.done = true;
        row.stored = true;
      }
    }
    await this.parts.writer.write(batch);
  }

  /** Counts a written batch and keeps its visits and offsets. */
  keep(batch: CutBatch): void {
    this.parts.tally.written(batch);
    this.parts.replays.handled(batch.messages.map((m) => m.place));
    this.parts.visits.commit();
    // Sweep by the stream's own clock, so replayed or generated history is cut the same way.
    if (batch.latestAt !== null) this.parts.visits.sweep(batch.latestAt);
  }

  /** The messages that are no second copy of a hit (see ResentCheck). */
  private async withoutCopies(messages: readonly Message[], afterFailedTry: boolean): Promise<Message[]> {
    const copies = await this.parts.resends.copiesAmong(messages);
    if (!afterFailedTry) this.parts.tally.skippedReplays(copies.size);
    return messages.filter((m) => !copies.has(m));
  }

  /** The messages not stored by an earlier run or try. */
  private async withoutStored(all: readonly Message[], afterFailedTry: boolean): Promise<Message[]> {
    const stored = await this.parts.replays.storedAmong(all, afterFailedTry);
    // After a failed try, what is stored now was stored by that try, not by an earlier run.
    if (!afterFailedTry) this.parts.tally.skippedReplays(stored.size);
    return all.filter((m) => !stored.has(m));
  }
}
