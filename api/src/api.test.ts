import { afterAll, beforeAll } from 'vitest';
import { startTestApi, type TestApi } from './testing/harness.js';
import { authSuite } from './auth/auth.suite.js';
import { projectsSuite } from './projects/projects.suite.js';
import { accessSuite } from './access/access.suite.js';
import { ratingSuite } from './projects/rating.suite.js';
import { authzSuite } from './auth/authz.suite.js';
import { inputSuite } from './http/input.suite.js';

// Needs: nothing but the build (web/dist, counter-snippet/dist): the api runs in this process on
// PGlite in memory, chDB in a temporary directory and keys in memory. api.cluster.test.ts runs
// the same suites on PostgreSQL and Redis.
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ file: 'api.test.ts' });
});
afterAll(async () => {
  await api?.close();
});

authSuite(() => api);
projectsSuite(() => api);
accessSuite(() => api);
ratingSuite(() => api);
authzSuite(() => api);
inputSuite(() => api);
