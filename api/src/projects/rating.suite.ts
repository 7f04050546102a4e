import { describe, expect, it } from 'vitest';
import { ApiClient } from '../testing/client.js';
import { addTraffic, newUser, snapshot, userWithProject } from '../testing/fixtures.js';
import type { TestApi } from '../testing/harness.js';
import { DEMO_PROJECT_ID } from '../auth/project-access.js';

const DAY_MS = 86_400_000;
const FORM = { title: 'Сайт в рейтинге', in_rating: true, keywords: 'новости, город', public_stats: true, categories: [101], regions: [101], types: [1] };

/** Rating participation: specification 000, §2.7, §4 and §5. */
export function ratingSuite(env: () => TestApi): void {
  describe('rating', () => {
    it('serves the dictionaries as trees to anyone', async () => {
      const anonymous = new ApiClient(env().url);
      const config = await anonymous.get('/api/project/config');
      expect(config.status).toBe(200);
      const { categories, types, regions } = config.json.result;
      expect(categories).toContainEqual({ id: 1, parent_id: null, title: 'Новости и СМИ', theme_id: 1, can_be_expanded: true });
      expect(categories).toContainEqual({ id: 101, parent_id: 1, title: 'Новости', theme_id: 1, can_be_expanded: false });
      expect(types).toContainEqual({ id: 2, parent_id: null, title: 'Интернет-магазин', can_be_expanded: false });
      expect(regions).toContainEqual({ id: 101, parent_id: 1, title: 'Москва', can_be_expanded: false });
      expect((await anonymous.get('/api/v1.0/category')).json.result).toEqual(categories);
      expect((await anonymous.get('/api/v1.0/type')).json.result).toEqual(types);
      expect((await anonymous.get('/api/v1.0/region')).json.result).toEqual(regions);
    });

    it('has every federal subject under its federal district in the regions tree', async () => {
      const regions: { id: number; parent_id: number | null; title: string }[] = (await new ApiClient(env().url).get('/api/v1.0/region')).json.result;
      const districts = regions.filter((r) => r.parent_id === null);
      expect(districts.map((d) => [d.id, d.title])).toEqual([
        [1, 'Центральный федеральный округ'],
        [2, 'Северо-Западный федеральный округ'],
        [3, 'Южный федеральный округ'],
        [4, 'Северо-Кавказский федеральный округ'],
        [5, 'Приволжский федеральный округ'],
        [6, 'Уральский федеральный округ'],
        [7, 'Сибирский федеральный округ'],
        [8, 'Дальневосточный федеральный округ'],
      ]);
      const subjects = regions.filter((r) => r.parent_id !== null);
      expect(subjects).toHaveLength(85);
      expect(new Set(subjects.map((r) => r.title)).size).toBe(85);
      const perDistrict = Object.fromEntries(districts.map((d) => [d.id, subjects.filter((r) => r.parent_id === d.id).length]));
      expect(perDistrict).toEqual({ 1: 18, 2: 11, 3: 8, 4: 7, 5: 14, 6: 6, 7: 10, 8: 11 });
      for (const [id, parent_id, title] of [
        [101, 1, 'Москва'],
        [111, 1, 'Калужская область'],
        [211, 2, 'Ненецкий автономный округ'],
        [407, 4, 'Республика Северная Осетия — Алания'],
        [710, 7, 'Кемеровская область — Кузбасс'],
        [801, 8, 'Приморский край'],
        [806, 8, 'Республика Бурятия'],
      ] as const) {
        expect(regions).toContainEqual({ id, parent_id, title, can_be_expanded: false });
      }
      // A new region can be chosen in the form.
      const { client, projectId } = await userWithProject(env());
      expect((await client.put(`/api/v1.0/project/${projectId}`, { ...FORM, regions: [111, 801] })).json.result.regions).toEqual([111, 801]);
    });

    it('checks the form against the limits of §5 and changes nothing on error', async () => {
      const { client, projectId } = await userWithProject(env());
      const before = await snapshot(env().db);
      const cases: [object, Record<string, string[]>][] = [
        [{ categories: [] }, { categories: ['Обязательное поле'] }],
        [{ categories: [101, 102, 103, 104, 201, 202, 203, 204] }, { categories: ['Максимальное количество тем: 7'] }],
        [{ types: [1, 2, 3] }, { types: ['Максимальное количество типов: 2'] }],
        [{ regions: [101, 102, 103, 104, 105, 106, 107, 201, 202, 203, 204] }, { regions: ['Максимальное количество регионов: 10'] }],
        [{ keywords: 'ab' }, { keywords: ['Ключевые слова: от 3 до 500 символов'] }],
        [{ keywords: 'к'.repeat(501) }, { keywords: ['Ключевые слова: от 3 до 500 символов'] }],
        [{ title: 'Очень длинное название сайта, которое не помещается в рейтинг по правилам' }, { title: ['Превышен лимит символов'] }],
        [{ categories: [999999] }, { categories: ['Неизвестное значение'] }],
      ];
      for (const [change, fields] of cases) {
        const answer = await client.put(`/api/v1.0/project/${projectId}`, { ...FORM, ...change });
        expect(answer.status, JSON.stringify(change)).toBe(400);
        expect(answer.json.errors.fields).toEqual(fields);
      }
      const { public_stats: _omitted, ...withoutPublic } = FORM;
      expect((await client.put(`/api/v1.0/project/${projectId}`, withoutPublic)).json.errors.fields).toEqual({ public_stats: ['Необходимо выбрать один из пунктов'] });
      expect(await snapshot(env().db)).toBe(before);
    });

    it('moderation, positions by popularity and the public catalogue; leaving clears the form', async () => {
      const a = await userWithProject(env());
      const b = await userWithProject(env());
      const moderator = await newUser(env(), 4);
      for (const p of [a, b]) {
        const joined = await p.client.put(`/api/v1.0/project/${p.projectId}`, { ...FORM, categories: [1503] });
        expect(joined.status).toBe(200);
        expect(joined.json.result).toMatchObject({ status: 'moderation', in_rating: true, keywords: 'новости, город', regions: [101], types: [1] });
      }
      // Only moderators moderate.
      expect((await a.client.post(`/api/v1.0/rating/moderation/${a.projectId}`, { action: 'approve' })).status).toBe(403);
      const queue = await moderator.client.get('/api/v1.0/rating/moderation?status=moderation');
      expect(queue.json.result.data.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([a.projectId, b.projectId]));
      for (const p of [a, b]) {
        expect((await moderator.client.post(`/api/v1.0/rating/moderation/${p.projectId}`, { action: 'approve' })).json.result).toEqual({ status: 'included' });
      }
      expect((await moderator.client.post(`/api/v1.0/rating/moderation/${a.projectId}`, { action: 'reject' })).json.errors.message).toBe(
        'Действие reject недоступно в статусе included',
      );
      // b has more visitors in the rating period (8 to 2 days back).
      await addTraffic(env().clickhouse, a.projectId, Date.now() - 4 * 86_400_000, 10, 3);
      await addTraffic(env().clickhouse, b.projectId, Date.now() - 4 * 86_400_000, 50, 9);
      await addTraffic(env().clickhouse, a.projectId, Date.now(), 500, 400); // today does not count
      expect((await moderator.client.post('/api/v1.0/rating/recompute')).status).toBe(200);
      const catalogue = await new ApiClient(env().url).get('/api/v1.0/rating/catalogue?category_id=1503');
      expect(catalogue.json.result.data.map((r: { id: number; position: number; popularity: number }) => [r.id, r.position, r.popularity])).toEqual([
        [b.projectId, 1, 9],
        [a.projectId, 2, 3],
      ]);
      const project = (await a.client.get(`/api/v1.0/project/${a.projectId}`)).json.result;
      expect(project.categories).toEqual([
        { id: 1503, title: 'Переводчики', parent_title: 'Справки и сервисы', theme_id: 15, name: 'Переводчики', position: 2, positions: { popularity: 2 } },
      ]);
      // A rated site's title changes only through the rating form.
      expect((await a.client.put(`/api/v1.0/project/${a.projectId}`, { title: 'Другое имя' })).json.errors.message).toBe(
        'Название сайта в рейтинге меняется через заявку на вкладке «Рейтинг»',
      );
      // Editing an included site sends it to editing, where the form is locked.
      expect((await a.client.put(`/api/v1.0/project/${a.projectId}`, { ...FORM, categories: [1503], keywords: 'новые слова' })).json.result.status).toBe('editing');
      expect((await a.client.put(`/api/v1.0/project/${a.projectId}`, FORM)).json.errors.message).toBe('Редактирование рейтинга недоступно в этом статусе');
      await moderator.client.post(`/api/v1.0/rating/moderation/${a.projectId}`, { action: 'approve' });
      const left = await a.client.put(`/api/v1.0/project/${a.projectId}`, { in_rating: false });
      expect(left.json.result).toMatchObject({ status: 'unincluded', in_rating: false, public_stats: false, categories: [], regions: [], types: [] });
      await moderator.client.post('/api/v1.0/rating/recompute');
      expect((await new ApiClient(env().url).get('/api/v1.0/rating/catalogue?category_id=1503')).json.result.data.map((r: { id: number }) => r.id)).toEqual([b.projectId]);
    });

    it('a site under editing cannot change its form but may leave the rating', async () => {
      const site = await userWithProject(env());
      const moderator = await newUser(env(), 4);
      await site.client.put(`/api/v1.0/project/${site.projectId}`, { ...FORM, categories: [1502] });
      await moderator.client.post(`/api/v1.0/rating/moderation/${site.projectId}`, { action: 'approve' });
      expect((await site.client.put(`/api/v1.0/project/${site.projectId}`, { ...FORM, categories: [1502], keywords: 'другие слова' })).json.result.status).toBe('editing');
      expect((await site.client.put(`/api/v1.0/project/${site.projectId}`, { ...FORM, categories: [1503] })).json.errors.message).toBe(
        'Редактирование рейтинга недоступно в этом статусе',
      );
      const left = await site.client.put(`/api/v1.0/project/${site.projectId}`, { in_rating: false });
      expect(left.json.result).toMatchObject({ status: 'unincluded', in_rating: false, public_stats: false, categories: [], regions: [], types: [] });
    });

    it('moderators ask for changes, approve, exclude and restore; each step is logged and locks or frees the form', async () => {
      const site = await userWithProject(env());
      const moderator = await newUser(env(), 4);
      const moderate = async (action: string) => (await moderator.client.post(`/api/v1.0/rating/moderation/${site.projectId}`, { action })).json;
      const project = async () => (await site.client.get(`/api/v1.0/project/${site.projectId}`)).json.result;
      const listed = async () =>
        (await new ApiClient(env().url).get('/api/v1.0/rating/catalogue?category_id=1502')).json.result.data.map((r: { id: number }) => r.id);
      const locked = 'Редактирование рейтинга недоступно в этом статусе';
      await site.client.put(`/api/v1.0/project/${site.projectId}`, { ...FORM, categories: [1502] });

      // request_change: moderation → need_change; still in the rating, the owner waits for the editors.
      expect(await moderate('request_change')).toEqual({ responseStatus: 200, result: { status: 'need_change' } });
      expect(await project()).toMatchObject({ status: 'need_change', in_rating: true });
      expect((await site.client.put(`/api/v1.0/project/${site.projectId}`, FORM)).json.errors.message).toBe(locked);
      expect((await site.client.put(`/api/v1.0/project/${site.projectId}`, { in_rating: true })).json.errors.message).toBe(locked);
      expect((await moderate('reject')).errors.message).toBe('Действие reject недоступно в статусе need_change');
      expect((await moderate('restore')).errors.message).toBe('Действие restore недоступно в статусе need_change');

      // approve: need_change → included, then in the catalogue once positions are computed.
      expect((await moderate('approve')).result).toEqual({ status: 'included' });
      await moderator.client.post('/api/v1.0/rating/recompute');
      expect(await listed()).toEqual([site.projectId]);
      expect((await moderate('request_change')).result).toEqual({ status: 'need_change' });
      expect(await listed()).toEqual([site.projectId]);
      expect((await moderate('approve')).result).toEqual({ status: 'included' });

      // exclude: out of the rating and the catalogue; the form is locked; only restore leads out.
      expect((await moderate('exclude')).result).toEqual({ status: 'excluded' });
      expect(await project()).toMatchObject({ status: 'excluded', in_rating: false });
      expect(await listed()).toEqual([]);
      expect((await site.client.put(`/api/v1.0/project/${site.projectId}`, FORM)).json.errors.message).toBe(locked);
      // An excluded site cannot even leave: only the administration's restore leads out.
      expect((await site.client.put(`/api/v1.0/project/${site.projectId}`, { in_rating: false })).json.errors.message).toBe(locked);
      for (const action of ['exclude', 'approve', 'request_change', 'reject']) {
        expect((await moderate(action)).errors.message).toBe(`Действие ${action} недоступно в статусе excluded`);
      }

      // restore: excluded → unincluded; the owner may apply again.
      expect((await moderate('restore')).result).toEqual({ status: 'unincluded' });
      expect(await project()).toMatchObject({ status: 'unincluded', in_rating: false });
      expect((await site.client.put(`/api/v1.0/project/${site.projectId}`, { ...FORM, categories: [1502] })).json.result.status).toBe('moderation');

      const log = await env().db.query('SELECT action, old_status, new_status, user_id FROM rating_moderation_log WHERE project_id = $1 ORDER BY id', [site.projectId]);
      expect(log).toEqual([
        { action: 'submit', old_status: 'unincluded', new_status: 'moderation', user_id: null },
        { action: 'request_change', old_status: 'moderation', new_status: 'need_change', user_id: moderator.id },
        { action: 'approve', old_status: 'need_change', new_status: 'included', user_id: moderator.id },
        { action: 'request_change', old_status: 'included', new_status: 'need_change', user_id: moderator.id },
        { action: 'approve', old_status: 'need_change', new_status: 'included', user_id: moderator.id },
        { action: 'exclude', old_status: 'included', new_status: 'excluded', user_id: moderator.id },
        { action: 'restore', old_status: 'excluded', new_status: 'unincluded', user_id: moderator.id },
        { action: 'submit', old_status: 'unincluded', new_status: 'moderation', user_id: null },
      ]);
    });

    it('an included site older than the rating period with no visitor in it drops out; restore lets it apply again', async () => {
      const moderator = await newUser(env(), 4);
      const quiet = await userWithProject(env());
      const visited = await userWithProject(env());
      const young = await userWithProject(env());
      for (const p of [quiet, visited, young]) {
        await p.client.put(`/api/v1.0/project/${p.projectId}`, { ...FORM, categories: [1504] });
        await moderator.client.post(`/api/v1.0/rating/moderation/${p.projectId}`, { action: 'approve' });
      }
      // quiet and visited were created before the period (8 to 2 days back); young within it.
      await env().db.query(`UPDATE projects SET created_at = now() - interval '10 days' WHERE id = ANY($1::bigint[])`, [[quiet.projectId, visited.projectId]]);
      await addTraffic(env().clickhouse, visited.projectId, Date.now() - 3 * DAY_MS, 5, 2);
      await addTraffic(env().clickhouse, quiet.projectId, Date.now(), 50, 20); // today is not in the period
      expect((await moderator.client.post('/api/v1.0/rating/recompute')).status).toBe(200);

      const status = async (p: { client: ApiClient; projectId: number }) => {
        const { status: s, in_rating } = (await p.client.get(`/api/v1.0/project/${p.projectId}`)).json.result;
        return { status: s, in_rating };
      };
      expect(await status(quiet)).toEqual({ status: 'dropped_out', in_rating: false });
      expect(await status(visited)).toEqual({ status: 'included', in_rating: true });
      expect(await status(young)).toEqual({ status: 'included', in_rating: true });
      const catalogue = await new ApiClient(env().url).get('/api/v1.0/rating/catalogue?category_id=1504');
      expect(catalogue.json.result.data.map((r: { id: number; position: number }) => [r.id, r.position])).toEqual([
        [visited.projectId, 1],
        [young.projectId, 2],
      ]);
      // A dropped-out site is not edited by its owner; the moderators restore it.
      expect((await quiet.client.put(`/api/v1.0/project/${quiet.projectId}`, FORM)).json.errors.message).toBe('Редактирование рейтинга недоступно в этом статусе');
      expect((await moderator.client.post(`/api/v1.0/rating/moderation/${quiet.projectId}`, { action: 'approve' })).json.errors.message).toBe(
        'Действие approve недоступно в статусе dropped_out',
      );
      // A second recompute finds nothing more to drop.
      await moderator.client.post('/api/v1.0/rating/recompute');
      const drops = await env().db.query('SELECT user_id, old_status, new_status FROM rating_moderation_log WHERE project_id = $1 AND action = $2', [quiet.projectId, 'drop']);
      expect(drops).toEqual([{ user_id: null, old_status: 'included', new_status: 'dropped_out' }]);
      expect((await moderator.client.post(`/api/v1.0/rating/moderation/${quiet.projectId}`, { action: 'restore' })).json.result).toEqual({ status: 'unincluded' });
      expect((await quiet.client.put(`/api/v1.0/project/${quiet.projectId}`, { ...FORM, categories: [1504] })).json.result.status).toBe('moderation');
    });

    it('the public catalogue shows the popularity only of sites whose owners opened their statistics', async () => {
      const moderator = await newUser(env(), 4);
      const open = await userWithProject(env());
      const closed = await userWithProject(env());
      await open.client.put(`/api/v1.0/project/${open.projectId}`, { ...FORM, categories: [1501], public_stats: true });
      await closed.client.put(`/api/v1.0/project/${closed.projectId}`, { ...FORM, categories: [1501], public_stats: false });
      for (const p of [open, closed]) await moderator.client.post(`/api/v1.0/rating/moderation/${p.projectId}`, { action: 'approve' });
      await addTraffic(env().clickhouse, open.projectId, Date.now() - 5 * DAY_MS, 10, 4);
      await addTraffic(env().clickhouse, closed.projectId, Date.now() - 5 * DAY_MS, 20, 7);
      await moderator.client.post('/api/v1.0/rating/recompute');
      const catalogue = await new ApiClient(env().url).get('/api/v1.0/rating/catalogue?category_id=1501');
      expect(catalogue.json.result).toEqual({
        data: [
          { position: 1, id: closed.projectId, title: FORM.title, url: expect.any(String), favicon: null, public_stats: false, popularity: null },
          { position: 2, id: open.projectId, title: FORM.title, url: expect.any(String), favicon: null, public_stats: true, popularity: 4 },
        ],
        total: 2,
        limit: 49,
        offset: 0,
      });
    });

    it('the project list with use_rating=true carries the position in each theme of the site', async () => {
      const moderator = await newUser(env(), 4);
      const site = await userWithProject(env());
      await site.client.put(`/api/v1.0/project/${site.projectId}`, { ...FORM, categories: [1401, 1402] });
      await moderator.client.post(`/api/v1.0/rating/moderation/${site.projectId}`, { action: 'approve' });
      const list = async (query: string) => (await site.client.get(`/api/report/v1.0/project/list${query}`)).json.result.data;
      expect((await list('?use_rating=true'))[0]).toMatchObject({
        id: site.projectId,
        status: 'included',
        in_rating: true,
        categories: [
          { id: 1401, title: 'Органы власти', position: null },
          { id: 1402, title: 'Некоммерческие организации', position: null },
        ],
      });
      await moderator.client.post('/api/v1.0/rating/recompute');
      expect((await list('?use_rating=true'))[0].categories).toEqual([
        { id: 1401, title: 'Органы власти', position: 1 },
        { id: 1402, title: 'Некоммерческие организации', position: 1 },
      ]);
      expect((await list('?use_rating=false'))[0].categories).toEqual([]);
      expect((await list(''))[0].categories).toEqual([]);
    });

    it('the rating report: the sites of a category by popularity over whole days, a closed site\'s popularity hidden, a point per day', async () => {
      const moderator = await newUser(env(), 4);
      // Created in this order, so a's id is the lowest: among equals a site with a lower id stands first.
      const a = await userWithProject(env());
      const b = await userWithProject(env());
      const c = await userWithProject(env());
      await a.client.put(`/api/v1.0/project/${a.projectId}`, { ...FORM, categories: [1301, 1302], public_stats: true });
      await b.client.put(`/api/v1.0/project/${b.projectId}`, { ...FORM, categories: [1301], public_stats: false });
      await c.client.put(`/api/v1.0/project/${c.projectId}`, { ...FORM, categories: [1301], public_stats: true });
      for (const p of [a, b, c]) await moderator.client.post(`/api/v1.0/rating/moderation/${p.projectId}`, { action: 'approve' });
      const moscowDay = (ms: number): string => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);
      const today = moscowDay(Date.now());
      const daysBack = (n: number): string => moscowDay(Date.now() - n * DAY_MS);
      // Visitors: a 3 four days back and 2 three days back; b 9 four days back; c 1 three days back
      // and 100 today, which the rating does not count (whole days only).
      await addTraffic(env().clickhouse, a.projectId, Date.now() - 4 * DAY_MS, 10, 3);
      await addTraffic(env().clickhouse, a.projectId, Date.now() - 3 * DAY_MS, 5, 2);
      await addTraffic(env().clickhouse, b.projectId, Date.now() - 4 * DAY_MS, 20, 9);
      await addTraffic(env().clickhouse, c.projectId, Date.now() - 3 * DAY_MS, 1, 1);
      await addTraffic(env().clickhouse, c.projectId, Date.now(), 100, 100);
      const ask = { date_start: daysBack(4), date_end: today, group: 'day' };

      // Four days back to today: five days, moved back to end yesterday.
      const table = (await a.client.post(`/api/report/v1.0/report/${a.projectId}/rating/table`, ask)).json.result;
      expect(table.data.map((r: { extra: { value: number; public_stats: boolean }; metrics: unknown[] }) => [r.extra.value, r.extra.public_stats, ...r.metrics])).toEqual([
        [b.projectId, false, null, 1], // b keeps its statistics closed: its popularity is not shown
        [a.projectId, true, 5, 2],
        [c.projectId, true, 1, 3],
      ]);
      expect(table.metrics).toEqual(['popularity', 'position']);
      expect(table.totals).toEqual([null, null]);
      expect(table.meta).toEqual({
        total: 3, offset: 0, sample: 1,
        rating: { category_id: 1301, categories: [1301, 1302], position: 2, date_start: daysBack(5), date_end: daysBack(1) },
        leader: table.data[0], pinned: table.data[1], common_total: 3,
      });
      // Its owner sees b's own popularity.
      const own = (await b.client.post(`/api/report/v1.0/report/${b.projectId}/rating/table`, ask)).json.result;
      expect(own.data.map((r: { metrics: unknown[] }) => r.metrics)).toEqual([[9, 1], [5, 2], [1, 3]]);
      // Sorted by a column: always in its default direction.
      const byPopularity = (await a.client.post(`/api/report/v1.0/report/${a.projectId}/rating/table`, { ...ask, sort: { name: 'popularity', order: 'asc' } })).json.result;
      expect(byPopularity.sort).toEqual({ name: 'popularity', order: 'desc' });
      // The other category of a: a alone.
      const other = (await a.client.post(`/api/report/v1.0/report/${a.projectId}/rating/table`, { ...ask, category_id: 1302 })).json.result;
      expect(other.data.map((r: { extra: { value: number }; metrics: unknown[] }) => [r.extra.value, ...r.metrics])).toEqual([[a.projectId, 5, 1]]);

      // A point per day of the period; the lines of the first sites.
      const graph = (await a.client.post(`/api/report/v1.0/report/${a.projectId}/rating/graph`, ask)).json.result;
      expect(graph.data.map((l: { id: string; points: { date: string; metrics: unknown[] }[] }) => [l.id, l.points.map((p) => [p.date.slice(0, 10), ...p.metrics])])).toEqual([
        [`[${b.projectId}]`, [[daysBack(5), null, 2], [daysBack(4), null, 1], [daysBack(3), null, 3], [daysBack(2), null, 2], [daysBack(1), null, 2]]],
        [`[${a.projectId}]`, [[daysBack(5), 0, 1], [daysBack(4), 3, 2], [daysBack(3), 2, 1], [daysBack(2), 0, 1], [daysBack(1), 0, 1]]],
        [`[${c.projectId}]`, [[daysBack(5), 0, 3], [daysBack(4), 0, 3], [daysBack(3), 1, 2], [daysBack(2), 0, 3], [daysBack(1), 0, 3]]],
      ]);
      const selected = (await a.client.post(`/api/report/v1.0/report/${a.projectId}/rating/graph`, { ...ask, selected_lines: [`[${c.projectId}]`] })).json.result;
      expect(selected.data.map((l: { id: string; title: string }) => [l.id, l.title])).toEqual([[`[${c.projectId}]`, FORM.title]]);

      // The CSV: the whole rating as the table shows it.
      const csv = await a.client.post(`/api/report/v1.0/report/${a.projectId}/rating/csv`, ask);
      // (The text as fetch decodes it, without the byte-order mark the file starts with.)
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(csv.json).toBe(`Сайт;Популярность;Позиция\r\n${FORM.title};NA;1\r\n${FORM.title};5;2\r\n${FORM.title};1;3\r\n`);

      // Refused: a category the site is not rated in, a metric the rating does not have.
      const foreign = await a.client.post(`/api/report/v1.0/report/${a.projectId}/rating/table`, { ...ask, category_id: 1504 });
      expect([foreign.status, foreign.json.errors.message]).toEqual([400, 'category_id: the site is not rated in category 1504 (its categories: 1301, 1302)']);
      const filteredAsk = await a.client.post(`/api/report/v1.0/report/${a.projectId}/rating/table`, { ...ask, filters: [{ key: 'browser_family', op: '=', value: 'Chrome' }] });
      expect([filteredAsk.status, filteredAsk.json.errors.message]).toEqual([400, "filters: the rating report takes no filters (its rows are sites, not the site's traffic)"]);
      const metric = await a.client.post(`/api/report/v1.0/report/${a.projectId}/rating/table`, { ...ask, metrics: ['page_views'] });
      expect([metric.status, metric.json.errors.message]).toEqual([400, 'metrics: page_views is not a metric of the report rating (it has popularity, position)']);
      // A site in no rating: no rows, and why.
      const unrated = await userWithProject(env());
      const none = (await unrated.client.post(`/api/report/v1.0/report/${unrated.projectId}/rating/table`, ask)).json.result;
      expect([none.data, none.meta.not_collected]).toEqual([[], 'the site takes no part in the rating']);
    });

    describe('the rating table\'s meta (001 §3: "meta (total, leader, pinned, offset, common_total)")', () => {
      const moscowDay = (ms: number): string => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);
      const ask = { date_start: moscowDay(Date.now() - 4 * DAY_MS), date_end: moscowDay(Date.now() - DAY_MS), group: 'day' };
      /** A row of the rating as the table gives it. */
      const row = (id: number, public_stats: boolean, metrics: (number | null)[]) => ({
        id: `[${id}]`, parent_id: null, level: 0, can_be_expanded: false, title: FORM.title, extra: { title: FORM.title, value: id, public_stats }, metrics,
      });
      /** Three sites rated in category 1303, by popularity: b (9 visitors, closed statistics), a (5), c (1). */
      async function rated() {
        const moderator = await newUser(env(), 4);
        const [a, b, c] = [await userWithProject(env()), await userWithProject(env()), await userWithProject(env())];
        for (const [site, open] of [[a, true], [b, false], [c, true]] as const) {
          await site.client.put(`/api/v1.0/project/${site.projectId}`, { ...FORM, categories: [1303], public_stats: open });
          await moderator.client.post(`/api/v1.0/rating/moderation/${site.projectId}`, { action: 'approve' });
        }
        await addTraffic(env().clickhouse, a.projectId, Date.now() - 3 * DAY_MS, 10, 5);
        await addTraffic(env().clickhouse, b.projectId, Date.now() - 3 * DAY_MS, 20, 9);
        await addTraffic(env().clickhouse, c.projectId, Date.now() - 3 * DAY_MS, 2, 1);
        return { a, b, c };
      }

      it('carries the category\'s leader and the site\'s own row, pinned, whatever the page, and the sites of the category', async () => {
        const { a, b, c } = await rated();
        const page = await a.client.post(`/api/report/v1.0/report/${a.projectId}/rating/table`, { ...ask, limit: 1, offset: 2 });
        expect(page.json).toEqual({
          responseStatus: 200,
          result: {
            data: [row(c.projectId, true, [1, 3])],
            metrics: ['popularity', 'position'],
            all_metrics: ['popularity', 'position'],
            totals: [null, null],
            sort: { name: 'position', order: 'asc' },
            meta: {
              total: 3, offset: 2, sample: 1,
              rating: { category_id: 1303, categories: [1303], position: 2, date_start: ask.date_start, date_end: ask.date_end },
              // b keeps its statistics closed: its popularity is hidden from a, in the leader's row too.
              leader: row(b.projectId, false, [null, 1]),
              pinned: row(a.projectId, true, [5, 2]),
              common_total: 3,
            },
          },
        });
      });

      it('pins no row for a site of the category that is not placed in it (not yet approved)', async () => {
        await rated();
        const waiting = await userWithProject(env());
        await waiting.client.put(`/api/v1.0/project/${waiting.projectId}`, { ...FORM, categories: [1303], public_stats: true });
        const table = (await waiting.client.post(`/api/report/v1.0/report/${waiting.projectId}/rating/table`, ask)).json.result;
        expect([table.meta.pinned, table.meta.leader.metrics[1], table.meta.rating.position]).toEqual([null, 1, 0]);
      });
    });

    it('the demo project\'s rating (000 §4: "always allowed"): the demo ranked among its theme\'s rated sites, for anyone; no rated site\'s rating or the catalogue holds it', async () => {
      const demo = DEMO_PROJECT_ID;
      const moderator = await newUser(env(), 4);
      const rated = await userWithProject(env());
      await rated.client.put(`/api/v1.0/project/${rated.projectId}`, { ...FORM, categories: [101], public_stats: true });
      await moderator.client.post(`/api/v1.0/rating/moderation/${rated.projectId}`, { action: 'approve' });
      // Two days back, whole days: the demo 40 visitors (more than any other test gives a site), the rated site 39.
      await addTraffic(env().clickhouse, demo, Date.now() - 2 * DAY_MS, 50, 40);
      await addTraffic(env().clickhouse, rated.projectId, Date.now() - 2 * DAY_MS, 45, 39);
      const moscowDay = (ms: number): string => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);
      const ask = { date_start: moscowDay(Date.now() - 7 * DAY_MS), date_end: moscowDay(Date.now() - DAY_MS), group: 'day', limit: 100 };
      type Row = { extra: { value: number }; metrics: (number | null)[] };
      for (const client of [new ApiClient(env().url), (await newUser(env())).client]) {
        const table = (await client.post(`/api/report/v1.0/report/${demo}/rating/table`, ask)).json.result;
        expect(table.meta.not_collected).toBeUndefined();
        expect(table.meta.rating).toMatchObject({ category_id: 101, categories: [101] });
        const rows = (table.data as Row[]).map((r) => [r.extra.value, ...r.metrics]);
        // The demo's own popularity is shown beside its place; the rated site's (open statistics) too, one place below.
        expect(rows).toContainEqual([demo, 40, table.meta.rating.position]);
        expect(rows).toContainEqual([rated.projectId, 39, table.meta.rating.position + 1]);
        const graph = (await client.post(`/api/report/v1.0/report/${demo}/rating/graph`, { ...ask, selected_lines: [`[${demo}]`] })).json.result;
        expect(graph.data.map((l: { id: string; points: { metrics: unknown[] }[] }) => [l.id, l.points.length, l.points.some((p) => p.metrics[0] === 40)])).toEqual([[`[${demo}]`, 7, true]]);
      }
      const own = (await rated.client.post(`/api/report/v1.0/report/${rated.projectId}/rating/table`, { ...ask, category_id: 101 })).json.result;
      const ids = (own.data as Row[]).map((r) => r.extra.value);
      expect(ids).toContain(rated.projectId);
      expect(ids).not.toContain(demo);
      await moderator.client.post('/api/v1.0/rating/recompute');
      const catalogue = (await new ApiClient(env().url).get('/api/v1.0/rating/catalogue?category_id=101&limit=100')).json.result;
      expect(catalogue.data.map((r: { id: number }) => r.id)).toContain(rated.projectId);
      expect(catalogue.data.map((r: { id: number }) => r.id)).not.toContain(demo);
    });

    it('recomputes in one api process at a time', async () => {
      const moderator = await newUser(env(), 4);
      const recompute = async () => (await moderator.client.post('/api/v1.0/rating/recompute')).json.result;
      if (env().db.kind === 'postgres') {
        // Another process holds the lock: this one leaves the positions to it. (PGlite has one
        // session for the whole process, so there is no other process to play there.)
        let release = (): void => undefined;
        let holding = (): void => undefined;
        const held = new Promise<void>((resolve) => (holding = resolve));
        const other = env().db.transaction(async (tx) => {
          await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext(current_schema()))', [7_596_045]);
          holding();
          await new Promise<void>((resolve) => (release = resolve));
        });
        await held;
        expect(await recompute()).toEqual({ positions: null });
        release();
        await other;
      }
      // Calls made in this process while a run is under way share it.
      const [first, second] = await Promise.all([recompute(), recompute()]);
      expect(first).toEqual({ positions: expect.any(Number) });
      expect(second).toEqual(first);
    });
  });
}
