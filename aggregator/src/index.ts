export { createAggregator, type Aggregator, type AggregatorHealth, type AggregatorOptions, type AggregatorStats, type DeadLetterReason } from './aggregator.js';
export { VisitCutter, VISIT_TIMEOUT_MS, type Visit } from './sessions.js';
export { toEventRow } from './rows.js';
export type { EventRow } from '@stat/schemas';
export { EventStore } from './storage.js';
export { loadGeo, geoName, storeGeoDictionary, storeSystemDictionary } from './enrich/index.js';
export { applySiteRules, siteRulesFrom, SiteRulesCache, type SiteRules, type SiteRulesLoader, type CounterSettingsInput } from './site-rules.js';
export type { StepResult, DropReason } from './steps/result.js';
