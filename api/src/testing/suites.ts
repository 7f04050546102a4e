import { accessSuite } from '../access/access.suite.js';
import { authSuite } from '../auth/auth.suite.js';
import { authzSuite } from '../auth/authz.suite.js';
import { inputSuite } from '../http/input.suite.js';
import { projectsSuite } from '../projects/projects.suite.js';
import { ratingSuite } from '../projects/rating.suite.js';
import type { TestApi } from './harness.js';

/**
 * The suites of the api's accounts, projects, access, rating, authorization and input, in one
 * list: api.test.ts runs them on PGlite, api.cluster.test.ts on PostgreSQL and Redis, so both
 * always run the same.
 */
export function apiSuites(api: () => TestApi): void {
  authSuite(api);
  projectsSuite(api);
  accessSuite(api);
  ratingSuite(api);
  authzSuite(api);
  inputSuite(api);
}
