import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RequestMethod } from '@nestjs/common';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTROLLERS } from './app.module.js';
import { DEMO_PROJECT_ID } from './auth/project-access.js';
import type { Db } from './db/db.js';
import type { RouteEntry } from './main.js';
import { ApiClient, type Answer } from './testing/client.js';
import { clientFromNewAddress, userWithProject } from './testing/fixtures.js';
import { useTestApi, type TestApi } from './testing/harness.js';

// Needs: nothing but the build. Every route the api's router registered, with hostile bodies,
// query strings and path ids, anonymously and as the owner of a project: no answer is a 5xx
// and no row of Postgres changes. Deterministic: fixed lists and fast-check samples of a fixed
// seed; bounded: a few thousand requests.

const SEED = 20_251_123;
const PREFIX = '/top100';

/** Strings no store keeps, numbers out of every column's range, and shapes nobody expects. */
const HOSTILE_VALUES: unknown[] = [
  // (no value that some field takes as it is: no booleans, no 0, no ordinary text that could be a title)
  'a\u0000b', '\ud800', 'x\udfffy', 'x'.repeat(5_000), 'ab\u0000cd@x.ru',
  -1, 2 ** 31, 2 ** 32, 2 ** 53 + 1, 1e308, -1e308, 0.5, null,
  [], [null], [2 ** 31], ['a\u0000'], [[[[]]]], {}, { __proto__: null, a: 1 }, { constructor: { prototype: { x: 1 } } },
];

/** Every field name some route reads (and a few no route reads). */
const FIELDS = [
  'email', 'password', 'user_name', 'url', 'title', 'agree', 'captcha_response', 'counter_settings', 'in_rating', 'keywords',
  'public_stats', 'categories', 'regions', 'types', 'data', 'action', 'action_request', 'access_level', 'can_edit_project',
  'date_start', 'date_end', 'group', 'metrics', 'sort', 'limit', 'offset', 'filters', 'extra_field', 'id', 'project_id',
];

/** Raw bodies that are not what any route wants. */
const deep = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
const deepObject = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const RAW_BODIES = [
  'null', '[]', '{}', '"text"', '1', 'true', '1e400', '{', '{"a":1}}', deep(10_000), deepObject(10_000), deepObject(33),
  '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}', '{"email":"\\u0000"}', '{"email":"\\ud800"}',
  '{"\\u0000":1}', `{"a":"${'x'.repeat(70_000)}"}`, '{"data":{"users":[{"email":"a@b.cd","access_level":2147483648}]}}',
  '{"counter_settings":null}', '{"counter_settings":[]}', '{"sort":null}', '{"sort":[]}', '{"data":{"users":[null]}}',
  '{"date_start":"2024-01-01","date_end":"2024-01-02","group":"day","metrics":["page_views"],"offset":1e300}',
  '{"date_start":"2024-01-01","date_end":"2024-01-02","group":"day","metrics":["page_views"],"limit":2147483648}',
  '{"date_start":"2024-01-01","date_end":"9999-12-31","group":"hour","metrics":["page_views"]}',
  '{"date_start":"0001-01-01","date_end":"2024-01-02","group":"minute","metrics":["page_views"]}',
];

/** Path ids: out of range, not numbers, encoded NUL and lone surrogates. */
const HOSTILE_IDS = ['0', '-1', '2147483648', '4294967296', '99999999999999999999', '1e3', '0x10', 'abc', '%00', '%ED%A0%80', '%C0%80', '%25', '__proto__', ' 1', '1.5'];

const QUERY_KEYS = ['url', 'category_id', 'limit', 'offset', 'search', 'geo_ids', 'status', 'deleted', 'expanded', 'use_rating', 'widget', 'track_hashes', 'extra'];
const QUERY_VALUES = ['9999999999', '4294967296,1', '%00', '%ED%A0%80', '2147483648', '-1', '1e400', '99999999999999999999', 'a'.repeat(3000), '', '[]', '__proto__', '1,2,99999999999', 'true'];
const RAW_QUERIES = ['geo_ids=9999999999', 'geo_ids=1,4294967296', 'category_id=2147483648', '__proto__[admin]=1', 'constructor[prototype][admin]=1', 'limit=1&limit=2', 'url=https%3A%2F%2Fa.ru&url=x', '%00=1', 'category_id=1&category_id=2'];

/** Every JSON body the walk sends to a route that reads one. */
const bodies = (): string[] => {
  const mutations = fc.sample(
    fc.dictionary(fc.constantFrom(...FIELDS), fc.constantFrom(...HOSTILE_VALUES), { minKeys: 1, maxKeys: 4 }),
    { seed: SEED, numRuns: 40 },
  );
  return [...RAW_BODIES, ...mutations.map((m) => JSON.stringify(m))];
};

const queries = (): string[] => {
  const pairs = fc.sample(
    fc.array(fc.tuple(fc.constantFrom(...QUERY_KEYS), fc.constantFrom(...QUERY_VALUES)), { minLength: 1, maxLength: 3 }),
    { seed: SEED + 1, numRuns: 25 },
  );
  return [...RAW_QUERIES, ...pairs.map((p) => p.map(([k, v]) => `${k}=${v}`).join('&'))];
};

/** The routes whose handler reads a body (@Body), from the controllers' metadata. */
function bodyRoutes(): Set<string> {
  const found = new Set<string>();
  for (const controller of CONTROLLERS) {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) continue;
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, unknown>;
      if (!Object.keys(args).some((key) => key.startsWith('3:'))) continue;
      const path = [PREFIX, base, String(Reflect.getMetadata(PATH_METADATA, handler) ?? '')].join('/').replace(/\/+/g, '/').replace(/\/$/, '');
      found.add(`${RequestMethod[method]} ${path}`);
    }
  }
  return found;
}

/** Row count and checksum of every table but the keys that sessions and limits legitimately write. */
async function tables(db: Db): Promise<Record<string, string>> {
  const names = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'kv' ORDER BY 1`,
  );
  const out: Record<string, string> = {};
  for (const { name } of names) {
    const [row] = await db.query<{ n: string; sum: string }>(
      `SELECT count(*)::text AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS sum FROM "${name}" t`,
    );
    out[name] = `${row?.n} rows, ${row?.sum}`;
  }
  return out;
}

let api: TestApi;
let owner: Awaited<ReturnType<typeof userWithProject>>;

// No report limit here: the walk is meant to reach every route's own checks.
useTestApi({ file: 'fuzz.test.ts', reportRequestsPerMinute: 1_000_000 }, async (started) => {
  api = started;
  owner = await userWithProject(api);
});

describe('the route fuzz', () => {
  it('walks the route table of the router: every controller route is in it', () => {
    const routes = api.routes.filter((r) => r.url.startsWith(`${PREFIX}/`)).map((r) => `${r.method} ${r.url}`);
    expect(routes).toContain('POST /top100/api/v1.0/auth/login');
    expect(routes).toContain('PATCH /top100/api/v1.0/project/:projectId/access');
    for (const route of bodyRoutes()) expect(routes).toContain(route);
    expect(routes.length).toBeGreaterThan(30);
  });

  for (const mode of ['anonymous', 'owner'] as const) {
    it(`as ${mode}: no hostile request is answered 5xx, and Postgres is unchanged`, async () => {
      const reads = bodyRoutes();
      const routes = api.routes.filter((r) => r.url.startsWith(`${PREFIX}/`));
      let client = mode === 'owner' ? owner.client : new ApiClient(api.url);
      // The favicon fetch of the new project settles before the first picture is taken.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = await tables(api.db);
      const failures: string[] = [];
      let sent = 0;
      const send = async (route: RouteEntry, path: string, body?: string): Promise<void> => {
        const answer: Answer = await client.call(route.method, path.slice(PREFIX.length), body);
        sent += 1;
        const what = `${answer.status} ${route.method} ${path.slice(0, 150)} ${body?.slice(0, 120) ?? ''}`;
        if (answer.status >= 500) failures.push(`${what} → ${JSON.stringify(answer.json).slice(0, 200)}`);
        else if (answer.json && typeof answer.json === 'object' && answer.status >= 400) {
          // Every error keeps the one shape.
          if (answer.json.responseStatus !== answer.status || typeof answer.json.errors?.message !== 'string') {
            failures.push(`shape ${what}: ${JSON.stringify(answer.json).slice(0, 200)}`);
          }
        }
        // Logout (and logging out everywhere) ends the owner's login: log in again, from an address of its own.
        if (mode === 'owner' && (route.url.endsWith('/logout') || route.url.endsWith('/logout_all'))) {
          client = clientFromNewAddress(api);
          expect((await client.login(owner.email)).status).toBe(200);
        }
      };
      const fill = (route: RouteEntry, id: (param: string) => string): string =>
        route.url.replace(/:(\w+)/g, (_, param: string) => id(param));
      const real = (param: string): string => (param === 'reportName' ? 'summary' : param === 'projectId' ? String(owner.projectId) : '1');
      for (const route of routes) {
        const hasBody = route.method !== 'GET';
        // Hostile path ids, every parameter at once; a report name of its own kind.
        if (route.url.includes(':')) {
          for (const id of HOSTILE_IDS) await send(route, fill(route, () => id), hasBody ? '{}' : undefined);
        }
        // Hostile report names, on the owner's project and on the demo project (open to all).
        if (route.url.includes(':reportName')) {
          for (const name of ['%00', '%ED%A0%80', 'constructor', '__proto__', 'x'.repeat(2000)]) {
            await send(route, fill(route, (p) => (p === 'reportName' ? name : real(p))), '{}');
            await send(route, fill(route, (p) => (p === 'reportName' ? name : String(DEMO_PROJECT_ID))), '{}');
          }
        }
        // Hostile bodies on the owner's project, for the routes that read a body.
        if (reads.has(`${route.method} ${route.url}`)) {
          for (const body of bodies()) await send(route, fill(route, real), body);
        } else if (hasBody && !route.url.includes(':')) {
          for (const body of RAW_BODIES.slice(0, 12)) await send(route, route.url, body);
        }
        // Hostile query strings on reads.
        if (route.method === 'GET') {
          for (const query of queries()) await send(route, `${fill(route, real)}?${query}`);
        }
      }
      expect(failures).toEqual([]);
      expect(sent).toBeGreaterThan(1000);
      expect(await tables(api.db)).toEqual(before);
    }, 300_000);
  }
});
