import { defineConfig } from 'vitest/config';

// The unit, embedded end-to-end and browser tests. The cluster suite, which needs the real
// servers of infra/, is vitest.cluster.config.ts.
//
// Two groups, one after the other. First the files that share the suite's one embedded service
// (or need none), two at a time: the machine has two cores and most files wait on a service, a
// browser or a timer more than they compute. Then, one at a time, the files that start, kill and
// starve services of their own: they measure what a crash or a full disk does, and a second file
// beside them would only make their restarts slower, not their answers different.
const ALONE = [
  'server/src/crash.e2e.test.ts',
  'server/src/graceful-stop.e2e.test.ts',
  'server/src/ingestion.e2e.test.ts',
  'server/src/operations.e2e.test.ts',
  'server/src/storage-outage.e2e.test.ts',
];
const EXCLUDED = ['**/node_modules/**', '**/dist/**', '**/*.cluster.test.ts'];
// A poll waits for what a test looks for, however busy the machine; its limit only bounds a failure.
const TIMEOUTS = { testTimeout: 60_000, hookTimeout: 120_000, expect: { poll: { timeout: 10_000 } } };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          include: ['*/src/**/*.test.{ts,tsx}'],
          exclude: [...EXCLUDED, ...ALONE],
          globalSetup: ['./server/src/testing/global-setup.ts'],
          ...TIMEOUTS,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'alone',
          include: ALONE,
          exclude: EXCLUDED,
          ...TIMEOUTS,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
