import { HIT_TYPES, type HitType } from '@stat/schemas';
import { isOwnSite } from '../enrich/index.js';
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
 * Whether the hit's referrer is on the site's own pages: the registrable domain of the page
 * itself or of the project's site address. The classifier says 'internal' only for the latter
 * (the page's, without an address), and not when the page address's campaign tags decided the
 * source first (ad, qr); but a link within a mirror or a test server of the site, or an
 * internal link tagged as a paid banner, is internal navigation all the same.
 */
export function isInternal(hit: EnrichedHit): boolean {
  const e = hit.enrichment;
  if (e.traffic_type === 'internal') return true;
  if (e.referer_domain === '') return false;
  let pageHost = '';
  try {
    pageHost = new URL(hit.accepted.hit.u).hostname;
  } catch {
    pageHost = '';
  }
  return isOwnSite(e.referer_domain, pageHost) || (hit.siteHost !== undefined && isOwnSite(e.referer_domain, pageHost, hit.siteHost));
}

/**
 * Cuts the hit's visit. Stateful: the cutter must already hold the batch's visitors' open visits
 * (restored by batch/visit-recall.ts), and hits must come in server-time order per visitor. A
 * new visit takes its source from its first hit; a page view from another source starts one
 * (see startsNewVisit); an engagement report's engaged time may end a bounce.
 */
export function cutVisitStep(cutter: VisitCutter): Step<EnrichedHit, VisitedHit> {
  return (hit) => {
    const { p, v, t, d } = hit.accepted.hit;
    const role = roleOf(t);
    const step = cutter.step(p, v, hit.accepted.at, role, {
      // The enrichment is a source (the cutter copies what it keeps).
      source: hit.enrichment,
      internal: role === 'pageview' && isInternal(hit),
      engagedMs: t === 'engagement' ? (d ?? 0) : 0,
    });
    return ok({ ...hit, step });
  };
}
