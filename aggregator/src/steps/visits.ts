import { HIT_TYPES, type HitType } from '@stat/schemas';
import type { HitRole, VisitCutter, VisitStep } from '../sessions.js';
import type { EnrichedHit } from './enrich.js';
import { ok, type Step } from './result.js';

/** An enriched hit with its visit and what it adds to it. */
export interface VisitedHit extends EnrichedHit {
  step: VisitStep;
}

/** What each hit type is to its visit. */
export function roleOf(type: HitType): HitRole {
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

/** The hit types that report on a page view already counted (they neither lengthen nor keep alive a visit). */
export const REPORT_TYPES: readonly HitType[] = HIT_TYPES.filter((t) => roleOf(t) === 'report');

/**
 * Cuts the hit's visit. Stateful: the cutter must already hold the batch's visitors' open visits
 * (restored by the orchestrator), and hits must come in server-time order per visitor. A new
 * visit takes its source from its first hit; an engagement report's engaged time may end a
 * bounce.
 */
export function cutVisitStep(cutter: VisitCutter): Step<EnrichedHit, VisitedHit> {
  return (hit) => {
    const { p, v, t, d } = hit.accepted.hit;
    const role = roleOf(t);
    const step = cutter.step(p, v, hit.accepted.at, role, {
      // The enrichment is a source (the cutter copies what it keeps).
      source: hit.enrichment,
      engagedMs: t === 'engagement' ? (d ?? 0) : 0,
    });
    return ok({ ...hit, step });
  };
}
