import type { HitType } from '@stat/schemas';
import { sourceOf } from '../source.js';
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

/**
 * Cuts the hit's visit. Stateful: the cutter must already hold the batch's visitors' open visits
 * (restored by the orchestrator), and hits must come in server-time order per visitor. A new
 * visit takes its source from its first hit.
 */
export function cutVisitStep(cutter: VisitCutter): Step<EnrichedHit, VisitedHit> {
  return (hit) => {
    const { p, v, t } = hit.accepted.hit;
    const step = cutter.step(p, v, hit.accepted.at, roleOf(t));
    step.visit.source ??= sourceOf(hit.enrichment);
    return ok({ ...hit, step });
  };
}
