export { createAggregator, type AggregatorOptions } from './aggregator.js';
export { VisitCutter, VISIT_TIMEOUT_MS } from './sessions.js';
export { toEventRow, type EventRow } from './rows.js';
