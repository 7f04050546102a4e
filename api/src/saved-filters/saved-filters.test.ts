import { FILTER_LIMITS, SAVED_FILTER_TITLE_MAX, type SavedFilterBody } from '@stat/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../auth/project-access.js';
import { ApiClient } from '../testing/client.js';
import { newUser, projectTeam, snapshot, uniqueSite, userWithProject, type Team } from '../testing/fixtures.js';
import { useTestApi, type TestApi } from '../testing/harness.js';

// Needs: nothing but the build. Saved filters (specification 001, §3, §4, §5, §6, §7) against the
// api running in this process on PGlite.

let api: TestApi;
useTestApi({ file: 'saved-filters.test.ts' }, (started) => {
  api = started;
});

const RULES: SavedFilterBody = {
  dimension_filters: [
    { key: 'traffic_type', op: 'include', value: ['search', 'direct'] },
    { key: 'url', op: 'like', value: '*/news/*' },
    { key: 'event_name', op: '=', value: 'signup', extra: { eventClass: 'goal' } },
    { key: 'view_depth', op: 'range', value: [2, 10] },
  ],
  metric_filters: [{ key: 'visits', op: '>', value: 10 }],
};
const OTHER_RULES: SavedFilterBody = { dimension_filters: [{ key: 'browser_family', op: '!=', value: 'Chrome' }] };

const TITLE_REQUIRED = { responseStatus: 400, errors: { message: 'Поле не заполнено', fields: { title: ['Поле не заполнено'] } } };
const TITLE_TAKEN = {
  responseStatus: 400,
  errors: { message: 'Шаблон с таким названием уже существует', fields: { title: ['Шаблон с таким названием уже существует'] } },
};
const TITLE_TOO_LONG = { responseStatus: 400, errors: { message: 'Превышен лимит символов', fields: { title: ['Превышен лимит символов'] } } };
const NOT_FOUND = { responseStatus: 404, errors: { message: 'Шаблон не найден' } };
const LOGIN_REQUIRED = { responseStatus: 401, errors: { message: 'Требуется вход' } };
const FORBIDDEN = { responseStatus: 403, errors: { message: 'Доступ запрещен' } };

const filtersOf = (projectId: number | string) => `/api/v1.0/project/${projectId}/saved_filters`;

type User = Awaited<ReturnType<typeof newUser>>;

/** An owner's project shared with a viewer (level 1) and an editor (level 0). */
async function team(): Promise<Team & { path: string }> {
  const shared = await projectTeam(api);
  return { ...shared, path: filtersOf(shared.projectId) };
}

/** A user with a project of their own, for the tests that need nobody else. */
async function alone(): Promise<{ owner: User; projectId: number; path: string }> {
  const owner = await userWithProject(api);
  return { owner, projectId: owner.projectId, path: filtersOf(owner.projectId) };
}

/** Creates a filter and answers it (the result of the call). */
async function create(client: ApiClient, path: string, input: { title: string; type?: string; body?: SavedFilterBody }) {
  const answer = await client.post(path, { body: RULES, ...input });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json.result as { id: number; title: string; type: string; body: SavedFilterBody; editable: boolean };
}

describe('saved filters: create, list, change, delete', () => {
  it('creates a private filter by default and answers it whole; the list holds it', async () => {
    const { owner, path } = await alone();
    const answer = await owner.client.post(path, { title: 'Поисковый трафик', body: RULES });
    expect(answer.json).toEqual({
      responseStatus: 200,
      result: { id: expect.any(Number), title: 'Поисковый трафик', type: 'private', body: RULES, editable: true },
    });
    expect((await owner.client.get(path)).json).toEqual({ responseStatus: 200, result: { data: [answer.json.result], total: 1 } });
  });

  it('creates a shared filter when asked', async () => {
    const { owner, path } = await alone();
    const answer = await owner.client.post(path, { title: 'Для всех', type: 'shared', body: OTHER_RULES });
    expect(answer.json).toEqual({ responseStatus: 200, result: { id: expect.any(Number), title: 'Для всех', type: 'shared', body: OTHER_RULES, editable: true } });
  });

  it('keeps a body of metric filters only', async () => {
    const { owner, path } = await alone();
    const body: SavedFilterBody = { metric_filters: [{ key: 'bounces', op: '<', value: 50.5 }] };
    expect((await create(owner.client, path, { title: 'Мало отказов', body })).body).toEqual(body);
  });

  it('lists the caller’s private filters and every shared one, oldest first', async () => {
    const { owner, viewer, path } = await team();
    const first = await create(owner.client, path, { title: 'Мой', type: 'private' });
    const second = await create(viewer.client, path, { title: 'Общий зрителя', type: 'shared' });
    const third = await create(viewer.client, path, { title: 'Личный зрителя', type: 'private' });
    const fourth = await create(owner.client, path, { title: 'Общий владельца', type: 'shared' });
    expect((await owner.client.get(path)).json.result).toEqual({ data: [first, second, fourth], total: 3 });
    expect((await viewer.client.get(path)).json.result).toEqual({ data: [second, third, fourth], total: 3 });
  });

  it('trims the title', async () => {
    const { owner, path } = await alone();
    expect((await create(owner.client, path, { title: ' \t Отчёт по рекламе \u00a0' })).title).toBe('Отчёт по рекламе');
  });

  it('PUT changes title, type and body at once', async () => {
    const { owner, path } = await alone();
    const filter = await create(owner.client, path, { title: 'Старое' });
    const answer = await owner.client.put(`${path}/${filter.id}`, { title: 'Новое', type: 'shared', body: OTHER_RULES });
    expect(answer.json).toEqual({ responseStatus: 200, result: { id: filter.id, title: 'Новое', type: 'shared', body: OTHER_RULES, editable: true } });
    expect((await owner.client.get(path)).json.result.data).toEqual([answer.json.result]);
  });

  it('PUT of the title alone keeps the type and the body', async () => {
    const { owner, path } = await alone();
    const filter = await create(owner.client, path, { title: 'Было', type: 'shared' });
    const answer = await owner.client.put(`${path}/${filter.id}`, { title: 'Стало' });
    expect(answer.json.result).toEqual({ ...filter, title: 'Стало' });
  });

  it('PUT of the body alone («Сохранить текущий») keeps the title and the type', async () => {
    const { owner, path } = await alone();
    const filter = await create(owner.client, path, { title: 'Текущий' });
    const answer = await owner.client.put(`${path}/${filter.id}`, { body: OTHER_RULES });
    expect(answer.json.result).toEqual({ ...filter, body: OTHER_RULES });
  });

  it('PUT without anything to change is a 400 and changes nothing', async () => {
    const { owner, path } = await alone();
    const filter = await create(owner.client, path, { title: 'Без изменений' });
    const before = await snapshot(api.db);
    expect((await owner.client.put(`${path}/${filter.id}`, {})).json).toEqual({
      responseStatus: 400,
      errors: { message: 'Nothing to change: send title, type or body' },
    });
    expect(await snapshot(api.db)).toBe(before);
  });

  it('DELETE answers 200 {} and the filter is gone; a second DELETE is 404', async () => {
    const { owner, path } = await alone();
    const filter = await create(owner.client, path, { title: 'Удаляемый' });
    expect((await owner.client.delete(`${path}/${filter.id}`)).json).toEqual({ responseStatus: 200, result: {} });
    expect((await owner.client.get(path)).json.result).toEqual({ data: [], total: 0 });
    expect((await owner.client.delete(`${path}/${filter.id}`)).json).toEqual(NOT_FOUND);
  });

  it('PUT and DELETE of an unknown filter id are 404', async () => {
    const { owner, path } = await alone();
    expect((await owner.client.put(`${path}/2147483647`, { title: 'Нет такого' })).json).toEqual(NOT_FOUND);
    expect((await owner.client.delete(`${path}/2147483647`)).json).toEqual(NOT_FOUND);
  });

  it('a filter of another project is 404 through this one, and stays as it was', async () => {
    const { owner, path } = await alone();
    const created = await owner.client.post('/api/v1.0/project', { url: uniqueSite(), title: 'Второй сайт', agree: true });
    const otherPath = filtersOf(created.json.result.project_id);
    const elsewhere = await create(owner.client, otherPath, { title: 'Чужой проект', type: 'shared' });
    const before = await snapshot(api.db);
    expect((await owner.client.put(`${path}/${elsewhere.id}`, { title: 'Угон' })).json).toEqual(NOT_FOUND);
    expect((await owner.client.delete(`${path}/${elsewhere.id}`)).json).toEqual(NOT_FOUND);
    expect((await owner.client.get(path)).json.result).toEqual({ data: [], total: 0 });
    expect(await snapshot(api.db)).toBe(before);
  });

  it('forged filter ids are 400 before any query', async () => {
    const { owner, path } = await alone();
    for (const forged of ['0', '-1', 'abc', '1.5', '1e3', '2147483648', '99999999999']) {
      expect((await owner.client.put(`${path}/${forged}`, { title: 'X' })).json, forged).toEqual({
        responseStatus: 400,
        errors: { message: 'filterId must be a whole number from 1 to 2147483647' },
      });
      expect((await owner.client.delete(`${path}/${forged}`)).status, forged).toBe(400);
    }
  });
});

describe('saved filters: the title (§5)', () => {
  it('a missing title is «Поле не заполнено»', async () => {
    const { owner, path } = await alone();
    const before = await snapshot(api.db);
    expect((await owner.client.post(path, { body: RULES })).json).toEqual(TITLE_REQUIRED);
    expect(await snapshot(api.db)).toBe(before);
  });

  it('a title of whitespace only is «Поле не заполнено»', async () => {
    const { owner, path } = await alone();
    const before = await snapshot(api.db);
    expect((await owner.client.post(path, { title: ' \t\n\u00a0 ', body: RULES })).json).toEqual(TITLE_REQUIRED);
    expect(await snapshot(api.db)).toBe(before);
  });

  it('a title that is no string is «Поле не заполнено»', async () => {
    const { owner, path } = await alone();
    const before = await snapshot(api.db);
    for (const title of [null, 12, ['Список'], { text: 'Объект' }]) {
      expect((await owner.client.post(path, { title, body: RULES })).json, JSON.stringify(title)).toEqual(TITLE_REQUIRED);
    }
    expect(await snapshot(api.db)).toBe(before);
  });

  it(`takes ${SAVED_FILTER_TITLE_MAX} characters, counted as characters (not UTF-16 units)`, async () => {
    const { owner, path } = await alone();
    expect((await create(owner.client, path, { title: 'я'.repeat(SAVED_FILTER_TITLE_MAX) })).title).toBe('я'.repeat(SAVED_FILTER_TITLE_MAX));
    expect((await create(owner.client, path, { title: '📈'.repeat(SAVED_FILTER_TITLE_MAX) })).title).toBe('📈'.repeat(SAVED_FILTER_TITLE_MAX));
  });

  it(`refuses ${SAVED_FILTER_TITLE_MAX + 1} characters with «Превышен лимит символов»`, async () => {
    const { owner, path } = await alone();
    const before = await snapshot(api.db);
    expect((await owner.client.post(path, { title: 'я'.repeat(SAVED_FILTER_TITLE_MAX + 1), body: RULES })).json).toEqual(TITLE_TOO_LONG);
    // A variation selector is a character of its own, as Postgres counts.
    expect((await owner.client.post(path, { title: 'a\ufe0f'.repeat(128), body: RULES })).json).toEqual(TITLE_TOO_LONG);
    expect(await snapshot(api.db)).toBe(before);
  });

  it('a title equal to one of the caller’s own is «Шаблон с таким названием уже существует»', async () => {
    const { owner, path } = await alone();
    await create(owner.client, path, { title: 'Повтор' });
    const before = await snapshot(api.db);
    expect((await owner.client.post(path, { title: 'Повтор', body: OTHER_RULES })).json).toEqual(TITLE_TAKEN);
    expect((await owner.client.post(path, { title: '  Повтор ', type: 'shared', body: OTHER_RULES })).json).toEqual(TITLE_TAKEN);
    expect(await snapshot(api.db)).toBe(before);
  });

  it('a title equal to another user’s shared one is taken, for a private filter as for a shared one', async () => {
    const { owner, viewer, path } = await team();
    await create(owner.client, path, { title: 'Общий', type: 'shared' });
    const before = await snapshot(api.db);
    expect((await viewer.client.post(path, { title: 'Общий', body: OTHER_RULES })).json).toEqual(TITLE_TAKEN);
    expect((await viewer.client.post(path, { title: 'Общий', type: 'shared', body: OTHER_RULES })).json).toEqual(TITLE_TAKEN);
    expect(await snapshot(api.db)).toBe(before);
  });

  it('titles are compared as a reader tells names apart: one differing in case or spacing only is taken', async () => {
    const { owner, path } = await alone();
    await create(owner.client, path, { title: 'Chrome только' });
    const before = await snapshot(api.db);
    expect((await owner.client.post(path, { title: ' chrome  ТОЛЬКО ', body: OTHER_RULES })).json).toEqual(TITLE_TAKEN);
    expect(await snapshot(api.db)).toBe(before);
    expect((await create(owner.client, path, { title: 'Chrome только и Москва' })).title).toBe('Chrome только и Москва');
  });

  it('another user’s private title is free: they cannot be told of it', async () => {
    const { owner, viewer, editor, path } = await team();
    await create(owner.client, path, { title: 'Секретный' });
    expect((await create(viewer.client, path, { title: 'Секретный' })).type).toBe('private');
    expect((await create(editor.client, path, { title: 'Секретный', type: 'shared' })).type).toBe('shared');
    // The owner now sees two of that title: their own and the editor's shared one.
    expect((await owner.client.get(path)).json.result.data.map((f: { title: string; type: string }) => `${f.title} ${f.type}`)).toEqual([
      'Секретный private',
      'Секретный shared',
    ]);
  });

  it('PUT to a title the caller sees is refused; to its own title it is not', async () => {
    const { owner, path } = await alone();
    const first = await create(owner.client, path, { title: 'Первый' });
    const second = await create(owner.client, path, { title: 'Второй', type: 'shared' });
    const before = await snapshot(api.db);
    expect((await owner.client.put(`${path}/${second.id}`, { title: 'Первый' })).json).toEqual(TITLE_TAKEN);
    expect((await owner.client.put(`${path}/${first.id}`, { title: ' Второй ' })).json).toEqual(TITLE_TAKEN);
    expect(await snapshot(api.db)).toBe(before);
    expect((await owner.client.put(`${path}/${first.id}`, { title: 'Первый', body: OTHER_RULES })).json.result).toEqual({ ...first, body: OTHER_RULES });
  });

  it('making a private filter shared is refused when a shared one has its title', async () => {
    const { owner, viewer, path } = await team();
    // The viewer's private one came first; the owner, who cannot see it, then shared the same title.
    const mine = await create(viewer.client, path, { title: 'Совпадение' });
    await create(owner.client, path, { title: 'Совпадение', type: 'shared' });
    const before = await snapshot(api.db);
    expect((await viewer.client.put(`${path}/${mine.id}`, { type: 'shared' })).json).toEqual(TITLE_TAKEN);
    expect(await snapshot(api.db)).toBe(before);
  });

  it('a body saved under a title that another visible template shares stays savable', async () => {
    const { owner, viewer, path } = await team();
    const mine = await create(viewer.client, path, { title: 'Двойник' });
    await create(owner.client, path, { title: 'Двойник', type: 'shared' });
    expect((await viewer.client.put(`${path}/${mine.id}`, { body: OTHER_RULES })).json.result).toEqual({ ...mine, body: OTHER_RULES });
  });

  it('a PUT of a blank or null title is «Поле не заполнено»', async () => {
    const { owner, path } = await alone();
    const filter = await create(owner.client, path, { title: 'Есть название' });
    const before = await snapshot(api.db);
    expect((await owner.client.put(`${path}/${filter.id}`, { title: '   ' })).json).toEqual(TITLE_REQUIRED);
    expect((await owner.client.put(`${path}/${filter.id}`, { title: null })).json).toEqual(TITLE_REQUIRED);
    expect(await snapshot(api.db)).toBe(before);
  });
});

describe('saved filters: who sees and changes what (§6)', () => {
  it('another user’s private filter is not listed, and is 404 to change or delete', async () => {
    const { owner, editor, path } = await team();
    const secret = await create(owner.client, path, { title: 'Только мой' });
    expect((await editor.client.get(path)).json.result).toEqual({ data: [], total: 0 });
    const before = await snapshot(api.db);
    expect((await editor.client.put(`${path}/${secret.id}`, { title: 'Чужой' })).json).toEqual(NOT_FOUND);
    expect((await editor.client.delete(`${path}/${secret.id}`)).json).toEqual(NOT_FOUND);
    expect(await snapshot(api.db)).toBe(before);
  });

  it('another user’s shared filter is listed and editable for a viewer, and the change is everyone’s', async () => {
    const { owner, viewer, path } = await team();
    const shared = await create(owner.client, path, { title: 'Общий шаблон', type: 'shared' });
    expect((await viewer.client.get(path)).json.result).toEqual({ data: [shared], total: 1 });
    const changed = await viewer.client.put(`${path}/${shared.id}`, { title: 'Поправил зритель', body: OTHER_RULES });
    expect(changed.json.result).toEqual({ ...shared, title: 'Поправил зритель', body: OTHER_RULES });
    expect((await owner.client.get(path)).json.result.data).toEqual([changed.json.result]);
  });

  it('another user’s shared filter deleted by a viewer is gone for all', async () => {
    const { owner, viewer, editor, path } = await team();
    const shared = await create(owner.client, path, { title: 'Удалят', type: 'shared' });
    expect((await viewer.client.delete(`${path}/${shared.id}`)).json).toEqual({ responseStatus: 200, result: {} });
    for (const user of [owner, viewer, editor]) expect((await user.client.get(path)).json.result).toEqual({ data: [], total: 0 });
  });

  it('a shared filter made private by another user becomes theirs: its author no longer sees it', async () => {
    const { owner, editor, path } = await team();
    const shared = await create(owner.client, path, { title: 'Заберу себе', type: 'shared' });
    const taken = await editor.client.put(`${path}/${shared.id}`, { type: 'private' });
    expect(taken.json.result).toEqual({ ...shared, type: 'private' });
    expect((await editor.client.get(path)).json.result.data).toEqual([taken.json.result]);
    expect((await owner.client.get(path)).json.result).toEqual({ data: [], total: 0 });
    expect((await owner.client.put(`${path}/${shared.id}`, { title: 'Верни' })).json).toEqual(NOT_FOUND);
  });

  it('a user who may read every project sees the shared filters, not the private ones', async () => {
    const { owner, path } = await alone();
    const shared = await create(owner.client, path, { title: 'Видно всем', type: 'shared' });
    await create(owner.client, path, { title: 'Не видно' });
    const analyst = await newUser(api, 3);
    expect((await analyst.client.get(path)).json.result).toEqual({ data: [shared], total: 1 });
  });

  it('a logged-in user without access to the project is 403 on every call, changing nothing', async () => {
    const { owner, path } = await alone();
    const shared = await create(owner.client, path, { title: 'Не для чужих', type: 'shared' });
    const stranger = await newUser(api);
    const before = await snapshot(api.db);
    expect((await stranger.client.get(path)).json).toEqual(FORBIDDEN);
    expect((await stranger.client.post(path, { title: 'Чужак', body: RULES })).json).toEqual(FORBIDDEN);
    expect((await stranger.client.put(`${path}/${shared.id}`, { title: 'Чужак' })).json).toEqual(FORBIDDEN);
    expect((await stranger.client.delete(`${path}/${shared.id}`)).json).toEqual(FORBIDDEN);
    expect(await snapshot(api.db)).toBe(before);
  });

  it('an anonymous caller is 401 on a project, changing nothing', async () => {
    const { owner, path } = await alone();
    const shared = await create(owner.client, path, { title: 'Аноним не увидит', type: 'shared' });
    const anonymous = new ApiClient(api.url);
    const before = await snapshot(api.db);
    expect((await anonymous.get(path)).json).toEqual(LOGIN_REQUIRED);
    expect((await anonymous.post(path, { title: 'Аноним', body: RULES })).json).toEqual(LOGIN_REQUIRED);
    expect((await anonymous.put(`${path}/${shared.id}`, { title: 'Аноним' })).json).toEqual(LOGIN_REQUIRED);
    expect((await anonymous.delete(`${path}/${shared.id}`)).json).toEqual(LOGIN_REQUIRED);
    expect(await snapshot(api.db)).toBe(before);
  });

  it('an unknown or deleted project is 404 «Счётчик не найден»', async () => {
    const { owner, projectId, path } = await alone();
    const notFound = { responseStatus: 404, errors: { message: 'Счётчик не найден' } };
    expect((await owner.client.get(filtersOf(2_147_483_647))).json).toEqual(notFound);
    expect((await owner.client.delete(`/api/v1.0/project/${projectId}`)).status).toBe(200);
    expect((await owner.client.get(path)).json).toEqual(notFound);
    expect((await owner.client.post(path, { title: 'В удалённом', body: RULES })).json).toEqual(notFound);
  });

  it('on the demo project an anonymous visitor gets no saved filters: 401 on every call, even with shared ones there', async () => {
    const admin = await newUser(api, 1);
    const path = filtersOf(DEMO_PROJECT_ID);
    const shared = await create(admin.client, path, { title: 'Демо: общий для аноним-теста', type: 'shared' });
    const anonymous = new ApiClient(api.url);
    const before = await snapshot(api.db);
    expect((await anonymous.get(path)).json).toEqual(LOGIN_REQUIRED);
    expect((await anonymous.post(path, { title: 'Аноним в демо', body: RULES })).json).toEqual(LOGIN_REQUIRED);
    expect((await anonymous.put(`${path}/${shared.id}`, { title: 'Аноним в демо' })).json).toEqual(LOGIN_REQUIRED);
    expect((await anonymous.delete(`${path}/${shared.id}`)).json).toEqual(LOGIN_REQUIRED);
    expect(await snapshot(api.db)).toBe(before);
  });

  it('on the demo project saved filters are off for a logged-in user who cannot edit it: 403, changing nothing', async () => {
    const admin = await newUser(api, 1);
    const path = filtersOf(DEMO_PROJECT_ID);
    const shared = await create(admin.client, path, { title: 'Демо: общий для 403', type: 'shared' });
    const visitor = await newUser(api);
    const before = await snapshot(api.db);
    expect((await visitor.client.get(path)).json).toEqual(FORBIDDEN);
    expect((await visitor.client.post(path, { title: 'Гость демо', body: RULES })).json).toEqual(FORBIDDEN);
    expect((await visitor.client.put(`${path}/${shared.id}`, { title: 'Гость демо' })).json).toEqual(FORBIDDEN);
    expect((await visitor.client.delete(`${path}/${shared.id}`)).json).toEqual(FORBIDDEN);
    expect(await snapshot(api.db)).toBe(before);
  });

  it('on the demo project an administrator (who may edit it) keeps saved filters', async () => {
    const admin = await newUser(api, 1);
    const path = filtersOf(DEMO_PROJECT_ID);
    const mine = await create(admin.client, path, { title: 'Демо: личный администратора' });
    expect((await admin.client.get(path)).json.result.data).toContainEqual(mine);
    expect((await admin.client.delete(`${path}/${mine.id}`)).status).toBe(200);
  });
});

describe('saved filters: hostile input is a 400 and changes nothing', () => {
  const rule = (r: unknown) => ({ title: 'Враждебный', body: { dimension_filters: [r] } });
  const field = (path: string, message: string) => ({ responseStatus: 400, errors: { message, fields: { [path]: [message] } } });
  const many = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);
  const CASES: [string, unknown, unknown][] = [
    ['an unknown dimension key', rule({ key: 'password_hash', op: '=', value: 'x' }),
      field('body.dimension_filters.0.key', 'key must be a dimension of the catalogue that the service collects')],
    ['an unknown operator', rule({ key: 'url', op: 'ilike', value: 'x' }),
      field('body.dimension_filters.0.op', 'op must be one of the following values: >, >=, <, <=, =, !=, include, exclude, like, multilike, multilikeand, nlike, nmultilike, range')],
    ['an SQL fragment as operator', rule({ key: 'url', op: "= '' OR 1=1 --", value: 'x' }),
      field('body.dimension_filters.0.op', 'op must be one of the following values: >, >=, <, <=, =, !=, include, exclude, like, multilike, multilikeand, nlike, nmultilike, range')],
    ['an unknown metric', { title: 'Враждебный', body: { metric_filters: [{ key: 'revenue', op: '>', value: 1 }] } },
      field('body.metric_filters.0.key', 'key must be a metric of the catalogue')],
    ['a metric operator of dimensions only', { title: 'Враждебный', body: { metric_filters: [{ key: 'visits', op: '>=', value: 1 }] } },
      field('body.metric_filters.0.op', 'op must be one of the following values: >, <, =')],
    ['a metric value that is a string', { title: 'Враждебный', body: { metric_filters: [{ key: 'visits', op: '>', value: '1' }] } },
      field('body.metric_filters.0.value', 'value must be a number conforming to the specified constraints')],
    ['a list operator with one value', rule({ key: 'url', op: 'include', value: 'x' }),
      field('body.dimension_filters.0.value', 'value of include must be a list of 1 to 100 strings or numbers of at most 1000 characters')],
    [`a list of ${FILTER_LIMITS.values + 1} values`, rule({ key: 'url', op: 'include', value: many(FILTER_LIMITS.values + 1) }),
      field('body.dimension_filters.0.value', 'value of include must be a list of 1 to 100 strings or numbers of at most 1000 characters')],
    [`a value of ${FILTER_LIMITS.valueLength + 1} characters`, rule({ key: 'url', op: '=', value: 'x'.repeat(FILTER_LIMITS.valueLength + 1) }),
      field('body.dimension_filters.0.value', 'value must be a string of at most 1000 characters or a number')],
    ['a nested list as value', rule({ key: 'url', op: 'include', value: [['a']] }),
      field('body.dimension_filters.0.value', 'value of include must be a list of 1 to 100 strings or numbers of at most 1000 characters')],
    ['a range of three', rule({ key: 'view_depth', op: 'range', value: [1, 2, 3] }), field('body.dimension_filters.0.value', 'value of range must be [from, to]')],
    ['a published time compared with a word', rule({ key: 'published_datetime', op: '=', value: 'завтра' }),
      field('body.dimension_filters.0.value', 'value of published_datetime must be a date and time written YYYY-MM-DD HH:MM:SS (UTC), from 1970-01-01 00:00:00 to 2106-02-07 06:28:15: "завтра" is not one')],
    ['a published time matched by a pattern', rule({ key: 'published_datetime', op: 'nmultilike', value: ['2026*'] }),
      field('body.dimension_filters.0.op', 'op nmultilike does not apply to published_datetime, a date and time: use =, !=, >, >=, <, <=, range, include, exclude')],
    ['a number beyond ±2^53 where numbers are compared', rule({ key: 'screen_width', op: '>', value: 1e308 }),
      field('body.dimension_filters.0.value', 'value of screen_width must be a number from -9007199254740991 to 9007199254740991: 1e+308 is not one')],
    ['a metric value beyond ±2^53', { title: 'Враждебный', body: { metric_filters: [{ key: 'visits', op: '>', value: -1e308 }] } },
      field('body.metric_filters.0.value', 'value must be a number from -9007199254740991 to 9007199254740991')],
    [`${FILTER_LIMITS.rules + 1} rules`, { title: 'Враждебный', body: { dimension_filters: many(FILTER_LIMITS.rules + 1).map((v) => ({ key: 'url', op: '=', value: v })) } },
      field('body.dimension_filters', 'dimension_filters must contain no more than 20 elements')],
    ['a field a rule does not have', rule({ key: 'url', op: '=', value: 'x', where: '1=1' }),
      field('body.dimension_filters.0.where', 'property where should not exist')],
    ['a rule that is no object', rule('url = x'), field('body.dimension_filters', 'each rule must be an object')],
    ['a rule that is a list', rule(['url', '=', 'x']), field('body.dimension_filters', 'each rule must be an object')],
    ['a rule that is null', rule(null), field('body.dimension_filters', 'each rule must be an object')],
    ['an extra that is a list', rule({ key: 'event_name', op: '=', value: 'x', extra: [{ eventClass: 'goal' }] }),
      field('body.dimension_filters', 'extra of a rule must be an object')],
    ['an extra with an unknown field', rule({ key: 'event_name', op: '=', value: 'x', extra: { sql: 'DROP' } }),
      field('body.dimension_filters.0.extra.sql', 'property sql should not exist')],
    ['dimension_filters that is an object', { title: 'Враждебный', body: { dimension_filters: { key: 'url', op: '=', value: 'x' } } },
      field('body.dimension_filters', 'dimension_filters must be an array')],
    ['dimension_filters null', { title: 'Враждебный', body: { dimension_filters: null, metric_filters: [{ key: 'visits', op: '>', value: 1 }] } },
      field('body.dimension_filters', 'dimension_filters must be an array')],
    ['a body without rules', { title: 'Враждебный', body: {} }, field('body', 'body must hold at least one rule in dimension_filters or metric_filters')],
    ['a body of empty lists', { title: 'Враждебный', body: { dimension_filters: [], metric_filters: [] } },
      field('body', 'body must hold at least one rule in dimension_filters or metric_filters')],
    ['a body that is a list', { title: 'Враждебный', body: [RULES] }, field('body', 'body must be an object')],
    ['no body', { title: 'Враждебный' }, field('body', 'body must be an object')],
    ['an unknown type', { title: 'Враждебный', type: 'public', body: RULES }, field('type', 'type must be one of the following values: private, shared')],
    ['a type null', { title: 'Враждебный', type: null, body: RULES }, field('type', 'type must be one of the following values: private, shared')],
    ['an author given by the caller', { title: 'Враждебный', body: RULES, author_id: 1 }, field('author_id', 'property author_id should not exist')],
    ['a body nested 40 levels deep', `{"title":"Враждебный","body":${'{"a":'.repeat(40)}1${'}'.repeat(41)}`,
      { responseStatus: 400, errors: { message: 'The request body is nested too deeply (at most 32 levels)' } }],
    ['a body that is no JSON object', '["title"]', { responseStatus: 400, errors: { message: 'The request body must be a JSON object' } }],
  ];

  // One owner for these: each case checks that nothing at all changed.
  let target: Awaited<ReturnType<typeof alone>>;
  beforeAll(async () => {
    target = await alone();
  });

  for (const [name, body, expected] of CASES) {
    it(`POST: ${name}`, async () => {
      const { owner, path } = target;
      const before = await snapshot(api.db);
      expect((await owner.client.post(path, body)).json).toEqual(expected);
      expect(await snapshot(api.db)).toBe(before);
    });
  }

  it('PUT: the same checks as POST (an unknown dimension key), the filter unchanged', async () => {
    const { owner, path } = await alone();
    const filter = await create(owner.client, path, { title: 'Цель' });
    const before = await snapshot(api.db);
    expect((await owner.client.put(`${path}/${filter.id}`, { body: { dimension_filters: [{ key: 'nope', op: '=', value: 1 }] } })).json).toEqual(
      field('body.dimension_filters.0.key', 'key must be a dimension of the catalogue that the service collects'),
    );
    expect(await snapshot(api.db)).toBe(before);
  });

  it('a request body over 64 KB is 413, and nothing is stored', async () => {
    const { owner, path } = await alone();
    const before = await snapshot(api.db);
    const huge = { title: 'Большой', body: { dimension_filters: many(70).map((v) => ({ key: 'url', op: '=', value: `${v}${'x'.repeat(990)}` })) } };
    expect((await owner.client.post(path, huge)).json).toEqual({ responseStatus: 413, errors: { message: 'Request body is too large' } });
    expect(await snapshot(api.db)).toBe(before);
  });

  it('SQL fragments in a title and in values are stored as data, and come back as sent', async () => {
    const { owner, path } = await alone();
    const body: SavedFilterBody = {
      dimension_filters: [
        { key: 'url', op: 'like', value: "*'; DROP TABLE saved_filters; --*" },
        { key: 'search_phrase', op: 'include', value: ["1' OR '1'='1", '$1', '{"a":1}', '\\x00'] },
      ],
    };
    const title = "Robert'); DROP TABLE projects;--";
    const filter = await create(owner.client, path, { title, body });
    expect(filter).toEqual({ id: filter.id, title, type: 'private', body, editable: true });
    expect((await owner.client.get(path)).json.result).toEqual({ data: [filter], total: 1 });
  });
});
