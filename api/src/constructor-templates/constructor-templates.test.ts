import { describe, expect, it } from 'vitest';
import { ApiClient } from '../testing/client.js';
import { newUser } from '../testing/fixtures.js';
import { useTestApi, type TestApi } from '../testing/harness.js';

// Needs: the api in-process (PGlite in memory, chDB unused).
let api: TestApi;
let alice: { client: ApiClient; id: number; email: string };
let bob: { client: ApiClient; id: number; email: string };

useTestApi({ file: 'constructor-templates.test.ts' }, async (started) => {
  api = started;
  alice = await newUser(api);
  bob = await newUser(api);
});

const BODY = {
  metrics: ['page_views', 'visitors'],
  dimensions: ['traffic_type', 'device_type', 'browser_family'],
  sort: { name: 'page_views', order: 'desc' },
  group: 'day',
  viewType: 'table',
  limit: 25,
  offset: 0,
  dimension_filters: [{ key: 'device_type', op: '=', value: 'desktop' }],
};

describe('constructor templates', () => {
  it('saves a report, lists it, opens it, renames it, saves over it and deletes it', async () => {
    const created = await alice.client.post('/api/v1.0/constructor_template', { title: '  Источники по устройствам ', body: BODY, days_in_range: 7 });
    expect(created.status).toBe(200);
    const id = created.json.result.id as number;
    expect(created.json.result).toMatchObject({ id, title: 'Источники по устройствам', email: alice.email, days_in_range: 7, body: BODY });
    expect(created.json.result.notice).toBeUndefined();

    const list = await alice.client.get('/api/v1.0/user/constructor_templates');
    expect(list.status).toBe(200);
    expect(list.json.result.totals).toBe(1);
    expect(list.json.result.constructor_template.map((t: { id: number; title: string }) => [t.id, t.title])).toEqual([[id, 'Источники по устройствам']]);

    const renamed = await alice.client.put(`/api/v1.0/constructor_template/${id}`, { title: 'Мой отчёт' });
    expect(renamed.status).toBe(200);
    expect(renamed.json.result).toMatchObject({ title: 'Мой отчёт', body: BODY });
    expect(Date.parse(renamed.json.result.update_date)).toBeGreaterThanOrEqual(Date.parse(created.json.result.update_date));

    const over = await alice.client.put(`/api/v1.0/constructor_template/${id}`, { body: { ...BODY, viewType: 'graph', dimensions: ['traffic_type'] }, days_in_range: 30 });
    expect(over.json.result).toMatchObject({ title: 'Мой отчёт', days_in_range: 30, body: { viewType: 'graph', dimensions: ['traffic_type'] } });

    const opened = await alice.client.get(`/api/v1.0/constructor_template/${id}`);
    expect(opened.json.result).toEqual(over.json.result);

    const deleted = await alice.client.delete(`/api/v1.0/constructor_template/${id}`);
    expect(deleted.status).toBe(200);
    expect((await alice.client.get(`/api/v1.0/constructor_template/${id}`)).status).toBe(404);
    expect((await alice.client.get('/api/v1.0/user/constructor_templates')).json.result).toEqual({ constructor_template: [], totals: 0 });
  });

  it('finds templates by part of the title, any case, and pages them, the latest changed first', async () => {
    const user = await newUser(api);
    for (const title of ['Визиты по дням', 'Браузеры', 'визиты по странам']) {
      expect((await user.client.post('/api/v1.0/constructor_template', { title, body: BODY, days_in_range: 1 })).status).toBe(200);
    }
    const found = await user.client.get(`/api/v1.0/user/constructor_templates?search=${encodeURIComponent('ВИЗИТЫ')}`);
    expect(found.json.result.constructor_template.map((t: { title: string }) => t.title)).toEqual(['визиты по странам', 'Визиты по дням']);
    expect(found.json.result.totals).toBe(2);
    const second = await user.client.get('/api/v1.0/user/constructor_templates?offset=1&limit=1');
    expect(second.json.result.constructor_template.map((t: { title: string }) => t.title)).toEqual(['Браузеры']);
    expect(second.json.result.totals).toBe(3);
    // LIKE's own characters are matched as written.
    expect((await user.client.get('/api/v1.0/user/constructor_templates?search=%25')).json.result.totals).toBe(0);
  });

  it('refuses another user’s template as one that does not exist, and changes nothing', async () => {
    const created = await alice.client.post('/api/v1.0/constructor_template', { title: 'Личный отчёт', body: BODY, days_in_range: 1 });
    const id = created.json.result.id as number;
    for (const answer of [
      await bob.client.get(`/api/v1.0/constructor_template/${id}`),
      await bob.client.put(`/api/v1.0/constructor_template/${id}`, { title: 'Чужой' }),
      await bob.client.delete(`/api/v1.0/constructor_template/${id}`),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.json.errors.message).toBe('Шаблон не найден');
    }
    expect((await bob.client.get('/api/v1.0/user/constructor_templates')).json.result.totals).toBe(0);
    expect((await alice.client.get(`/api/v1.0/constructor_template/${id}`)).json.result.title).toBe('Личный отчёт');
    const anonymous = new ApiClient(api.url);
    expect((await anonymous.get('/api/v1.0/user/constructor_templates')).status).toBe(401);
    expect((await anonymous.get(`/api/v1.0/constructor_template/${id}`)).status).toBe(401);
  });

  it('opens a template naming what the constructor no longer has with those items dropped and a notice', async () => {
    // Stored as an older catalogue allowed: gender is no longer offered, rambler_id never was here.
    const stale = { ...BODY, metrics: ['page_views', 'rambler_id'], dimensions: ['gender', 'traffic_type'], sort: { name: 'rambler_id', order: 'desc' } };
    const [row] = await api.db.query<{ id: number }>(
      "INSERT INTO constructor_templates (user_id, title, body, days_in_range) VALUES ($1, 'Старый отчёт', $2::jsonb, 7) RETURNING id::int AS id",
      [alice.id, JSON.stringify(stale)],
    );
    const opened = await alice.client.get(`/api/v1.0/constructor_template/${row!.id}`);
    expect(opened.status).toBe(200);
    expect(opened.json.result.body).toEqual({ ...BODY, metrics: ['page_views'], dimensions: ['traffic_type'], sort: undefined });
    expect(opened.json.result.dropped).toEqual(['gender', 'rambler_id']);
    expect(opened.json.result.notice).toBe('Шаблон ссылается на параметры, которых больше нет: gender, rambler_id. Они убраны из отчёта.');
    const listed = (await alice.client.get('/api/v1.0/user/constructor_templates')).json.result.constructor_template.find((t: { id: number }) => t.id === row!.id);
    expect(listed.dropped).toEqual(['gender', 'rambler_id']);
  });

  it('refuses a body, a title or days sent as null on save over, with 400, and keeps the template', async () => {
    const created = await alice.client.post('/api/v1.0/constructor_template', { title: 'Не трогать', body: BODY, days_in_range: 7 });
    const id = created.json.result.id as number;
    const answers = [];
    for (const change of [{ body: null }, { title: null }, { days_in_range: null }]) answers.push((await alice.client.put(`/api/v1.0/constructor_template/${id}`, change)).json);
    expect(answers).toEqual([
      { responseStatus: 400, errors: { message: 'body must be an object; nested property body must be either object or array' } },
      { responseStatus: 400, errors: { message: 'Поле не заполнено' } },
      { responseStatus: 400, errors: { message: 'days_in_range must not be greater than 100000; days_in_range must not be less than 0; days_in_range must be an integer number' } },
    ]);
    expect((await alice.client.get(`/api/v1.0/constructor_template/${id}`)).json.result).toEqual(created.json.result);
  });

  it('takes the template’s own id in the body of a save over (§3 "Save payload": "and id when editing")', async () => {
    const created = await alice.client.post('/api/v1.0/constructor_template', { title: 'С id', body: BODY, days_in_range: 7 });
    const id = created.json.result.id as number;
    const saved = await alice.client.put(`/api/v1.0/constructor_template/${id}`, { id, title: 'С id, изменён', body: BODY, days_in_range: 14 });
    expect(saved.json).toEqual({ responseStatus: 200, result: { ...created.json.result, title: 'С id, изменён', days_in_range: 14, update_date: expect.any(String) } });
  });

  it('refuses an id in the body that is not the path’s, with 400, and keeps the template', async () => {
    const created = await alice.client.post('/api/v1.0/constructor_template', { title: 'Чужой id', body: BODY, days_in_range: 7 });
    const id = created.json.result.id as number;
    const answer = await alice.client.put(`/api/v1.0/constructor_template/${id}`, { id: id + 1, title: 'Не тот' });
    expect(answer.json).toEqual({ responseStatus: 400, errors: { message: `id in the body (${id + 1}) is not the one in the path (${id})` } });
    expect((await alice.client.get(`/api/v1.0/constructor_template/${id}`)).json.result).toEqual(created.json.result);
  });

  it('refuses to save a filter on the published time compared with a word, naming the dimension and the value; stores nothing', async () => {
    const before = (await alice.client.get('/api/v1.0/user/constructor_templates')).json.result.totals;
    const body = { ...BODY, dimension_filters: [{ key: 'published_datetime', op: '=', value: 'завтра' }] };
    const answer = await alice.client.post('/api/v1.0/constructor_template', { title: 'Завтрашние', body, days_in_range: 1 });
    expect(answer.json).toEqual({
      responseStatus: 400,
      errors: { message: 'body.dimension_filters.0.value of published_datetime must be a date and time written YYYY-MM-DD HH:MM:SS (UTC), from 1970-01-01 00:00:00 to 2106-02-07 06:28:15: "завтра" is not one' },
    });
    expect((await alice.client.get('/api/v1.0/user/constructor_templates')).json.result.totals).toBe(before);
  });

  it.each([
    [{ title: 'ab', body: BODY, days_in_range: 1 }, 'Минимальная длина названия: 3 символа'],
    [{ title: '   ', body: BODY, days_in_range: 1 }, 'Поле не заполнено'],
    [{ title: 'x'.repeat(256), body: BODY, days_in_range: 1 }, 'Максимальная длина названия: 255 символов'],
    [{ title: 'Отчёт', body: { ...BODY, dimensions: [] }, days_in_range: 1 }, 'body.dimensions: choose at least one dimension'],
    [{ title: 'Отчёт', body: { ...BODY, metrics: [] }, days_in_range: 1 }, 'body.metrics: choose at least one metric'],
    [{ title: 'Отчёт', body: { ...BODY, dimensions: ['gender'] }, days_in_range: 1 }, 'dimensions'],
    [{ title: 'Отчёт', body: { ...BODY, metrics: ['bounces'] }, days_in_range: 1 }, 'metrics'],
    [{ title: 'Отчёт', body: { ...BODY, dimensions: Array.from({ length: 11 }, (_, i) => ['url', 'title', 'geo_city', 'geo_area', 'geo_country', 'os_family', 'browser_family', 'device_type', 'traffic_type', 'screen_size', 'page_format'][i]) }, days_in_range: 1 }, 'dimensions'],
    [{ title: 'Отчёт', body: { ...BODY, limit: 7 }, days_in_range: 1 }, 'limit'],
    [{ title: 'Отчёт', body: BODY }, 'days_in_range'],
  ])('refuses on save %#: %s', async (payload, message) => {
    const before = (await alice.client.get('/api/v1.0/user/constructor_templates')).json.result.totals;
    const answer = await alice.client.post('/api/v1.0/constructor_template', payload);
    expect(answer.status).toBe(400);
    expect(answer.json.errors.message).toContain(message);
    expect((await alice.client.get('/api/v1.0/user/constructor_templates')).json.result.totals).toBe(before);
  });
});
