import type { EventRow } from '@stat/schemas';
import { toEventRow, type BusPlace } from '../rows.js';
import { ok, type StepResult } from './result.js';
import type { VisitedHit } from './visits.js';

/** The hit's `events` row, stamped with where it sat on the bus (none for the in-process bus). */
export function toRowStep(hit: VisitedHit, place: BusPlace | undefined): StepResult<EventRow> {
  return ok(toEventRow(hit.accepted, hit.enrichment, hit.step, place));
}
