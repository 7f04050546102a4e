export * from './hit.js';
export * from './bus.js';
export * from './time.js';
export * from './catalogue.js';
export * from './dimensions.js';
export * from './health.js';
export * from './event-row.js';
export * from './filters.js';
