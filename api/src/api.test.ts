
import { useTestApi, type TestApi } from './testing/harness.js';
import { apiSuites } from './testing/suites.js';

// Needs: nothing but the build (web/dist, counter-snippet/dist): the api runs in this process on
// PGlite in memory, chDB in a temporary directory and keys in memory. api.cluster.test.ts runs
// the same suites on PostgreSQL and Redis.
let api: TestApi;
useTestApi({ file: 'api.test.ts' }, (started) => {
  api = started;
});

apiSuites(() => api);
