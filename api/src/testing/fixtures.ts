import { createServer, type Server } from 'node:http';
import { expect } from 'vitest';
import type { ClickHouseClient } from '@stat/storage';
import type { Db } from '../db/db.js';
import { ApiClient } from './client.js';
import { uniqueEmail, type TestApi } from './harness.js';

let site = 0;
/** A site address of a reserved zone: valid for the forms, never looked up on the internet. */
export function uniqueSite(): string {
  site += 1;
  return `https://site${site}-${Math.floor(Math.random() * 1e9).toString(36)}.example`;
}

let addresses = 0;
/**
 * A client from an address no other fixture client uses (sent as X-Forwarded-For): each person
 * a test plays comes from their own address, so the per-address limits of registration and
 * login count only what a test does on purpose from the default one.
 */
export function clientFromNewAddress(api: TestApi): ApiClient {
  addresses += 1;
  return new ApiClient(api.url, '/top100', `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`);
}

/** A new logged-in user, and optionally a project of theirs. */
export async function userWithProject(api: TestApi, role?: number): Promise<{ client: ApiClient; id: number; email: string; projectId: number }> {
  const client = clientFromNewAddress(api);
  const email = uniqueEmail('owner');
  const { id } = await client.register(email);
  if (role !== undefined) await setRole(api.db, id, role);
  const created = await client.post('/api/v1.0/project', { url: uniqueSite(), title: 'Тестовый сайт', agree: true });
  if (created.status !== 200) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.json)}`);
  return { client, id, email, projectId: created.json.result.project_id };
}

export async function newUser(api: TestApi, role?: number): Promise<{ client: ApiClient; id: number; email: string }> {
  const client = clientFromNewAddress(api);
  const email = uniqueEmail('user');
  const { id } = await client.register(email);
  if (role !== undefined) await setRole(api.db, id, role);
  return { client, id, email };
}

type User = Awaited<ReturnType<typeof newUser>>;

/** A project and the people of its tests: its owner, a viewer (level 1) and an editor (level 0) it is shared with. */
export interface Team {
  owner: User;
  viewer: User;
  editor: User;
  projectId: number;
}

/** A new owner's project shared with a viewer (level 1) and an editor (level 0). */
export async function projectTeam(api: TestApi): Promise<Team> {
  const owner = await userWithProject(api);
  const viewer = await newUser(api);
  const editor = await newUser(api);
  const shared = await owner.client.patch(`/api/v1.0/project/${owner.projectId}/access`, {
    data: { users: [{ email: viewer.email, access_level: 1 }, { email: editor.email, access_level: 0 }] },
  });
  expect(shared.status).toBe(200);
  return { owner, viewer, editor, projectId: owner.projectId };
}

async function setRole(db: Db, userId: number, role: number): Promise<void> {
  await db.query('UPDATE users SET role_id = $2 WHERE id = $1', [userId, role]);
}

/**
 * 12:30 Moscow time of the current Moscow day, in ms: a time of day for a test that fixes the
 * api's clock (TestApi.setNow), far from both midnights, so that "an hour ago", "the same hour
 * yesterday" and "later yesterday than now" mean the same hours whenever the test runs.
 */
export function noonOfToday(realNow = Date.now()): number {
  const moscowMidnight = Math.floor((realNow + 3 * 3_600_000) / 86_400_000) * 86_400_000 - 3 * 3_600_000;
  return moscowMidnight + 12.5 * 3_600_000;
}

/**
 * Puts traffic straight into the rollups (what the materialized views would write): `views`
 * page views by `visitors` visitors in one visit each, each visitor sending one custom event, in
 * the hour and the Moscow day of `atMs`.
 */
export async function addTraffic(clickhouse: ClickHouseClient, projectId: number, atMs: number, views: number, visitors: number): Promise<void> {
  const hour = Math.floor(atMs / 3_600_000) * 3600;
  const day = new Date(atMs + 3 * 3_600_000).toISOString().slice(0, 10);
  const params = { p: projectId, t: hour, d: day, v: views, n: visitors, seed: Math.floor(Math.random() * 1e9) };
  await clickhouse.command({
    query: `INSERT INTO rollup_hour (project_id, bucket, page_views, events, visit_starts, custom_events, visitors)
            SELECT {p:UInt32}, toDateTime({t:UInt32}, 'UTC'), {v:UInt64}, {v:UInt64} + {n:UInt64}, {n:UInt64}, {n:UInt64},
                   uniqCombinedState(17)(toUInt32(number + {seed:UInt64})) FROM numbers({n:UInt32})`,
    query_params: params,
  });
  await clickhouse.command({
    query: `INSERT INTO rollup_day (project_id, event_date, page_views, events, visit_starts, custom_events, visitors)
            SELECT {p:UInt32}, toDate({d:String}), {v:UInt64}, {v:UInt64} + {n:UInt64}, {n:UInt64}, {n:UInt64},
                   uniqCombinedState(17)(toUInt32(number + {seed:UInt64})) FROM numbers({n:UInt32})`,
    query_params: params,
  });
}

/**
 * Every row of the tables a request could change, to show that a refused one changed nothing.
 * (A project's favicon columns are left out: a background fetch of an earlier test may still
 * write them.)
 */
export async function snapshot(db: Db): Promise<string> {
  const queries = [
    'SELECT * FROM users ORDER BY id',
    `SELECT id, title, url, cleaned_url, owner_id, created_by, counter_settings, deleted_at, created_at, updated_at, in_rating,
            rating_status, can_be_in_rate, public_stats, keywords, categories, regions, types FROM projects ORDER BY id`,
    'SELECT * FROM project_access ORDER BY project_id, user_id',
    'SELECT * FROM access_grants ORDER BY id',
    'SELECT * FROM access_requests ORDER BY id',
    'SELECT * FROM ownership_tokens ORDER BY project_id, user_id',
    'SELECT * FROM rating_positions ORDER BY project_id, category_id',
    'SELECT * FROM rating_moderation_log ORDER BY id',
    'SELECT * FROM saved_filters ORDER BY id',
  ];
  const parts: string[] = [];
  for (const query of queries) parts.push(JSON.stringify(await db.query(query)));
  return parts.join('\n');
}

/** A small site on a loopback address: serves `pages` by path. */
export async function startSite(host: string, pages: Record<string, { type: string; body: string | Buffer }>): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const page = pages[req.url ?? ''];
    if (!page) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': page.type }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Polls until `check` passes; bounded, for background work such as the favicon fetch. */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, tries = 80): Promise<T> {
  let value = await read();
  for (let i = 0; i < tries && !check(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}
