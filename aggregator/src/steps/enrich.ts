import type { AcceptedHit } from '@stat/schemas';
import type { Enricher, Enrichment } from '../enrich/index.js';
import { drop, ok, type Step } from './result.js';
import type { RuledHit } from './site-rules.js';

/** A hit with the dimensions the enrichment adds: user agent, geography, source, page address. */
export interface EnrichedHit {
  accepted: AcceptedHit;
  enrichment: Enrichment;
  /** the host of the project's site address when its settings are read (it decides internal traffic) */
  siteHost?: string | undefined;
}

/** Enriches a hit (the project's site host decides internal traffic); the enricher may still drop a crawler. */
export function enrichStep(enricher: Enricher): Step<RuledHit, EnrichedHit> {
  return ({ accepted, siteHost }) => {
    const enriched = enricher.enrichHit(accepted, siteHost);
    return enriched.kind === 'drop' ? drop(enriched.reason) : ok({ accepted, enrichment: enriched.enrichment, siteHost });
  };
}
