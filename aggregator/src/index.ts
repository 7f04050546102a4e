export { createAggregator, type AggregatorOptions } from './aggregator.js';
export { VisitCutter, VISIT_TIMEOUT_MS, type Visit } from './sessions.js';
export { toEventRow, type EventRow } from './rows.js';
export { EventStore } from './storage.js';
