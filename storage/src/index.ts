export * from './client.js';
export * from './migrate.js';
export * from './retry.js';
