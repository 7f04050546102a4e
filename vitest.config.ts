import { defineConfig } from 'vitest/config';

// The unit, embedded end-to-end and browser tests. The cluster suite, which needs the real
// servers of infra/, is vitest.cluster.config.ts.
export default defineConfig({
  test: {
    include: ['*/src/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', '**/dist/**', '**/*.cluster.test.ts'],
    globalSetup: ['./server/src/testing/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
