/**
 * The expected parts of an enrichment, for the tests of the enrichment, the visits and the rows:
 * written here once, field by field, so that each test names only the fields its case sets.
 */
import type { ReferrerInfo, UrlInfo, UserAgentInfo } from '../enrich/index.js';
import type { VisitSource } from '../source.js';

/** What a user agent says, as three columns: the browser, the system and the device. */
export function agentInfo(
  [browser_family, browser_version_major, browser_version_minor]: readonly [string, string, string],
  [os_family, os_version_major, os_version_minor]: readonly [string, string, string],
  [device_type, device_brand, device_model]: readonly [UserAgentInfo['device_type'], string, string],
): UserAgentInfo {
  return { browser_family, browser_version_major, browser_version_minor, os_family, os_version_major, os_version_minor, device_type, device_brand, device_model };
}

/** The source of a hit with no referrer: direct, every other field ''. */
export const NO_REFERRER: ReferrerInfo = {
  traffic_type: 'direct',
  traffic_system: '',
  search_system: '',
  search_phrase: '',
  social_network: '',
  message_system: '',
  recom_system: '',
  aggrnews_system: '',
  exchange_system: '',
  ad_system: '',
  qr_system: '',
  referer_domain: '',
  referer_path: '',
};

/** A referrer's classification: NO_REFERRER with the fields given. */
export const referrerInfo = (fields: Partial<ReferrerInfo>): ReferrerInfo => ({ ...NO_REFERRER, ...fields });

/** The campaign fields of a page address with no tags: the five UTM tags and `_openstat`'s four, all ''. */
export const NO_CAMPAIGN: Omit<UrlInfo, 'url' | 'url_no_args' | 'url_args_key' | 'page_format'> = {
  utm_source: '',
  utm_medium: '',
  utm_campaign: '',
  utm_content: '',
  utm_term: '',
  openstat_service: '',
  openstat_campaign: '',
  openstat_ad: '',
  openstat_source: '',
};

/** A visit's source with no referrer and no tags (direct), with the fields given. */
export const visitSource = (fields: Partial<VisitSource> = {}): VisitSource => ({ ...NO_REFERRER, ...NO_CAMPAIGN, ...fields });
