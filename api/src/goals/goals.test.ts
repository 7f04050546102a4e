import { AUTOGOAL_TEMPLATES, eventKeyOf, type Goal, type GoalBody } from '@stat/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../auth/project-access.js';
import { ROLE } from '@stat/schemas/accounts';
import type { ApiClient } from '../testing/client.js';
import { newUser, projectTeam, snapshot, userWithProject, type Team } from '../testing/fixtures.js';
import { useTestApi, type TestApi } from '../testing/harness.js';

// Needs: nothing but the build. Goals and autogoals (specification 002, §3 to §8) against the
// api running in this process on PGlite.

const PER_MINUTE = 6;
let api: TestApi;
useTestApi({ file: 'goals.test.ts', goalCreationsPerMinute: PER_MINUTE }, (started) => {
  api = started;
});

const SIGNUP: GoalBody = { dimension_filters: [{ key: 'event_name', op: '=', value: 'signup', extra: { eventClass: 'cv' } }] };
const CATALOG: GoalBody = {
  dimension_filters: [
    { key: 'event_type', op: '=', value: 'pageview' },
    { key: 'url', op: 'like', value: '*/catalog*' },
  ],
};
const FORBIDDEN = { responseStatus: 403, errors: { message: 'Доступ запрещен' } };
const NOT_FOUND = { responseStatus: 404, errors: { message: 'Целевое событие не найдено' } };
const fieldError = (path: string, message: string) => ({ responseStatus: 400, errors: { message, fields: { [path]: [message] } } });

/** An owner's project shared with a viewer (level 1) and an editor (level 0). */
const team = (): Promise<Team> => projectTeam(api);

async function create(client: ApiClient, input: Record<string, unknown>): Promise<Goal> {
  const answer = await client.post('/api/v1.0/goal', { body: SIGNUP, ...input });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json.result as Goal;
}

const list = async (client: ApiClient, projectId: number, query = ''): Promise<{ goals: Goal[]; totals: number }> => {
  const answer = await client.get(`/api/v1.0/user/goals?project_id=${projectId}${query}`);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json.result;
};
const titles = (l: { goals: Goal[] }) => l.goals.map((g) => g.title);

describe('goals: create, list, change, delete', () => {
  it('creates a personal goal and answers it whole', async () => {
    const owner = await userWithProject(api);
    const goal = await create(owner.client, { project_id: owner.projectId, title: '  Регистрация  ', description: 'Подписка на тариф', body: SIGNUP });
    expect(goal).toEqual({
      id: expect.any(Number),
      project_id: owner.projectId,
      title: 'Регистрация',
      description: 'Подписка на тариф',
      access: 'own',
      is_protected: false,
      is_td_sending: false,
      conditions: SIGNUP.dimension_filters,
      body: SIGNUP,
      conversions: [],
      email: owner.email,
      is_owner: true,
      can_delete: true,
      is_deleted: false,
      goal_template_id: null,
      yandex_id: null,
      yandex_goal_name: null,
      is_yandex_sending: false,
      update_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(await list(owner.client, owner.projectId)).toEqual({ goals: [goal], totals: 1 });
  });

  it('personal goals are seen by their creator only; public ones by everyone with access, behind the switch', async () => {
    const { owner, viewer, projectId } = await team();
    await create(owner.client, { project_id: projectId, title: 'Личная владельца' });
    await create(owner.client, { project_id: projectId, title: 'Общая владельца', access: 'common' });
    await create(viewer.client, { project_id: projectId, title: 'Личная зрителя' });
    expect(titles(await list(owner.client, projectId))).toEqual(['Общая владельца', 'Личная владельца']);
    expect(titles(await list(viewer.client, projectId))).toEqual(['Личная зрителя']);
    expect(titles(await list(viewer.client, projectId, '&show_common=true'))).toEqual(['Личная зрителя', 'Общая владельца']);
    expect(titles(await list(viewer.client, projectId, '&common_only=true'))).toEqual(['Общая владельца']);
  });

  it('searches by title (case ignored, % taken literally) and pages', async () => {
    const owner = await userWithProject(api);
    for (const title of ['Покупка', 'Корзина', 'Покупка 100%', 'Звонок']) await create(owner.client, { project_id: owner.projectId, title });
    expect(titles(await list(owner.client, owner.projectId, '&search=покуп'))).toEqual(['Покупка 100%', 'Покупка']);
    expect(titles(await list(owner.client, owner.projectId, '&search=%25'))).toEqual(['Покупка 100%']);
    expect(await list(owner.client, owner.projectId, '&limit=2&offset=1').then((l) => [titles(l), l.totals])).toEqual([['Покупка 100%', 'Корзина'], 4]);
  });

  it('sending to the ad service forces public and protected on', async () => {
    const owner = await userWithProject(api);
    const goal = await create(owner.client, { project_id: owner.projectId, title: 'Отправляемая', access: 'own', is_protected: false, is_td_sending: true });
    expect([goal.access, goal.is_protected, goal.is_td_sending]).toEqual(['common', true, true]);
  });

  it('PUT makes a goal public and changes its conditions; the others then see it', async () => {
    const { owner, viewer, projectId } = await team();
    const goal = await create(owner.client, { project_id: projectId, title: 'Каталог' });
    const answer = await owner.client.put(`/api/v1.0/goal/${goal.id}`, { access: 'common', body: CATALOG });
    expect(answer.json.result).toMatchObject({ id: goal.id, access: 'common', body: CATALOG, conditions: CATALOG.dimension_filters });
    expect(titles(await list(viewer.client, projectId, '&show_common=true'))).toEqual(['Каталог']);
  });

  it('a protected goal is not changed, only deleted; a deleted goal shows with show_deleted', async () => {
    const owner = await userWithProject(api);
    const goal = await create(owner.client, { project_id: owner.projectId, title: 'Защищённая', is_protected: true });
    const before = await snapshot(api.db);
    expect((await owner.client.put(`/api/v1.0/goal/${goal.id}`, { title: 'Другая' })).json).toEqual({
      responseStatus: 400,
      errors: { message: 'Защищённое целевое событие нельзя изменить, только удалить' },
    });
    expect(await snapshot(api.db)).toBe(before);
    expect((await owner.client.delete(`/api/v1.0/goal/${goal.id}`)).json).toEqual({ responseStatus: 200, result: {} });
    expect(await list(owner.client, owner.projectId)).toEqual({ goals: [], totals: 0 });
    const deleted = await list(owner.client, owner.projectId, '&show_deleted=true');
    expect(deleted.goals.map((g) => [g.title, g.is_deleted])).toEqual([['Защищённая', true]]);
    expect((await owner.client.delete(`/api/v1.0/goal/${goal.id}`)).json).toEqual(NOT_FOUND);
  });

  it('a protected personal goal may be made public, and nothing else of it changed', async () => {
    const { owner, viewer, projectId } = await team();
    const goal = await create(owner.client, { project_id: projectId, title: 'Защищённая личная', is_protected: true });
    expect((await owner.client.put(`/api/v1.0/goal/${goal.id}`, { access: 'common', title: 'Другое название' })).json).toEqual({
      responseStatus: 400,
      errors: { message: 'Защищённое целевое событие нельзя изменить, только удалить' },
    });
    const shared = (await owner.client.put(`/api/v1.0/goal/${goal.id}`, { access: 'common' })).json.result as Goal;
    expect([shared.title, shared.access, shared.is_protected, shared.body]).toEqual(['Защищённая личная', 'common', true, SIGNUP]);
    expect(titles(await list(viewer.client, projectId, '&common_only=true'))).toEqual(['Защищённая личная']);
    // Public now, it is protected again against every change.
    expect((await owner.client.put(`/api/v1.0/goal/${goal.id}`, { access: 'common' })).status).toBe(400);
  });

  it('a goal whose creator’s account is gone is deleted by those who may edit the project, not by a viewer', async () => {
    const { owner, viewer, editor, projectId } = await team();
    const goal = await create(viewer.client, { project_id: projectId, title: 'Ушедшего автора', access: 'common' });
    await api.db.query('UPDATE goals SET owner_id = NULL WHERE id = $1', [goal.id]);
    const seen = (await list(editor.client, projectId, '&common_only=true')).goals;
    expect(seen.map((g) => [g.title, g.email, g.is_owner, g.can_delete])).toEqual([['Ушедшего автора', null, false, true]]);
    expect((await list(viewer.client, projectId, '&common_only=true')).goals.map((g) => g.can_delete)).toEqual([false]);
    expect((await viewer.client.delete(`/api/v1.0/goal/${goal.id}`)).json).toEqual({ responseStatus: 403, errors: { message: 'Удалить целевое событие может только его автор' } });
    expect((await editor.client.delete(`/api/v1.0/goal/${goal.id}`)).status).toBe(200);
    expect(titles(await list(owner.client, projectId, '&common_only=true'))).toEqual([]);
  });

  it('only the creator deletes a goal, even a public one that an editor may change', async () => {
    const { owner, editor, viewer, projectId } = await team();
    const goal = await create(owner.client, { project_id: projectId, title: 'Общая', access: 'common' });
    expect((await editor.client.delete(`/api/v1.0/goal/${goal.id}`)).json).toEqual({ responseStatus: 403, errors: { message: 'Удалить целевое событие может только его автор' } });
    expect((await editor.client.put(`/api/v1.0/goal/${goal.id}`, { title: 'Общая, правка редактора' })).json.result.title).toBe('Общая, правка редактора');
    expect((await viewer.client.put(`/api/v1.0/goal/${goal.id}`, { title: 'Правка зрителя' })).json).toEqual(FORBIDDEN);
  });

  it('names the conversions built on a goal, as numerator or denominator, that the reader sees', async () => {
    const { owner, viewer, projectId } = await team();
    const buy = await create(owner.client, { project_id: projectId, title: 'Покупка', access: 'common' });
    const visit = await create(owner.client, { project_id: projectId, title: 'Визит в каталог', access: 'common', body: CATALOG });
    const conversion = async (title: string, extra: Record<string, unknown>) => {
      const answer = await owner.client.post('/api/v1.0/conversion', { project_id: projectId, title, numerator_goal_id: buy.id, ...extra });
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      return answer.json.result.id as number;
    };
    const personal = await conversion('Покупки из визитов', { denominator_goal_id: visit.id });
    const overall = await conversion('Покупки', {});
    const related = async (client: ApiClient) =>
      Object.fromEntries((await list(client, projectId, '&show_common=true')).goals.map((g) => [g.title, g.conversions.map((c) => c.title)]));
    expect(await related(owner.client)).toEqual({ 'Визит в каталог': ['Покупки из визитов'], Покупка: ['Покупки из визитов', 'Покупки'] });
    // The personal conversion is the owner's alone until it is made public.
    expect(await related(viewer.client)).toEqual({ 'Визит в каталог': [], Покупка: [] });
    expect((await owner.client.put(`/api/v1.0/conversion/${overall}`, { access: 'common' })).status).toBe(200);
    expect(await related(viewer.client)).toEqual({ 'Визит в каталог': [], Покупка: ['Покупки'] });
    const byIds = await viewer.client.post('/api/v1.0/goals', { project_id: projectId, ids: [buy.id] });
    expect(byIds.json.result.goals[0].conversions).toEqual([{ id: overall, title: 'Покупки' }]);
    const renamed = await owner.client.put(`/api/v1.0/goal/${visit.id}`, { title: 'Визит в каталог товаров' });
    expect(renamed.json.result.conversions).toEqual([{ id: personal, title: 'Покупки из визитов' }]);
    expect(personal).toBeLessThan(overall);
  });

  it('another user’s personal goal does not exist for them', async () => {
    const { owner, viewer, projectId } = await team();
    const goal = await create(owner.client, { project_id: projectId, title: 'Секрет' });
    expect((await viewer.client.put(`/api/v1.0/goal/${goal.id}`, { title: 'Взлом' })).json).toEqual(NOT_FOUND);
    expect((await viewer.client.delete(`/api/v1.0/goal/${goal.id}`)).json).toEqual(NOT_FOUND);
    expect((await viewer.client.post('/api/v1.0/goals', { project_id: projectId, ids: [goal.id] })).json.result).toEqual({ goals: [], totals: 0 });
    expect((await owner.client.post('/api/v1.0/goals', { project_id: projectId, ids: [goal.id] })).json.result.goals.map((g: Goal) => g.id)).toEqual([goal.id]);
  });
});

describe('autogoals', () => {
  it('lists the templates, 30 a page, searchable', async () => {
    const owner = await userWithProject(api);
    const all = (await owner.client.get('/api/v1.0/autogoals')).json.result;
    expect(all.totals).toBe(AUTOGOAL_TEMPLATES.length);
    expect(all.autogoals.map((t: { title: string }) => t.title)).toEqual(AUTOGOAL_TEMPLATES.map((t) => t.title));
    expect((await owner.client.get('/api/v1.0/autogoals?search=ФОРМ')).json.result.autogoals.map((t: { id: number }) => t.id)).toEqual([3]);
    expect((await owner.client.get('/api/v1.0/autogoals?limit=2&offset=5')).json.result.autogoals.map((t: { id: number }) => t.id)).toEqual([6, 7]);
  });

  it('a goal made from an autogoal is public, protected and sent, with the template’s conditions; the template is then taken', async () => {
    const owner = await userWithProject(api);
    const goal = await create(owner.client, { project_id: owner.projectId, title: 'Скачивание файла', goal_template_id: 2, body: undefined });
    const template = AUTOGOAL_TEMPLATES[1]!;
    expect(goal).toMatchObject({ access: 'common', is_protected: true, is_td_sending: true, goal_template_id: 2, body: template.body });
    const listed = (await owner.client.get(`/api/v1.0/autogoals?project_id=${owner.projectId}`)).json.result.autogoals;
    expect(listed.map((t: { id: number; goal_id: number | null }) => [t.id, t.goal_id])).toEqual(AUTOGOAL_TEMPLATES.map((t) => [t.id, t.id === 2 ? goal.id : null]));
    expect((await owner.client.post('/api/v1.0/goal', { project_id: owner.projectId, title: 'Ещё раз', goal_template_id: 2 })).json).toEqual({
      responseStatus: 400,
      errors: { message: 'Это автоцелевое событие уже создано' },
    });
    // Once deleted, it can be chosen again.
    expect((await owner.client.delete(`/api/v1.0/goal/${goal.id}`)).status).toBe(200);
    expect((await owner.client.post('/api/v1.0/goal', { project_id: owner.projectId, title: 'Снова', goal_template_id: 2 })).status).toBe(200);
  });

  it('an unknown template is a 400', async () => {
    const owner = await userWithProject(api);
    expect((await owner.client.post('/api/v1.0/goal', { project_id: owner.projectId, title: 'Нет такой', goal_template_id: 999 })).json).toEqual({
      responseStatus: 400,
      errors: { message: 'Нет такой автоцели' },
    });
  });
});

const DATETIME_RULE = 'a date and time written YYYY-MM-DD HH:MM:SS (UTC), from 1970-01-01 00:00:00 to 2106-02-07 06:28:15';

describe('goals: what is refused', () => {
  it('a view-only user’s public goal on the published time compared with a word: 400, nothing stored, the goals still answer', async () => {
    const { owner, viewer, projectId } = await team();
    const before = await list(owner.client, projectId);
    const answer = await viewer.client.post('/api/v1.0/goal', {
      project_id: projectId,
      title: 'Завтрашние статьи',
      access: 'common',
      body: { dimension_filters: [{ key: 'published_datetime', op: '=', value: 'завтра' }] },
    });
    expect(answer.json).toEqual(fieldError('body.dimension_filters.0.value', `value of published_datetime must be ${DATETIME_RULE}: "завтра" is not one`));
    expect(await list(owner.client, projectId)).toEqual(before);
    expect(await list(viewer.client, projectId)).toEqual(before);
  });


  const CASES: [string, Record<string, unknown>, unknown][] = [
    ['a title of two characters', { title: ' ab ' }, fieldError('title', 'Минимум 3 символа')],
    ['a title of spaces', { title: '   ' }, fieldError('title', 'Поле не заполнено')],
    ['a title of 256 characters', { title: 'я'.repeat(256) }, fieldError('title', 'Превышен лимит символов')],
    ['no conditions', { body: { dimension_filters: [] } }, fieldError('body.dimension_filters', 'Добавьте хотя бы 1 условие')],
    ['no body', { body: undefined }, fieldError('body', 'body must be an object')],
    ['a condition without a value', { body: { dimension_filters: [{ key: 'url', op: 'like', value: ' ' }] } }, fieldError('body.dimension_filters', 'Не все поля в условии заполнены')],
    ['a condition without an operator', { body: { dimension_filters: [{ key: 'url', value: 'x' }] } }, fieldError('body.dimension_filters', 'Не все поля в условии заполнены')],
    ['a condition on the visits', { body: { dimension_filters: [{ key: 'entry_page', op: '=', value: '/' }] } }, fieldError('body.dimension_filters', 'Условие цели должно относиться к событиям')],
    ['an unknown key', { body: { dimension_filters: [{ key: 'password_hash', op: '=', value: 'x' }] } },
      fieldError('body.dimension_filters.0.key', 'key must be a dimension of the catalogue that the service collects')],
    ['an SQL fragment as operator', { body: { dimension_filters: [{ key: 'url', op: "= '' OR 1=1 --", value: 'x' }] } },
      fieldError('body.dimension_filters.0.op', 'op must be one of the following values: >, >=, <, <=, =, !=, include, exclude, like, multilike, multilikeand, nlike, nmultilike, range')],
    ['a pattern on the published time', { body: { dimension_filters: [{ key: 'published_datetime', op: 'like', value: '*' }] } },
      fieldError('body.dimension_filters.0.op', 'op like does not apply to published_datetime, a date and time: use =, !=, >, >=, <, <=, range, include, exclude')],
    ['a list of published times holding a word', { body: { dimension_filters: [{ key: 'published_datetime', op: 'include', value: ['2026-11-01', 'завтра'] }] } },
      fieldError('body.dimension_filters.0.value', `value of published_datetime must be ${DATETIME_RULE}: "завтра" is not one`)],
    ['an unknown access', { access: 'everyone' }, fieldError('access', 'access must be one of the following values: own, common')],
    ['an owner given by the caller', { owner_id: 1 }, fieldError('owner_id', 'property owner_id should not exist')],
    ['a description of 501 characters', { description: 'я'.repeat(501) }, fieldError('description', 'Превышен лимит символов')],
  ];
  let owner: Awaited<ReturnType<typeof userWithProject>>;
  beforeAll(async () => {
    owner = await userWithProject(api);
  });
  for (const [name, input, expected] of CASES) {
    it(`POST: ${name} is a 400, nothing stored`, async () => {
      const before = await snapshot(api.db);
      expect((await owner.client.post('/api/v1.0/goal', { project_id: owner.projectId, title: 'Цель', body: SIGNUP, ...input })).json).toEqual(expected);
      expect(await snapshot(api.db)).toBe(before);
    });
  }

  it('bad list queries are 400s that name the field', async () => {
    expect((await owner.client.get('/api/v1.0/user/goals')).status).toBe(400);
    expect((await owner.client.get(`/api/v1.0/user/goals?project_id=${owner.projectId}&limit=1000`)).json.errors.message).toBe('limit must not be greater than 100');
    expect((await owner.client.get(`/api/v1.0/user/goals?project_id=${owner.projectId}&show_common=maybe`)).json.errors.message).toBe('show_common must be a boolean value');
    expect((await owner.client.get('/api/v1.0/user/goals?project_id=abc')).status).toBe(400);
    expect((await owner.client.put('/api/v1.0/goal/0', { title: 'Цель' })).status).toBe(400);
    expect((await owner.client.put('/api/v1.0/goal/1', {})).status).toBe(400);
  });

  it('a project the caller has no access to is 403; one that does not exist is 404', async () => {
    const stranger = await newUser(api);
    expect((await stranger.client.get(`/api/v1.0/user/goals?project_id=${owner.projectId}`)).json).toEqual(FORBIDDEN);
    expect((await stranger.client.post('/api/v1.0/goal', { project_id: owner.projectId, title: 'Чужая', body: SIGNUP })).json).toEqual(FORBIDDEN);
    expect((await stranger.client.get('/api/v1.0/user/goals?project_id=2000000000')).json).toEqual({ responseStatus: 404, errors: { message: 'Счётчик не найден' } });
  });

  it(`the ${PER_MINUTE + 1}th goal of a user in a minute is «Rate limit exceeded», and is not stored`, async () => {
    const user = await userWithProject(api);
    for (let i = 1; i <= PER_MINUTE; i++) await create(user.client, { project_id: user.projectId, title: `Цель ${i}` });
    const before = await snapshot(api.db);
    expect((await user.client.post('/api/v1.0/goal', { project_id: user.projectId, title: 'Лишняя', body: SIGNUP })).json).toEqual({
      responseStatus: 400,
      errors: { message: 'Rate limit exceeded' },
    });
    expect(await snapshot(api.db)).toBe(before);
    // Another user is not held back by it.
    const other = await userWithProject(api);
    await create(other.client, { project_id: other.projectId, title: 'Своя' });
  });
});

describe('goals of the demo project', () => {
  it('are read by anyone, even without a login; created, changed and deleted by an administrator only', async () => {
    const admin = await newUser(api, ROLE.ADMIN);
    const user = await newUser(api);
    const goal = await create(admin.client, { project_id: DEMO_PROJECT_ID, title: 'Демо-цель', access: 'common' });
    expect((await user.client.post('/api/v1.0/goal', { project_id: DEMO_PROJECT_ID, title: 'Моя демо', body: SIGNUP })).json).toEqual(FORBIDDEN);
    expect((await user.client.put(`/api/v1.0/goal/${goal.id}`, { title: 'Правка' })).json).toEqual(FORBIDDEN);
    expect((await user.client.delete(`/api/v1.0/goal/${goal.id}`)).json).toEqual(FORBIDDEN);
    const anonymous = (await user.client.get(`/api/v1.0/user/goals?project_id=${DEMO_PROJECT_ID}&common_only=true`)).json.result;
    expect(titles(anonymous)).toContain('Демо-цель');
    const { ApiClient } = await import('../testing/client.js');
    const nobody = new ApiClient(api.url);
    expect((await nobody.get(`/api/v1.0/user/goals?project_id=${DEMO_PROJECT_ID}&show_common=true`)).status).toBe(200);
    expect((await nobody.post('/api/v1.0/goal', { project_id: DEMO_PROJECT_ID, title: 'Аноним', body: SIGNUP })).status).toBe(401);
    expect((await admin.client.delete(`/api/v1.0/goal/${goal.id}`)).status).toBe(200);
  });

  it('its seeded goals have no creator: a user may not delete them, an administrator may (the demo project is theirs to manage)', async () => {
    const admin = await newUser(api, ROLE.ADMIN);
    const user = await newUser(api);
    const seeded = (await list(admin.client, DEMO_PROJECT_ID, '&common_only=true&search=' + encodeURIComponent('Поделиться'))).goals;
    expect(seeded.map((g) => [g.title, g.email, g.is_owner, g.can_delete])).toEqual([['Поделиться', null, false, true]]);
    expect((await list(user.client, DEMO_PROJECT_ID, '&common_only=true&search=' + encodeURIComponent('Поделиться'))).goals.map((g) => g.can_delete)).toEqual([false]);
    expect((await user.client.delete(`/api/v1.0/goal/${seeded[0]!.id}`)).json).toEqual(FORBIDDEN);
    expect((await admin.client.delete(`/api/v1.0/goal/${seeded[0]!.id}`)).json).toEqual({ responseStatus: 200, result: {} });
    expect(titles(await list(user.client, DEMO_PROJECT_ID, '&common_only=true'))).not.toContain('Поделиться');
  });
});

describe('the goals’ counts over a period', () => {
  const DAY = '2025-03-10';
  const NEXT = '2025-03-11';
  interface Hit { visit: number; visitor: string; day?: string; type: string; path: string; eventClass?: string; name?: string }
  /**
   * Visit 1 (x): views /cart, clicks a block, reads to the end and buys there.
   * Visit 2 (y): views /cart and /cart?step=2, buys. Visit 3 (x): views the home page.
   * Visit 4 (z, the next day): views /cart.
   */
  const HITS: Hit[] = [
    { visit: 1, visitor: 'x', type: 'pageview', path: '/cart' },
    { visit: 1, visitor: 'x', type: 'click', path: '/cart', name: 'banner' },
    { visit: 1, visitor: 'x', type: 'event', path: '/cart', eventClass: 'base', name: 'scroll' },
    { visit: 1, visitor: 'x', type: 'event', path: '/cart', eventClass: 'cv', name: 'buy' },
    { visit: 2, visitor: 'y', type: 'pageview', path: '/cart' },
    { visit: 2, visitor: 'y', type: 'pageview', path: '/cart?step=2' },
    { visit: 2, visitor: 'y', type: 'event', path: '/cart?step=2', eventClass: 'cv', name: 'buy' },
    { visit: 3, visitor: 'x', type: 'pageview', path: '/' },
    { visit: 4, visitor: 'z', day: NEXT, type: 'pageview', path: '/cart' },
  ];
  const BUY: GoalBody = { dimension_filters: [{ key: 'event_name', op: '=', value: 'buy', extra: { eventClass: 'cv' } }] };
  const CART: GoalBody = { dimension_filters: [{ key: 'url', op: 'like', value: '*/cart*' }] };

  async function store(projectId: number): Promise<void> {
    await api.clickhouse.insert({
      table: 'events',
      format: 'JSONEachRow',
      values: HITS.map((h, i) => {
        const day = h.day ?? DAY;
        const url = `https://shop.example${h.path}`;
        return {
          event_key: eventKeyOf(crypto.randomUUID()),
          project_id: projectId,
          event_type: h.type,
          event_class: h.eventClass ?? 'base',
          event_name: h.name ?? h.type,
          ts: `${day} 10:00:${String(i).padStart(2, '0')}`,
          event_date: day,
          visitor_id: h.visitor,
          session_id: projectId * 10 + h.visit,
          session_start: `${day} 10:00:00`,
          event_number: i + 1,
          url,
          url_no_args: url.split('?')[0],
        };
      }),
    });
  }
  const counts = (client: ApiClient, projectId: number, body: Record<string, unknown>) => client.post(`/api/report/v1.0/eventbase/${projectId}/goals`, body);

  it('counts each goal’s events, visits and visitors, counted by hand, in the order asked; a page address alone counts its views', async () => {
    const { owner, viewer, projectId } = await team();
    await store(projectId);
    const buy = await create(owner.client, { project_id: projectId, title: 'Покупка', body: BUY });
    const cart = await create(owner.client, { project_id: projectId, title: 'Корзина', body: CART, access: 'common' });
    expect((await counts(owner.client, projectId, { goal_ids: [buy.id, cart.id], date_start: DAY, date_end: DAY })).json).toEqual({
      responseStatus: 200,
      result: {
        date_start: DAY,
        date_end: DAY,
        goals: [
          { goal_id: buy.id, reaches: 2, visits: 2, visitors: 2 },
          // The three views of /cart (visits 1 and 2); not the click, the read or the purchase made there.
          { goal_id: cart.id, reaches: 3, visits: 2, visitors: 2 },
        ],
      },
    });
    expect((await counts(viewer.client, projectId, { goal_ids: [cart.id], date_start: DAY, date_end: NEXT })).json.result.goals).toEqual([
      { goal_id: cart.id, reaches: 4, visits: 3, visitors: 3 },
    ]);
  });

  it('refuses a goal the caller does not see, a stranger, and a bad period', async () => {
    const { owner, viewer, projectId } = await team();
    const other = await userWithProject(api);
    const mine = await create(owner.client, { project_id: projectId, title: 'Личная владельца' });
    const foreign = await create(other.client, { project_id: other.projectId, title: 'Чужого счётчика', access: 'common' });
    const period = { date_start: DAY, date_end: DAY };
    expect((await counts(viewer.client, projectId, { goal_ids: [mine.id], ...period })).json).toEqual(NOT_FOUND);
    expect((await counts(owner.client, projectId, { goal_ids: [foreign.id], ...period })).json).toEqual(NOT_FOUND);
    expect((await counts(other.client, projectId, { goal_ids: [mine.id], ...period })).json).toEqual(FORBIDDEN);
    expect((await counts(owner.client, projectId, { goal_ids: [], ...period })).status).toBe(400);
    expect((await counts(owner.client, projectId, { goal_ids: [mine.id, mine.id], ...period })).status).toBe(400);
    expect((await counts(owner.client, projectId, { goal_ids: [mine.id], date_start: NEXT, date_end: DAY })).json).toEqual({
      responseStatus: 400,
      errors: { message: 'date_end must not be before date_start' },
    });
    expect((await counts(owner.client, projectId, { goal_ids: [mine.id], date_start: '2999-01-01', date_end: '2999-01-02' })).status).toBe(400);
  });
});
