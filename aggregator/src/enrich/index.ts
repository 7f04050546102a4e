/**
 * The enrichment steps of the aggregator: pure and synchronous per hit (the geo database and the
 * referrer tables load once, lazily, or at start through `loadGeo`). See enrich.ts for the composed step.
 */
export { createEnricher, type Enricher, type Enrichment } from './enrich.js';
export { isBot, type UserAgentInfo } from './user-agent.js';
export { geoName, loadGeo } from './geo.js';
export { storeGeoDictionary } from './geo-dictionary.js';
export { storeSystemDictionary } from './system-dictionary.js';
export { isOwnSite, type ReferrerInfo } from './referrer.js';
export { type UrlInfo } from './url.js';
