import { eventKeyOf, moscowDate, type Funnel, type GoalBody } from '@stat/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../auth/project-access.js';
import { ROLE } from '@stat/schemas/accounts';
import type { ApiClient } from '../testing/client.js';
import { newUser, snapshot, userWithProject } from '../testing/fixtures.js';
import { useTestApi, type TestApi } from '../testing/harness.js';

// Needs: nothing but the build. Funnels (specification 002, §3 to §7) against the api running in
// this process on PGlite and chDB.

let api: TestApi;
useTestApi({ file: 'funnels.test.ts', goalCreationsPerMinute: 1000 }, (started) => {
  api = started;
});

const page = (path: string): GoalBody => ({ dimension_filters: [{ key: 'event_type', op: '=', value: 'pageview' }, { key: 'url', op: 'like', value: `*${path}` }] });
const FORBIDDEN = { responseStatus: 403, errors: { message: 'Доступ запрещен' } };
const fieldError = (path: string, message: string) => ({ responseStatus: 400, errors: { message, fields: { [path]: [message] } } });

type User = Awaited<ReturnType<typeof userWithProject>>;

async function goal(client: ApiClient, projectId: number, title: string, body: GoalBody, access = 'own'): Promise<number> {
  const answer = await client.post('/api/v1.0/goal', { project_id: projectId, title, body, access });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json.result.id as number;
}

async function create(owner: User, body: unknown): Promise<Funnel> {
  const answer = await owner.client.post(`/api/v1.0/${owner.projectId}/funnel`, body);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json.result as Funnel;
}

describe('funnels: create, list, change, delete', () => {
  it('creates a funnel of two steps, numbered in order; the personal goals in it become public', async () => {
    const owner = await userWithProject(api);
    const catalog = await goal(owner.client, owner.projectId, 'Каталог', page('/catalog'));
    const cart = await goal(owner.client, owner.projectId, 'Корзина', page('/cart'));
    const funnel = await create(owner, { title: ' Покупка ', steps: [{ step_title: 'Каталог', goals: [catalog] }, { step_title: 'Корзина', goals: [cart, catalog] }] });
    expect(funnel).toEqual({
      id: expect.any(Number),
      title: 'Покупка',
      steps: [
        { step_number: 1, step_title: 'Каталог', goals: [{ goal_id: catalog, goal_title: 'Каталог' }] },
        { step_number: 2, step_title: 'Корзина', goals: [{ goal_id: cart, goal_title: 'Корзина' }, { goal_id: catalog, goal_title: 'Каталог' }] },
      ],
    });
    const goals = (await owner.client.get(`/api/v1.0/user/goals?project_id=${owner.projectId}`)).json.result.goals as { id: number; access: string }[];
    expect(goals.map((g) => [g.id, g.access])).toEqual([
      [cart, 'common'],
      [catalog, 'common'],
    ]);
    expect((await owner.client.get(`/api/v1.0/${owner.projectId}/funnels`)).json.result).toEqual({ funnels: [funnel], totals: 1 });
    expect((await owner.client.get(`/api/v1.0/${owner.projectId}/funnel/${funnel.id}`)).json.result).toEqual(funnel);
  });

  it('a goal in a funnel cannot be made personal again; an editor cannot make another’s goal personal', async () => {
    const owner = await userWithProject(api);
    const editor = await newUser(api);
    await owner.client.patch(`/api/v1.0/project/${owner.projectId}/access`, { data: { users: [{ email: editor.email, access_level: 0 }] } });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((p) => goal(owner.client, owner.projectId, `Страница ${p}`, page(`/${p}`), 'common')));
    await create(owner, { title: 'Путь', steps: [{ step_title: 'A', goals: [a] }, { step_title: 'B', goals: [b] }] });
    expect((await owner.client.put(`/api/v1.0/goal/${a}`, { access: 'own' })).json).toEqual({
      responseStatus: 400,
      errors: { message: 'Целевое событие используется в воронке: воронки публичны, и оно остаётся публичным' },
    });
    expect((await editor.client.put(`/api/v1.0/goal/${c}`, { access: 'own' })).json).toEqual({ responseStatus: 403, errors: { message: 'Сделать целевое событие личным может только его автор' } });
    expect((await owner.client.put(`/api/v1.0/goal/${c}`, { access: 'own' })).json.result.access).toBe('own');
  });

  it('PUT replaces the title and the steps, renumbered; DELETE removes it', async () => {
    const owner = await userWithProject(api);
    const ids = await Promise.all(['a', 'b', 'c'].map((p) => goal(owner.client, owner.projectId, `Страница ${p}`, page(`/${p}`))));
    const funnel = await create(owner, { title: 'Путь', steps: ids.slice(0, 2).map((id, i) => ({ step_title: `Шаг ${i + 1}`, goals: [id] })) });
    const changed = await owner.client.put(`/api/v1.0/${owner.projectId}/funnel/${funnel.id}`, {
      title: 'Новый путь',
      steps: [...ids].reverse().map((id, i) => ({ step_title: `Шаг ${String.fromCharCode(1072 + i)}`, goals: [id] })),
    });
    expect(changed.json.result.steps.map((s: { step_number: number; step_title: string }) => [s.step_number, s.step_title])).toEqual([
      [1, 'Шаг а'],
      [2, 'Шаг б'],
      [3, 'Шаг в'],
    ]);
    expect((await owner.client.delete(`/api/v1.0/${owner.projectId}/funnel/${funnel.id}`)).json).toEqual({ responseStatus: 200, result: {} });
    expect((await owner.client.get(`/api/v1.0/${owner.projectId}/funnel/${funnel.id}`)).json).toEqual({ responseStatus: 404, errors: { message: 'Воронка не найдена' } });
  });

  it('takes a funnel read and written back unchanged (GET → PUT, the steps as GET gives them) and changes nothing', async () => {
    const owner = await userWithProject(api);
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((p) => goal(owner.client, owner.projectId, `Страница ${p}`, page(`/${p}`))));
    const funnel = await create(owner, { title: 'Туда и обратно', steps: [{ step_title: 'Первый', goals: [a, b] }, { step_title: 'Второй', goals: [c] }] });
    // The funnel as stored, but the time of its last save: its title, author, steps and their goals.
    const stored = async () => [
      await api.db.query('SELECT id, project_id, author_id, title FROM funnels WHERE id = $1', [funnel.id]),
      await api.db.query('SELECT * FROM funnel_steps WHERE funnel_id = $1 ORDER BY step_number', [funnel.id]),
    ];
    const read = await owner.client.get(`/api/v1.0/${owner.projectId}/funnel/${funnel.id}`);
    const before = await stored();
    const written = await owner.client.put(`/api/v1.0/${owner.projectId}/funnel/${funnel.id}`, read.json.result);
    expect(written.json).toEqual(read.json);
    expect(await stored()).toEqual(before);
    expect((await owner.client.get(`/api/v1.0/${owner.projectId}/funnel/${funnel.id}`)).json).toEqual(read.json);
  });

  it('a step sent as read ignores its step_number and its goals’ titles: numbered by order, titled by the goals', async () => {
    const owner = await userWithProject(api);
    const [a, b] = await Promise.all(['a', 'b'].map((p) => goal(owner.client, owner.projectId, `Страница ${p}`, page(`/${p}`))));
    const funnel = await create(owner, {
      title: 'Как прочитана',
      steps: [
        { step_number: 2, step_title: 'Второй стал первым', goals: [{ goal_id: b, goal_title: 'Не то название' }] },
        { step_number: 1, step_title: 'Первый стал вторым', goals: [{ goal_id: a }, b] },
      ],
    });
    expect(funnel).toEqual({
      id: expect.any(Number),
      title: 'Как прочитана',
      steps: [
        { step_number: 1, step_title: 'Второй стал первым', goals: [{ goal_id: b, goal_title: 'Страница b' }] },
        { step_number: 2, step_title: 'Первый стал вторым', goals: [{ goal_id: a, goal_title: 'Страница a' }, { goal_id: b, goal_title: 'Страница b' }] },
      ],
    });
  });

  it('a PUT whose body names another funnel’s id than its path is 400, and the funnel stays', async () => {
    const owner = await userWithProject(api);
    const ids = await Promise.all(['a', 'b'].map((p) => goal(owner.client, owner.projectId, `Страница ${p}`, page(`/${p}`))));
    const funnel = await create(owner, { title: 'Своя', steps: ids.map((id, i) => ({ step_title: `Шаг ${i + 1}`, goals: [id] })) });
    const answer = await owner.client.put(`/api/v1.0/${owner.projectId}/funnel/${funnel.id}`, { ...funnel, id: funnel.id + 1, title: 'Чужая' });
    expect(answer.json).toEqual({ responseStatus: 400, errors: { message: `id in the body (${funnel.id + 1}) is not the one in the path (${funnel.id})` } });
    expect((await owner.client.get(`/api/v1.0/${owner.projectId}/funnel/${funnel.id}`)).json.result).toEqual(funnel);
  });

  it('a viewer sees the funnel and may not change or delete another’s; an editor may', async () => {
    const owner = await userWithProject(api);
    const viewer = await newUser(api);
    const editor = await newUser(api);
    await owner.client.patch(`/api/v1.0/project/${owner.projectId}/access`, { data: { users: [{ email: viewer.email, access_level: 1 }, { email: editor.email, access_level: 0 }] } });
    const ids = await Promise.all(['x', 'y'].map((p) => goal(owner.client, owner.projectId, `Страница ${p}`, page(`/${p}`))));
    const body = { title: 'Общая', steps: ids.map((id, i) => ({ step_title: `Шаг ${i + 1}`, goals: [id] })) };
    const funnel = await create(owner, body);
    expect((await viewer.client.get(`/api/v1.0/${owner.projectId}/funnels`)).json.result.totals).toBe(1);
    expect((await viewer.client.put(`/api/v1.0/${owner.projectId}/funnel/${funnel.id}`, body)).json).toEqual(FORBIDDEN);
    expect((await viewer.client.delete(`/api/v1.0/${owner.projectId}/funnel/${funnel.id}`)).json).toEqual(FORBIDDEN);
    expect((await editor.client.delete(`/api/v1.0/${owner.projectId}/funnel/${funnel.id}`)).status).toBe(200);
  });
});

describe('funnels: what is refused', () => {
  let owner: User;
  let ids: number[];
  beforeAll(async () => {
    owner = await userWithProject(api);
    ids = await Promise.all(Array.from({ length: 12 }, (_, i) => goal(owner.client, owner.projectId, `Шаг номер ${i + 1}`, page(`/s${i + 1}`))));
  });
  const steps = (n: number) => Array.from({ length: n }, (_, i) => ({ step_title: `Шаг ${i + 1}`, goals: [ids[i]] }));

  const CASES: [string, () => unknown, unknown][] = [
    ['one step', () => ({ title: 'Воронка', steps: steps(1) }), fieldError('steps', 'Добавьте не менее 2 шагов')],
    ['twelve steps', () => ({ title: 'Воронка', steps: steps(12) }), fieldError('steps', 'Не более 11 шагов')],
    ['no title', () => ({ title: '  ', steps: steps(2) }), fieldError('title', 'Заполните поле')],
    ['a step without a title', () => ({ title: 'Воронка', steps: [{ step_title: '', goals: [ids[0]] }, ...steps(2).slice(1)] }), fieldError('steps.0.step_title', 'Заполните поле')],
    ['a step without goals', () => ({ title: 'Воронка', steps: [{ step_title: 'Пустой', goals: [] }, ...steps(2).slice(1)] }), fieldError('steps.0.goals', 'Добавьте хотя бы 1 условие')],
    ['a goal sent as an object with more than its id and title', () => ({ title: 'Воронка', steps: [{ step_title: 'Лишнее', goals: [{ goal_id: ids[0], access: 'own' }] }, ...steps(2).slice(1)] }),
      fieldError('steps.0.goals', 'goals: each must be a goal id, or {goal_id, goal_title} as the funnel gives it')],
    ['a goal that is not the project’s', () => ({ title: 'Воронка', steps: [{ step_title: 'Чужой', goals: [2_000_000_000] }, ...steps(2).slice(1)] }),
      { responseStatus: 400, errors: { message: 'Целевое событие не найдено: 2000000000' } }],
  ];
  for (const [name, body, expected] of CASES) {
    it(`${name} is a 400, nothing stored`, async () => {
      const before = await snapshot(api.db);
      expect((await owner.client.post(`/api/v1.0/${owner.projectId}/funnel`, body())).json).toEqual(expected);
      expect(await snapshot(api.db)).toBe(before);
    });
  }

  it('eleven steps are taken', async () => {
    expect((await create(owner, { title: 'Длинная', steps: steps(11) })).steps).toHaveLength(11);
  });

  it('another user’s personal goal cannot be used (it does not exist for them)', async () => {
    const other = await newUser(api);
    await owner.client.patch(`/api/v1.0/project/${owner.projectId}/access`, { data: { users: [{ email: other.email, access_level: 0 }] } });
    const mine = await goal(other.client, owner.projectId, 'Личная другого', page('/secret'));
    const answer = await owner.client.post(`/api/v1.0/${owner.projectId}/funnel`, { title: 'Воронка', steps: [{ step_title: 'A', goals: [mine] }, ...steps(2).slice(1)] });
    expect(answer.json).toEqual({ responseStatus: 400, errors: { message: `Целевое событие не найдено: ${mine}` } });
  });

  it('on the demo project only an administrator creates funnels', async () => {
    const user = await newUser(api);
    expect((await user.client.post(`/api/v1.0/${DEMO_PROJECT_ID}/funnel`, { title: 'Демо', steps: steps(2) })).json).toEqual(FORBIDDEN);
    const admin = await newUser(api, ROLE.ADMIN);
    const a = await goal(admin.client, DEMO_PROJECT_ID, 'Демо 1', page('/'), 'common');
    const b = await goal(admin.client, DEMO_PROJECT_ID, 'Демо 2', page('/news'), 'common');
    const answer = await admin.client.post(`/api/v1.0/${DEMO_PROJECT_ID}/funnel`, { title: 'Демо', steps: [{ step_title: '1', goals: [a] }, { step_title: '2', goals: [b] }] });
    expect(answer.status).toBe(200);
    expect((await admin.client.delete(`/api/v1.0/${DEMO_PROJECT_ID}/funnel/${answer.json.result.id}`)).status).toBe(200);
  });
});

describe('the demo project', () => {
  it('comes with its goals and a funnel of two of them, which anyone may read and count', async () => {
    const { ApiClient } = await import('../testing/client.js');
    const anyone = new ApiClient(api.url);
    const { funnels } = (await anyone.get(`/api/v1.0/${DEMO_PROJECT_ID}/funnels?search=${encodeURIComponent('Поиск и подписка')}`)).json.result as { funnels: Funnel[] };
    expect(funnels.map((f) => [f.title, f.steps.map((s) => [s.step_number, s.step_title, s.goals.map((g) => g.goal_title)])])).toEqual([
      ['Поиск и подписка', [[1, 'Поиск по сайту', ['Поиск по сайту']], [2, 'Подписка на рассылку', ['Подписка на рассылку']]]],
    ]);
    const goals = (await anyone.get(`/api/v1.0/user/goals?project_id=${DEMO_PROJECT_ID}&common_only=true`)).json.result.goals as { title: string }[];
    expect(goals.map((g) => g.title)).toEqual(expect.arrayContaining(['Клик по внешней ссылке', 'Поиск по сайту', 'Подписка на рассылку', 'Поделиться']));
    const report = await anyone.post(`/api/report/v1.0/eventbase/${DEMO_PROJECT_ID}/funnel`, { funnel_id: funnels[0]!.id, date_start: 'today', date_end: 'today' });
    expect(report.json.result.table.map((r: { stepTitle: string; metrics: unknown[] }) => [r.stepTitle, r.metrics[0]])).toEqual([
      ['Поиск по сайту', 0],
      ['Подписка на рассылку', 0],
    ]);
  });
});

describe('the funnel report refuses a filter rule its dimension cannot take', () => {
  it('a published time compared with a word, on the demo project, anonymously: 400 naming it, never a 500', async () => {
    const { ApiClient } = await import('../testing/client.js');
    const anyone = new ApiClient(api.url);
    const { funnels } = (await anyone.get(`/api/v1.0/${DEMO_PROJECT_ID}/funnels`)).json.result as { funnels: Funnel[] };
    const answer = await anyone.post(`/api/report/v1.0/eventbase/${DEMO_PROJECT_ID}/funnel`, {
      funnel_id: funnels[0]!.id,
      date_start: 'today',
      date_end: 'today',
      dimension_filters: [{ key: 'published_datetime', op: '=', value: 'завтра' }],
    });
    expect(answer.json).toEqual({
      responseStatus: 400,
      errors: { message: 'dimension_filters.0.value of published_datetime must be a date and time written YYYY-MM-DD HH:MM:SS (UTC), from 1970-01-01 00:00:00 to 2106-02-07 06:28:15: "завтра" is not one' },
    });
  });
});

describe('the funnel report', () => {
  it('answers the figures of today’s visitors, counted by hand, with and without those not from the previous step', async () => {
    const owner = await userWithProject(api);
    const catalog = await goal(owner.client, owner.projectId, 'Каталог', page('/catalog'));
    const cart = await goal(owner.client, owner.projectId, 'Корзина', page('/cart'));
    const funnel = await create(owner, { title: 'Покупка', steps: [{ step_title: 'Каталог', goals: [catalog] }, { step_title: 'Корзина', goals: [cart] }] });
    // A: catalogue then cart; B: cart then catalogue; C: catalogue only; D: cart only.
    const now = Date.now();
    const visits: [string, string][] = [['A', '/catalog'], ['A', '/cart'], ['B', '/cart'], ['B', '/catalog'], ['C', '/catalog'], ['D', '/cart']];
    await api.clickhouse.insert({
      table: 'events',
      format: 'JSONEachRow',
      values: visits.map(([visitor, path], i) => {
        const at = now - (visits.length - i) * 60_000;
        const ts = new Date(at).toISOString().slice(0, 23).replace('T', ' ');
        return { event_key: eventKeyOf(crypto.randomUUID()), project_id: owner.projectId, event_type: 'pageview', ts, event_date: moscowDate(at), visitor_id: visitor, session_id: visitor.charCodeAt(0), session_start: ts, url: `https://shop.example${path}` };
      }),
    });
    const answer = await owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/funnel`, { funnel_id: funnel.id, date_start: '1days', date_end: 'today' });
    expect(answer.json).toEqual({
      responseStatus: 200,
      result: {
        metrics: ['visitors_all', 'visitors_left_step', 'visitors_left_step_share', 'conversion_first_step', 'conversion_previous_step'],
        table: [
          { stepNumber: 1, stepTitle: 'Каталог', metrics: [3, 2, 66.67, 100, 100], metricsWithNotPrevStep: [3, 2, 66.67, 100, 100] },
          { stepNumber: 2, stepTitle: 'Корзина', metrics: [1, 0, 0, 33.33, 33.33], metricsWithNotPrevStep: [3, 0, 0, 100, 100] },
        ],
        graph: [
          { stepNumber: 1, stepTitle: 'Каталог', visitorsPrevStep: 3, visitorsNotPrevStep: 0, visitorsSum: 3, convPrevStep: 100, convPrevStepSum: 100, convFirstStep: 100, convFirstStepSum: 100 },
          { stepNumber: 2, stepTitle: 'Корзина', visitorsPrevStep: 1, visitorsNotPrevStep: 2, visitorsSum: 3, convPrevStep: 33.33, convPrevStepSum: 100, convFirstStep: 33.33, convFirstStepSum: 100 },
        ],
        sample: 1,
      },
    });
    // The same table as a file: a BOM, semicolons, comma decimals.
    const csv = await fetch(`${api.url}/top100/api/report/v1.0/eventbase/${owner.projectId}/funnel/csv`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: [...owner.client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') },
      body: JSON.stringify({ funnel_id: funnel.id, date_start: '1days', date_end: 'today' }),
    });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text.split('\r\n').slice(1)).toEqual([
      '1. Каталог;3;2;66,67;100;100;3;2;66,67;100;100',
      '2. Корзина;1;0;0;33,33;33,33;3;0;0;100;100',
      '',
    ]);
    expect(text.startsWith('Шаг;Посетители;Ушли с шага;')).toBe(true);
    // Bad input is a 400 that names it.
    expect((await owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/funnel`, { funnel_id: funnel.id, date_start: 'today', date_end: 'yesterday' })).status).toBe(400);
    expect((await owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/funnel`, { funnel_id: funnel.id, date_start: 'today', date_end: 'today', metrics: ['revenue'] })).status).toBe(400);
    expect((await owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/funnel`, { funnel_id: funnel.id, date_start: 'today', date_end: 'today', sample: 2 })).status).toBe(400);
    expect((await owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/funnel`, { funnel_id: 2_000_000_000, date_start: 'today', date_end: 'today' })).json).toEqual({
      responseStatus: 404,
      errors: { message: 'Воронка не найдена' },
    });
  });
});
