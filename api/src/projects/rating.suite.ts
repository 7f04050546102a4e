import { describe, expect, it } from 'vitest';
import { ApiClient } from '../testing/client.js';
import { addTraffic, newUser, snapshot, userWithProject } from '../testing/fixtures.js';
import type { TestApi } from '../testing/harness.js';

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

    it('checks the form against the limits of §5 and changes nothing on error', async () => {
      const { client, projectId } = await userWithProject(env());
      const before = await snapshot(env().db);
      const cases: [object, Record<string, string[]>][] = [
        [{ categories: [] }, { categories: ['Обязательное поле'] }],
        [{ categories: [101, 102, 103, 104, 201, 202, 203, 204] }, { categories: ['Максимальное количество тем: 7'] }],
        [{ types: [1, 2, 3] }, { types: ['Максимальное количество типов: 2'] }],
        [{ regions: [101, 102, 103, 104, 105, 106, 107, 201, 202, 203, 204] }, { regions: ['Максимальное количество регионов: 10'] }],
        [{ keywords: 'ab' }, { keywords: ['Ключевые слова: от 3 до 500 символов'] }],
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
  });
}
