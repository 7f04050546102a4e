export * from './hit.js';
export * from './clickhouse/client.js';
