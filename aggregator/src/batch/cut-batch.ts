import type { AcceptedHit, EventRow } from '@stat/schemas';
import type { BusPlace } from '../rows.js';
import type { DroppedHit, SetAside } from '../storage.js';
import { deadLetterOf } from '../steps/parse.js';
import type { EnrichedHit } from '../steps/enrich.js';
import type { DropReason, Step, StepResult } from '../steps/result.js';
import type { Message } from './messages.js';
import type { HitScope } from './replay-check.js';

/**
 * Why a message went to dead_hits, the `reason` label of stat_events_dead_lettered_total: not an
 * accepted hit (the parse step), a hit a later step could not turn into a row, a row ClickHouse refused.
 */
export type DeadLetterReason = 'invalid_message' | 'invalid_hit' | 'storage_refused';

/** Something of a batch to write, and whether it is written (stored or set aside) yet. */
export interface Writing {
  body: unknown;
  done: boolean;
}

/** An event row to store. */
export interface RowWriting extends Writing {
  /** its message's position in the batch */
  index: number;
  row: EventRow;
  /** the hit's project and server time */
  scope: HitScope;
  place: BusPlace | undefined;
  stored: boolean;
}

/** A hit to record in dropped_hits. */
interface DropWriting extends Writing {
  dropped: DroppedHit;
}

/**
 * A batch cut into what to write. Kept while its writes are tried again: the visits it cut stay
 * cut, and what is written already is not written again.
 */
export interface CutBatch {
  /** the messages not stored before (a replay's stored part skipped) */
  messages: readonly Message[];
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

/** A batch of `messages` with nothing cut yet. */
export function emptyBatch(messages: readonly Message[]): CutBatch {
  return { messages, rows: [], dropped: [], dead: [], deadWritten: 0, droppedBots: 0, droppedByRules: 0, droppedNoProject: 0, deadReasons: new Map(), latestAt: null };
}

/** Sets a message aside as a dead letter of the batch, counted under `kind`. */
export function setAside(batch: CutBatch, body: unknown, reason: string, kind: DeadLetterReason): void {
  batch.dead.push(deadLetterOf(body, reason, Date.now()));
  batch.deadReasons.set(kind, (batch.deadReasons.get(kind) ?? 0) + 1);
}

/**
 * Counts a dropped hit, and records it for dropped_hits unless its project is unknown: anyone
 * can send hits for any project id, so those are only counted.
 */
function countDrop(batch: CutBatch, body: unknown, hit: AcceptedHit, reason: DropReason): void {
  if (reason === 'no_project') {
    batch.droppedNoProject += 1;
    return;
  }
  batch.dropped.push({ body, dropped: { hit, reason }, done: false });
  if (reason === 'bot') batch.droppedBots += 1;
  else batch.droppedByRules += 1;
}

/** A hit of the batch with its message. */
export interface BatchHit<T> {
  message: Message;
  hit: T;
}

/** The batch's accepted hits in server-time order; the messages that are no accepted hit set aside. */
export function acceptedInTimeOrder(batch: CutBatch): BatchHit<AcceptedHit>[] {
  const hits: BatchHit<AcceptedHit>[] = [];
  for (const message of batch.messages) {
    if ('ok' in message.parsed) hits.push({ message, hit: message.parsed.ok });
    else if ('deadLetter' in message.parsed) setAside(batch, message.body, message.parsed.deadLetter, 'invalid_message');
  }
  return hits.sort((a, b) => a.hit.at - b.hit.at);
}

/** Runs `screen` over each hit: those let through go on; drops are counted, dead letters set aside. */
export function screenEach(batch: CutBatch, hits: readonly BatchHit<AcceptedHit>[], screen: Step<AcceptedHit, EnrichedHit>): BatchHit<EnrichedHit>[] {
  const passed: BatchHit<EnrichedHit>[] = [];
  for (const { message, hit } of hits) {
    const result = screen(hit);
    if ('ok' in result) passed.push({ message, hit: result.ok });
    else if ('deadLetter' in result) setAside(batch, message.body, result.deadLetter, 'invalid_hit');
    else countDrop(batch, message.body, hit, result.drop);
  }
  return passed;
}

/** The rows `toRow` makes of the hits, in the batch's order; dead letters set aside. */
export function rowsOf(
  batch: CutBatch,
  hits: readonly BatchHit<EnrichedHit>[],
  toRow: (hit: EnrichedHit, place: BusPlace | undefined) => StepResult<EventRow>,
): RowWriting[] {
  const rows: RowWriting[] = [];
  for (const { message, hit } of hits) {
    const result = toRow(hit, message.place);
    if ('ok' in result) {
      const scope = { project: result.ok.project_id, at: hit.accepted.at };
      rows.push({ index: message.index, body: message.body, row: result.ok, scope, place: message.place, done: false, stored: false });
    } else if ('deadLetter' in result) setAside(batch, message.body, result.deadLetter, 'invalid_hit');
  }
  // Written in the batch's order, so that a partition's stored offset never passes a hit
  // neither stored nor set aside (see writeSplitting).
  return rows.sort((a, b) => a.index - b.index);
}
