import { VISIT_SOURCE_COLUMNS } from '@stat/schemas';
import type { Enrichment } from './enrich/index.js';

/** The fields of a visit's source: taken from its first hit and stamped on all its events. */
export const SOURCE_FIELDS = VISIT_SOURCE_COLUMNS satisfies readonly (keyof Enrichment)[];

export type VisitSource = Pick<Enrichment, (typeof SOURCE_FIELDS)[number]>;

/** The campaign tags of a source: the five UTM tags and the four fields of `_openstat`. */
const TAG_FIELDS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'openstat_service',
  'openstat_campaign',
  'openstat_ad',
  'openstat_source',
] as const satisfies readonly (keyof VisitSource)[];

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
    referer_domain: e.referer_domain,
    referer_path: e.referer_path,
  };
}

/** Whether the page address carried any campaign tag (TAG_FIELDS). */
function hasTags(s: VisitSource): boolean {
  return TAG_FIELDS.some((f) => s[f] !== '');
}

/**
 * Whether a page view came from outside the visit: not internal navigation (a referrer on the
 * site's own pages, `internal` even when campaign tags made its traffic type ad or qr) and not
 * a direct entry (no referrer and no campaign tag). Only such a page view can start a visit
 * before the time-out.
 */
function isArrival(hit: VisitSource, internal: boolean): boolean {
  if (internal || hit.traffic_type === 'internal') return false;
  return hit.traffic_type !== 'direct' || hasTags(hit);
}

/**
 * Whether an arrival comes from the visit's own source: the same traffic type, the same system
 * (traffic_system: the search engine, network, ad system…, the referrer's host for a link, ''
 * for direct), and, when the arrival carries campaign tags, the same nine tags. The search
 * phrase is not compared (engines hide it), nor an ad system's click id (not kept): a reload of
 * the landing page, or the same ad clicked again, stays in its visit.
 */
function isSameSource(visit: VisitSource, hit: VisitSource): boolean {
  if (hit.traffic_type !== visit.traffic_type || hit.traffic_system !== visit.traffic_system) return false;
  return !hasTags(hit) || TAG_FIELDS.every((f) => hit[f] === visit[f]);
}

/**
 * Whether a page view with the source `hit` ends the visit that came from `visit` and starts a
 * new one (Yandex Metrica's rule): an arrival (see isArrival) from another source (see
 * isSameSource). An ad click or a new set of tags is such an arrival unless it repeats the
 * visit's own; a direct entry or internal navigation never is.
 */
export function startsNewVisit(visit: VisitSource, hit: VisitSource, internal: boolean): boolean {
  return isArrival(hit, internal) && !isSameSource(visit, hit);
}
