import type { AcceptedHit, BatchPosition, BusPosition } from '@stat/schemas';
import type { BusPlace } from '../rows.js';
import { parseMessage } from '../steps/parse.js';
import type { StepResult } from '../steps/result.js';
import type { Replayable } from './replay-check.js';

/** A message of a batch: as it came, where it sat on the bus, and what the parse step made of it. */
export interface Message extends Replayable {
  /** its position in the batch as handed over */
  index: number;
  body: unknown;
  parsed: StepResult<AcceptedHit>;
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

/**
 * A batch's messages with their places, parsed: parsing is pure, so once per batch whatever the
 * tries. A bus that sends offsets not matching its messages is a bug, not an outage: that
 * throws at once, since no retry helps.
 */
export function readBatch(bodies: readonly unknown[], position: BatchPosition | undefined): Message[] {
  const places = placesOf(position, bodies.length);
  if (places.length !== bodies.length) throw new Error(`a batch of ${bodies.length} hits came with ${places.length} bus offsets`);
  return bodies.map((body, index) => {
    const parsed = parseMessage(body);
    const scope = 'ok' in parsed ? { project: parsed.ok.hit.p, at: parsed.ok.at } : null;
    return { index, body, place: places[index], parsed, scope };
  });
}

/** The server time of a batch's oldest hit; a message that is no hit has no time of its own: it waits since `receivedAt`. */
export function oldestOf(messages: readonly Message[], receivedAt: number): number {
  return messages.reduce((min, m) => Math.min(min, m.scope?.at ?? receivedAt), Infinity);
}
