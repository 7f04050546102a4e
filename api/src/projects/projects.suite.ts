import { REPORTS } from '@stat/schemas';
import { describe, expect, it, onTestFinished } from 'vitest';
import { solve } from '../captcha/pow.js';
import { ApiClient } from '../testing/client.js';
import { addTraffic, eventually, newUser, noonOfToday, snapshot, startSite, uniqueSite, userWithProject } from '../testing/fixtures.js';
import { PRETEND_PUBLIC, type TestApi } from '../testing/harness.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** Sites (projects): specification 000, §5, §7 and §9. */
export function projectsSuite(env: () => TestApi): void {
  describe('sites: create and read', () => {
    it('creates a project and reads it back with the defaults of the specification', async () => {
      const { client } = await newUser(env());
      const url = uniqueSite();
      const created = await client.post('/api/v1.0/project', { url: `${url}/?utm=1#top`, title: '  Мой сайт  ', agree: true });
      expect(created.status).toBe(200);
      expect(created.json).toEqual({ responseStatus: 200, result: { project_id: expect.any(Number), can_be_in_rate: true } });
      const id = created.json.result.project_id as number;
      expect(id).toBeGreaterThanOrEqual(8_000_000);
      const project = await client.get(`/api/v1.0/project/${id}`);
      expect(project.status).toBe(200);
      expect(project.json.result).toMatchObject({
        id,
        title: 'Мой сайт',
        url,
        cleanedUrl: new URL(url).hostname,
        favicon: null,
        keywords: '',
        categories: [],
        counter_settings: {
          color: '#313EFB',
          counter_type: 0,
          merge_subdomains: false,
          merge_www: true,
          track_hashes: false,
          track_user_id: false,
          use_block_analytics: false,
          block_analytics_attribute: 'your-attribute',
          use_whitelist: false,
          whitelisted_urls: [],
          blacklisted_urls: [],
          title: 'Мой сайт',
        },
        rating_blockers: { ununique: false, blacklisted: false },
        available_reports: [...REPORTS],
        deleted: false,
        can_edit_project: true,
        can_be_in_rate: true,
        counter_is_set: false,
        in_rating: false,
        public_stats: true,
        status: 'unincluded',
        permissions: { can_edit_project: true },
        views: 0,
        views_change: null,
      });
      expect(project.json.result.users).toHaveLength(1);
    });

    it('400 «Request validation errors» with the texts of §5 per field, and nothing stored', async () => {
      const { client } = await newUser(env());
      const before = await snapshot(env().db);
      const bad = await client.post('/api/v1.0/project', { url: 'ftp://x', title: 'ab', agree: false });
      expect(bad.status).toBe(400);
      expect(bad.json).toEqual({
        responseStatus: 400,
        errors: {
          message: 'Request validation errors',
          fields: { url: ['Введен неправильный URL'], title: ['Минимум 3 символа'], agree: ['Вы должны принять условия'] },
        },
      });
      const empty = await client.post('/api/v1.0/project', { url: '', title: '', agree: true });
      expect(empty.json.errors.fields.url).toContain('Поле не заполнено');
      expect(empty.json.errors.fields.title).toContain('Поле не заполнено');
      const long = await client.post('/api/v1.0/project', { url: `https://a.ru/${'x'.repeat(200)}`, title: 'Сайт', agree: true });
      expect(long.json.errors.fields.url).toContain('URL не должен превышать 200 символов');
      for (const url of ['http://127.0.0.1/', 'https://localhost', 'site.ru', 'https://user:pw@site.ru', 'https://site.r']) {
        const answer = await client.post('/api/v1.0/project', { url, title: 'Сайт', agree: true });
        expect(answer.json.errors.fields, url).toEqual({ url: ['Введен неправильный URL'] });
      }
      expect(await snapshot(env().db)).toBe(before);
    });

    it('takes a title of 255 characters and refuses 256 with «Превышен лимит символов»', async () => {
      const { client } = await newUser(env());
      const before = await snapshot(env().db);
      const long = await client.post('/api/v1.0/project', { url: uniqueSite(), title: 'я'.repeat(256), agree: true });
      expect(long.status).toBe(400);
      expect(long.json).toEqual({ responseStatus: 400, errors: { message: 'Request validation errors', fields: { title: ['Превышен лимит символов'] } } });
      expect(await snapshot(env().db)).toBe(before);
      const longest = await client.post('/api/v1.0/project', { url: uniqueSite(), title: 'я'.repeat(255), agree: true });
      expect(longest.status).toBe(200);
      expect((await client.get(`/api/v1.0/project/${longest.json.result.project_id}`)).json.result.title).toBe('я'.repeat(255));
    });

    it('answers 404 «Счётчик не найден» for a project that does not exist', async () => {
      const { client } = await newUser(env());
      for (const caller of [client, new ApiClient(env().url)]) {
        const missing = await caller.get('/api/v1.0/project/2147483647');
        expect(missing.status).toBe(404);
        expect(missing.json).toEqual({ responseStatus: 404, errors: { message: 'Счётчик не найден' } });
      }
    });

    it('demands a proof-of-work captcha after three creations in a day, and takes each answer once', async () => {
      const { client } = await newUser(env());
      expect((await client.get('/api/v1.0/project/is_captcha_needed')).json.result).toEqual({ need_captcha: false });
      for (let i = 0; i < 3; i++) expect((await client.post('/api/v1.0/project', { url: uniqueSite(), title: 'Сайт', agree: true })).status).toBe(200);
      const refused = await client.post('/api/v1.0/project', { url: uniqueSite(), title: 'Сайт', agree: true });
      expect(refused.status).toBe(400);
      expect(refused.json.errors.message).toBe('Not valid captcha');
      const needed = await client.get('/api/v1.0/project/is_captcha_needed');
      expect(needed.json.result).toEqual({ need_captcha: true, captcha: { challenge: expect.stringMatching(/^[0-9a-f]{32}$/), difficulty: 16 } });
      const answer = solve(needed.json.result.captcha.challenge, needed.json.result.captcha.difficulty);
      expect((await client.post('/api/v1.0/project', { url: uniqueSite(), title: 'Сайт', agree: true, captcha_response: answer })).status).toBe(200);
      const replay = await client.post('/api/v1.0/project', { url: uniqueSite(), title: 'Сайт', agree: true, captcha_response: answer });
      expect(replay.json.errors.message).toBe('Not valid captcha');
    });

    it('lists projects with the same address (host without www.), 15 a page', async () => {
      const { client } = await newUser(env());
      const host = new URL(uniqueSite()).hostname;
      await client.post('/api/v1.0/project', { url: `https://${host}`, title: 'Первый', agree: true });
      await client.post('/api/v1.0/project', { url: `http://www.${host}/blog`, title: 'Второй', agree: true });
      const other = await newUser(env());
      const same = await other.client.get(`/api/v1.0/project/projects_with_same_url?url=${encodeURIComponent(`https://www.${host}/`)}`);
      expect(same.status).toBe(200);
      expect(same.json.result).toMatchObject({ total: 2, limit: 15, offset: 0, originUrl: `https://www.${host}/` });
      expect(same.json.result.data.map((p: { title: string }) => p.title)).toEqual(['Первый', 'Второй']);
      expect(Object.keys(same.json.result.data[0]).sort()).toEqual(['created', 'favicon', 'id', 'inRating', 'in_rating', 'project_id', 'title', 'url']);
    });
  });

  describe('sites: settings, delete, restore', () => {
    it('saves title and counter settings field by field; bad values are 400 and change nothing', async () => {
      const { client, projectId } = await userWithProject(env());
      const saved = await client.put(`/api/v1.0/project/${projectId}`, {
        title: 'Новое имя',
        counter_settings: { color: '#FF0000', track_hashes: true, whitelisted_urls: ['https://shop.example'] },
      });
      expect(saved.status).toBe(200);
      expect(saved.json.result.title).toBe('Новое имя');
      expect(saved.json.result.counter_settings).toMatchObject({ color: '#FF0000', track_hashes: true, track_user_id: false, whitelisted_urls: ['https://shop.example'] });
      const again = await client.put(`/api/v1.0/project/${projectId}`, { counter_settings: { merge_www: false } });
      expect(again.json.result.counter_settings).toMatchObject({ color: '#FF0000', merge_www: false });
      const before = await snapshot(env().db);
      for (const body of [
        { title: 'ab' },
        { title: '' },
        { counter_settings: { color: 'red' } },
        { counter_settings: { counter_type: 2 } },
        { counter_settings: { whitelisted_urls: ['not a url'] } },
        { counter_settings: { block_analytics_attribute: 'bad attr"' } },
        { counter_settings: { unknown: 1 } },
        { owner_id: 1 },
      ]) {
        const answer = await client.put(`/api/v1.0/project/${projectId}`, body);
        expect(answer.status, JSON.stringify(body)).toBe(400);
      }
      expect((await client.put(`/api/v1.0/project/${projectId}`, { title: 'ab' })).json.errors.message).toBe('Минимум 3 символа');
      expect((await client.put(`/api/v1.0/project/${projectId}`, { title: '' })).json.errors.message).toMatch('Обязательное поле');
      expect(await snapshot(env().db)).toBe(before);
    });

    it('delete moves a project to the deleted list and restore brings it back; counts follow', async () => {
      const { client, projectId } = await userWithProject(env());
      const list = async (deleted: boolean) => (await client.get(`/api/report/v1.0/project/list?deleted=${deleted}`)).json.result;
      expect((await list(false)).meta).toEqual({ total_rows: 1, deleted_rows: 0, limit: 10, offset: 0 });
      // The row says whether the site may join the rating, so the list offers «Участвовать» only then.
      expect((await list(false)).data[0]).toMatchObject({ id: projectId, can_be_in_rate: true, in_rating: false });
      await env().db.query('UPDATE projects SET can_be_in_rate = false WHERE id = $1', [projectId]);
      expect((await list(false)).data[0]).toMatchObject({ id: projectId, can_be_in_rate: false });
      const removed = await client.delete(`/api/v1.0/project/${projectId}`);
      expect(removed.status).toBe(200);
      expect(removed.json).toEqual({ responseStatus: 200, result: {} });
      expect((await list(false)).data).toEqual([]);
      const deleted = await list(true);
      expect(deleted.meta).toEqual({ total_rows: 0, deleted_rows: 1, limit: 10, offset: 0 });
      expect(deleted.data[0]).toMatchObject({ id: projectId, deleted: true, status: 'deleted' });
      // A deleted project is readable (to restore it) but not editable.
      expect((await client.get(`/api/v1.0/project/${projectId}`)).json.result.deleted).toBe(true);
      expect((await client.put(`/api/v1.0/project/${projectId}`, { title: 'Новое' })).status).toBe(404);
      const restored = await client.post(`/api/v1.0/project/${projectId}/restore`);
      expect(restored.status).toBe(204);
      expect((await list(false)).meta.total_rows).toBe(1);
    });
  });

  describe('sites: lists', () => {
    it('pages by 10 with offset, searches title, url and id, and shows only linked projects', async () => {
      const { client, id: userId } = await newUser(env());
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) {
        // Three creations a day need no captcha: move the earlier ones back two days.
        await env().db.query("UPDATE projects SET created_at = created_at - interval '2 days' WHERE created_by = $1", [userId]);
        const created = await client.post('/api/v1.0/project', { url: uniqueSite(), title: `Сайт номер ${i} 100%_`, agree: true });
        ids.push(created.json.result.project_id);
      }
      const first = await client.get('/api/report/v1.0/project/list');
      expect(first.json.result.meta).toEqual({ total_rows: 12, deleted_rows: 0, limit: 10, offset: 0 });
      expect(first.json.result.data).toHaveLength(10);
      const second = await client.get('/api/report/v1.0/project/list?offset=10');
      expect(second.json.result.data).toHaveLength(2);
      const all = [...first.json.result.data, ...second.json.result.data].map((r: { id: number }) => r.id);
      expect(new Set(all)).toEqual(new Set(ids));
      const byTitle = await client.get(`/api/report/v1.0/project/list?search=${encodeURIComponent('номер 11')}`);
      expect(byTitle.json.result.data.map((r: { id: number }) => r.id)).toEqual([ids[11]]);
      const byId = await client.get(`/api/report/v1.0/project/list?search=${ids[3]}`);
      expect(byId.json.result.data.map((r: { id: number }) => r.id)).toEqual([ids[3]]);
      // % and _ are letters in a search, not wildcards.
      expect((await client.get(`/api/report/v1.0/project/list?search=${encodeURIComponent('%_')}`)).json.result.meta.total_rows).toBe(12);
      expect((await client.get(`/api/report/v1.0/project/list?search=${encodeURIComponent('1_0')}`)).json.result.meta.total_rows).toBe(0);
      const empty = await client.get(`/api/report/v1.0/project/list?search=${encodeURIComponent('нет такого')}`);
      expect(empty.json.result).toEqual({ data: [], meta: { total_rows: 0, deleted_rows: 0, limit: 10, offset: 0 } });
      // Someone else's list does not have them.
      const stranger = await newUser(env());
      expect((await stranger.client.get('/api/report/v1.0/project/list')).json.result.meta.total_rows).toBe(0);
      // The switcher: up to 100, with search.
      const switcher = await client.get('/api/v1.0/user/current/projects');
      expect(switcher.json.result.total).toBe(12);
      expect(switcher.json.result.data[0]).toEqual({ id: expect.any(Number), title: expect.any(String), url: expect.any(String), favicon: null, can_edit_project: true });
      expect((await client.get('/api/v1.0/user/current/projects?limit=101')).status).toBe(400);
    });

    it('rows carry today against the same hours of yesterday for the five metrics, and counter_is_set', async () => {
      const { client, projectId } = await userWithProject(env());
      // The api's clock at 12:30 Moscow time: an hour ago, the same hour yesterday and two hours
      // later yesterday are the hours meant whenever the suite runs (at 23:30 "two hours later
      // yesterday" would be today, at 00:30 "an hour ago" yesterday).
      const now = noonOfToday();
      env().setNow(now);
      onTestFinished(() => env().setNow(null));
      await addTraffic(env().clickhouse, projectId, now - 3_600_000, 30, 10);
      await addTraffic(env().clickhouse, projectId, now - 3_600_000 - 86_400_000, 20, 8);
      // Later yesterday than now: not part of the comparison.
      await addTraffic(env().clickhouse, projectId, now - 86_400_000 + 2 * 3_600_000, 1000, 500);
      const list = await client.get('/api/report/v1.0/project/list');
      const row = list.json.result.data[0];
      expect(row).toMatchObject({ id: projectId, counter_is_set: true, views: 30, views_change: 50, visitors: 10, visitors_change: 25 });
      expect(row.metrics).toEqual({
        page_views: { today: 30, yesterday: 20, change: 50 },
        visits: { today: 10, yesterday: 8, change: 25 },
        visitors: { today: 10, yesterday: 8, change: 25 },
        // custom events: one a visitor
        events: { today: 10, yesterday: 8, change: 25 },
        depth: { today: 3, yesterday: 2.5, change: 20 },
      });
      expect((await client.get(`/api/v1.0/project/${projectId}`)).json.result.counter_is_set).toBe(true);
    });

    it('counter_is_set turns true with the first stored hit, and stays true on every later read', async () => {
      const { client, projectId } = await userWithProject(env());
      const isSet = async () => (await client.get(`/api/v1.0/project/${projectId}`)).json.result.counter_is_set;
      // Read twice without events: a «not set» answer is never kept.
      expect(await isSet()).toBe(false);
      expect(await isSet()).toBe(false);
      await addTraffic(env().clickhouse, projectId, Date.now() - 3_600_000, 3, 1);
      expect(await isSet()).toBe(true);
      expect(await isSet()).toBe(true);
      expect((await client.get('/api/report/v1.0/project/list')).json.result.data[0]).toMatchObject({ id: projectId, counter_is_set: true });
    });

    it('the «all accessible projects» switch works for staff roles only', async () => {
      await userWithProject(env());
      const plain = await newUser(env());
      const analyst = await newUser(env(), 3);
      const mine = (await plain.client.get('/api/report/v1.0/project/list?expanded=true')).json.result.meta.total_rows;
      expect(mine).toBe(0);
      const all = (await analyst.client.get('/api/report/v1.0/project/list?expanded=true')).json.result;
      expect(all.meta.total_rows).toBeGreaterThan(1);
      expect(all.data.every((r: { can_edit_project: boolean }) => r.can_edit_project === false)).toBe(true);
      expect((await analyst.client.get('/api/report/v1.0/project/list')).json.result.meta.total_rows).toBe(0);
    });
  });

  describe('sites: outbound fetches', () => {
    it('fetch_metadata reads a public page title and refuses a loopback one', async () => {
      const page = { type: 'text/html; charset=utf-8', body: '<title>Заголовок страницы</title>' };
      const publicSite = await startSite(PRETEND_PUBLIC, { '/': page });
      const localSite = await startSite('127.0.0.1', { '/': page });
      try {
        env().hosts.set('public-site.test', [PRETEND_PUBLIC]);
        env().hosts.set('intranet.test', ['127.0.0.1']);
        env().hosts.set('rebind.test', [PRETEND_PUBLIC, '127.0.0.1']);
        const { client } = await newUser(env());
        const ok = await client.get(`/api/v1.0/project/fetch_metadata?url=${encodeURIComponent(`http://public-site.test:${publicSite.port}/`)}`);
        expect(ok.json).toEqual({ responseStatus: 200, result: { title: 'Заголовок страницы' } });
        for (const url of [`http://intranet.test:${localSite.port}/`, `http://rebind.test:${localSite.port}/`, 'http://nowhere.test/']) {
          const refused = await client.get(`/api/v1.0/project/fetch_metadata?url=${encodeURIComponent(url)}`);
          expect(refused.json, url).toEqual({ responseStatus: 400, errors: { message: 'Адрес недоступен' } });
        }
        const literal = await client.get(`/api/v1.0/project/fetch_metadata?url=${encodeURIComponent(`http://127.0.0.1:${localSite.port}/`)}`);
        expect(literal.json).toEqual({ responseStatus: 400, errors: { message: 'Введен неправильный URL' } });
        expect((await new ApiClient(env().url).get('/api/v1.0/project/fetch_metadata?url=https%3A%2F%2Fa.ru')).status).toBe(401);
      } finally {
        await publicSite.close();
        await localSite.close();
      }
    });

    it('stores the favicon of a new project once, as base64', async () => {
      const site = await startSite(PRETEND_PUBLIC, {
        '/': { type: 'text/html', body: '<link rel="icon" type="image/png" href="/icon.png"><title>С иконкой</title>' },
        '/icon.png': { type: 'image/png', body: PNG },
      });
      try {
        env().hosts.set('with-icon.test', [PRETEND_PUBLIC]);
        const { client } = await newUser(env());
        const created = await client.post('/api/v1.0/project', { url: `http://with-icon.test:${site.port}`, title: 'С иконкой', agree: true });
        const id = created.json.result.project_id;
        const project = await eventually(
          async () => (await client.get(`/api/v1.0/project/${id}`)).json.result,
          (p) => p.favicon !== null,
        );
        expect(project.favicon).toBe(PNG.toString('base64'));
      } finally {
        await site.close();
      }
    });
  });

  describe('counter code and widget', () => {
    it('«Проверить» says whether the counter was seen, when and on which page; only to editors', async () => {
      const { client, projectId } = await userWithProject(env());
      const before = await client.get(`/api/v1.0/project/${projectId}/counter_check`);
      expect(before.json).toEqual({ responseStatus: 200, result: { seen: false, last_hit: null } });
      // Two stored hits of the site (as the aggregator writes them): the later one is named.
      const at = Date.UTC(2026, 10, 20, 9, 15, 0);
      await env().clickhouse.command({
        query: `INSERT INTO events (project_id, event_type, ts, event_date, visitor_id, session_id, url)
                VALUES ({p:UInt32}, 'page_view', fromUnixTimestamp64Milli({a:Int64}), toDate('2026-11-20'), 'v1', 1, 'https://example.ru/first'),
                       ({p:UInt32}, 'page_view', fromUnixTimestamp64Milli({b:Int64}), toDate('2026-11-20'), 'v1', 1, 'https://example.ru/second')`,
        query_params: { p: projectId, a: at - 60_000, b: at },
      });
      const after = await client.get(`/api/v1.0/project/${projectId}/counter_check`);
      expect(after.json.result).toEqual({ seen: true, last_hit: { at: '2026-11-20T09:15:00.000Z', url: 'https://example.ru/second' } });
      const stranger = await newUser(env());
      expect((await stranger.client.get(`/api/v1.0/project/${projectId}/counter_check`)).status).toBe(403);
      expect((await client.get('/api/v1.0/project/abc/counter_check')).status).toBe(400);
    });

    it('gives the snippet of counter-snippet with the chosen options as data- attributes', async () => {
      const { client, projectId } = await userWithProject(env());
      const plain = await client.get(`/api/v1.0/project/${projectId}/counter_code`);
      expect(plain.json.result.code).toBe(
        `<script async src="http://stat.test/counter/counter.js" data-project="${projectId}" data-collector="http://collector.stat.test"></script>`,
      );
      const full = await client.get(`/api/v1.0/project/${projectId}/counter_code?track_hashes=true&track_user_id=true&use_block_analytics=true&widget=true`);
      expect(full.json.result.code).toBe(
        `<script async src="http://stat.test/counter/counter-full.js" data-project="${projectId}" data-collector="http://collector.stat.test" data-track-hashes="true" data-user-id="true" data-attribute="your-attribute"></script>\n` +
          `<a href="http://stat.test/stat/projects/${projectId}/dashboard" target="_blank" rel="noopener"><img src="http://stat.test/top100/api/v1.0/project/${projectId}/widget.svg" width="88" height="31" alt="Статистика"></a>`,
      );
      expect((await client.get(`/api/v1.0/project/${projectId}/counter_code?widget=maybe`)).status).toBe(400);
      // Both builds the snippets name are served.
      for (const build of ['counter', 'counter-full']) {
        const script = await fetch(`${env().url}/counter/${build}.js`);
        expect(script.status, build).toBe(200);
        expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      }
    });

    it('serves the widget to anyone once the counter is in widget mode, in the site colour with today’s views', async () => {
      const { client, projectId } = await userWithProject(env());
      const anonymous = new ApiClient(env().url);
      expect((await anonymous.get(`/api/v1.0/project/${projectId}/widget.svg`)).status).toBe(401);
      // Before widget mode only its owner sees it: no shared cache may keep that answer.
      const own = await client.get(`/api/v1.0/project/${projectId}/widget.svg`);
      expect(own.status).toBe(200);
      expect(own.headers.get('cache-control')).toBe('private, max-age=300');
      await client.put(`/api/v1.0/project/${projectId}`, { counter_settings: { counter_type: 1, color: '#00AA11' } });
      // Today's views at a fixed time of day, so that no midnight falls between write and read.
      const now = noonOfToday();
      env().setNow(now);
      onTestFinished(() => env().setNow(null));
      await addTraffic(env().clickhouse, projectId, now - 60_000, 1234, 5);
      const svg = await anonymous.get(`/api/v1.0/project/${projectId}/widget.svg`);
      expect(svg.status).toBe(200);
      expect(svg.headers.get('cache-control')).toBe('public, max-age=300');
      expect(svg.headers.get('x-frame-options')).toBeNull();
      expect(svg.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(svg.json).toContain('fill="#00AA11"');
      expect(svg.json).toContain('>1 234<');
    });
  });
}
