/**
 * The enrichment steps of the aggregator: pure and synchronous per hit (the geo database and the
 * referrer tables load once, lazily, or at start through `loadGeo`). See enrich.ts for the composed step.
 */
export { createEnricher, enrichHit, ENRICHMENT_COLUMN_TYPES, type Enricher, type EnricherOptions, type EnrichResult, type Enrichment } from './enrich.js';
export { DEVICE_TYPES, isBot, isWebView, parseUserAgent, type DeviceType, type UserAgentInfo } from './user-agent.js';
export {
  createGeoLocator,
  defaultGeoDatabasePath,
  geoName,
  loadGeo,
  locate,
  sharedGeoLocator,
  type GeoEntry,
  type GeoIds,
  type GeoKind,
  type GeoLoadStats,
  type GeoLocator,
  type GeoOptions,
} from './geo.js';
export { storeGeoDictionary } from './geo-dictionary.js';
export { storeSystemDictionary } from './system-dictionary.js';
export {
  classifyReferrer,
  createReferrerClassifier,
  isOwnSite,
  referrerCatalog,
  sharedReferrerClassifier,
  TRAFFIC_TYPE_TITLES,
  TRAFFIC_TYPES,
  type CatalogEntry,
  type ReferrerClassifier,
  type ReferrerInfo,
  type TrafficType,
} from './referrer.js';
export { PAGE_FORMATS, parseUrl, type PageFormat, type UrlInfo } from './url.js';
export { publicAddress } from './ip.js';
