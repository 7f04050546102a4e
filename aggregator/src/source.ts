import { VISIT_SOURCE_COLUMNS } from '@stat/schemas';
import type { Enrichment } from './enrich/index.js';

/** The fields of a visit's source: taken from its first hit and stamped on all its events. */
export const SOURCE_FIELDS = VISIT_SOURCE_COLUMNS satisfies readonly (keyof Enrichment)[];

export type VisitSource = Pick<Enrichment, (typeof SOURCE_FIELDS)[number]>;

/** The source part of a hit's enrichment (a copy: the enrichment itself is a source too). */
export function sourceOf(e: VisitSource): VisitSource {
  return {
    traffic_type: e.traffic_type,
    traffic_system: e.traffic_system,
    search_system: e.search_system,
    search_phrase: e.search_phrase,
    social_network: e.social_network,
    message_system: e.message_system,
    recom_system: e.recom_system,
    aggrnews_system: e.aggrnews_system,
    exchange_system: e.exchange_system,
    ad_system: e.ad_system,
    qr_system: e.qr_system,
    utm_source: e.utm_source,
    utm_medium: e.utm_medium,
    utm_campaign: e.utm_campaign,
    utm_content: e.utm_content,
    utm_term: e.utm_term,
    openstat_service: e.openstat_service,
    openstat_campaign: e.openstat_campaign,
    openstat_ad: e.openstat_ad,
    openstat_source: e.openstat_source,
  };
}
