import { defineConfig } from 'vitest/config';

// The cluster suite: real Kafka, PostgreSQL, Redis and Debian's clickhouse-server, started by
// `bash infra/up.sh`. A missing server fails these tests; nothing here is skipped.
export default defineConfig({
  test: {
    include: ['*/src/**/*.cluster.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
