import { eventKeyOf } from '@stat/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, userWithProject } from '../testing/fixtures.js';
import { startTestApi, type TestApi } from '../testing/harness.js';

// Needs: nothing but the build. Conversions (spec 002 §3–§7) through the api on PGlite and chDB:
// the rules of who may do what, and the figures of a conversion on visits counted by hand.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ file: 'conversions.test.ts' });
});
afterAll(async () => {
  await api?.close();
});

const HOUR = 3_600_000;
/** Yesterday's Moscow date, and `back` days before it. */
const day = (back: number) => new Date(Date.now() + 3 * HOUR - (back + 1) * 24 * HOUR).toISOString().slice(0, 10);
const D = day(0);

/** The visits of conversion-sql.test.ts: a (search −10 d, ad −3 d, direct with a purchase), b (social −2 d, search with two), c (direct with one), d (links, none). */
const VISITS = [
  { session: 1, visitor: 'a', back: 10, source: 'search', buys: 0 },
  { session: 2, visitor: 'a', back: 3, source: 'ad', buys: 0 },
  { session: 3, visitor: 'a', back: 0, source: 'direct', buys: 1 },
  { session: 4, visitor: 'b', back: 2, source: 'social', buys: 0 },
  { session: 5, visitor: 'b', back: 0, source: 'search', buys: 2 },
  { session: 6, visitor: 'c', back: 0, source: 'direct', buys: 1 },
  { session: 7, visitor: 'd', back: 0, source: 'links', buys: 0 },
];

async function addVisits(projectId: number): Promise<void> {
  const values = VISITS.flatMap((v) => {
    const date = day(v.back);
    const base = { project_id: projectId, event_date: date, visitor_id: v.visitor, session_id: v.session, traffic_type: v.source, url: 'https://shop.example/' };
    return [
      { ...base, event_key: eventKeyOf(crypto.randomUUID()), event_type: 'pageview', ts: `${date} 09:00:00`, event_number: 1 },
      ...Array.from({ length: v.buys }, (_, i) => ({ ...base, event_key: eventKeyOf(crypto.randomUUID()), event_type: 'event', event_class: 'cv', event_name: 'buy', ts: `${date} 09:0${i + 1}:00`, event_number: i + 2 })),
    ];
  });
  await api.clickhouse.insert({ table: 'events', values, format: 'JSONEachRow' });
}

describe('conversions', () => {
  it('counts a conversion and credits its visits to sources by the chosen model and window', async () => {
    const owner = await userWithProject(api);
    await addVisits(owner.projectId);
    const goal = await owner.client.post('/api/v1.0/goal', {
      project_id: owner.projectId,
      title: 'Покупка',
      body: { dimension_filters: [{ key: 'event_name', op: '=', value: 'buy', extra: { eventClass: 'cv' } }] },
    });
    expect(goal.status).toBe(200);
    const created = await owner.client.post('/api/v1.0/conversion', { project_id: owner.projectId, title: '  Покупки  ', numerator_goal_id: goal.json.result.id });
    expect(created.status).toBe(200);
    const conversion = created.json.result;
    // §3: visits, last click, 7 days, personal by default; the title trimmed.
    expect(conversion).toMatchObject({ title: 'Покупки', metric: 'visits', attribution: 'last_click', attribution_window: 7, access: 'own', denominator_goal_id: null, is_owner: true });

    // Visits 3, 5 and 6 bought, of the day's four (the empty denominator is all visits): 75 %.
    const report = await owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/conversions`, { date_start: D, date_end: D });
    expect(report.status).toBe(200);
    expect(report.json.result.conversions).toEqual([
      { id: conversion.id, numerator: { data: [{ date: D, value: 3 }], totals: 3 }, denominator: { data: [{ date: D, value: 4 }], totals: 4 }, conversion: 75 },
    ]);

    // Last click in 7 days: a's and c's visits were direct, b's search.
    const table = (body: Record<string, unknown>) => owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/conversion_table`, { conversion_id: conversion.id, date_start: D, date_end: D, ...body });
    const last = (await table({})).json.result;
    expect(last.data).toEqual([
      { traffic_type: 'direct', numerator: 2, denominator: 2, conversion: 100 },
      { traffic_type: 'search', numerator: 1, denominator: 1, conversion: 100 },
      { traffic_type: 'links', numerator: 0, denominator: 1, conversion: 0 },
    ]);
    expect(last.totals).toEqual({ traffic_type: '', numerator: 3, denominator: 4, conversion: 75 });
    // First click in 14 days: a's first visit came from search, b's from a social network.
    const first = (await table({ attribution: 'first_click', attribution_window: 14 })).json.result;
    expect(first.data.map((r: { traffic_type: string; numerator: number }) => [r.traffic_type, r.numerator])).toEqual([
      ['direct', 1],
      ['search', 1],
      ['social', 1],
      ['links', 0],
    ]);
    expect(first.meta).toEqual({ total: 4, attribution: 'first_click', attribution_window: 14 });
    // A window the spec does not have is refused.
    expect((await table({ attribution_window: 10 })).status).toBe(400);
  });

  it('keeps a personal conversion its creator’s: others neither see nor delete it; favourites are per user', async () => {
    const owner = await userWithProject(api);
    const goal = await owner.client.post('/api/v1.0/goal', { project_id: owner.projectId, title: 'Подписка', access: 'common', body: { dimension_filters: [{ key: 'event_name', op: '=', value: 'subscribe' }] } });
    const other = await newUser(api);
    await owner.client.patch(`/api/v1.0/project/${owner.projectId}/access`, { data: { users: [{ email: other.email, access_level: 0 }] } });
    const mine = (await owner.client.post('/api/v1.0/conversion', { project_id: owner.projectId, title: 'Моя', numerator_goal_id: goal.json.result.id })).json.result;
    const shared = (await owner.client.post('/api/v1.0/conversion', { project_id: owner.projectId, title: 'Общая', access: 'common', numerator_goal_id: goal.json.result.id })).json.result;
    const titles = async (client: typeof owner.client) => (await client.get(`/api/v1.0/user/conversions?project_id=${owner.projectId}`)).json.result.conversions.map((c: { title: string }) => c.title);
    expect(await titles(owner.client)).toEqual(['Общая', 'Моя']);
    expect(await titles(other.client)).toEqual(['Общая']);
    expect((await other.client.get(`/api/v1.0/conversion/${mine.id}`)).status).toBe(404);
    // An editor of the project changes a public one, but only its creator deletes it.
    expect((await other.client.put(`/api/v1.0/conversion/${shared.id}`, { attribution: 'last_valuable' })).json.result.attribution).toBe('last_valuable');
    expect((await other.client.delete(`/api/v1.0/conversion/${shared.id}`)).status).toBe(403);
    // A favourite is the caller's own.
    expect((await other.client.put(`/api/v1.0/conversion/${shared.id}`, { is_favorite: true })).json.result.is_favorite).toBe(true);
    expect((await owner.client.get(`/api/v1.0/conversion/${shared.id}`)).json.result.is_favorite).toBe(false);
    // Bad fields are 400 with a message; a goal of another project is refused.
    const bad = await owner.client.put(`/api/v1.0/conversion/${mine.id}`, { title: 'ab' });
    expect([bad.status, typeof bad.json.errors.message]).toEqual([400, 'string']);
    const stranger = await userWithProject(api);
    const foreignGoal = (await stranger.client.post('/api/v1.0/goal', { project_id: stranger.projectId, title: 'Чужая', access: 'common', body: { dimension_filters: [{ key: 'event_name', op: '=', value: 'x' }] } })).json.result;
    expect((await owner.client.post('/api/v1.0/conversion', { project_id: owner.projectId, title: 'Чужая цель', numerator_goal_id: foreignGoal.id })).status).toBe(400);
    expect((await owner.client.delete(`/api/v1.0/conversion/${mine.id}`)).status).toBe(200);
    expect((await owner.client.get(`/api/v1.0/conversion/${mine.id}`)).status).toBe(404);
  });
});
