export * from './hit.js';
export * from './bus.js';
export * from './time.js';
export * from './clickhouse/client.js';
export * from './clickhouse/migrate.js';
export * from './catalogue.js';
export * from './clickhouse/retry.js';
export * from './dimensions.js';
