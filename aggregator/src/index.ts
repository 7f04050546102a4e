export { createAggregator, type AggregatorOptions, type AggregatorStats } from './aggregator.js';
export { VisitCutter, VISIT_TIMEOUT_MS, type Visit } from './sessions.js';
export { toEventRow, type EventRow } from './rows.js';
export { EventStore } from './storage.js';
export { loadGeo, geoName, storeGeoDictionary } from './enrich/index.js';
export { applySiteRules, siteRulesFrom, SiteRulesCache, type SiteRules, type SiteRulesLoader, type CounterSettingsInput } from './site-rules.js';
