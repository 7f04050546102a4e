import { describe, expect, it } from 'vitest';
import { newUser, snapshot, startSite, userWithProject } from '../testing/fixtures.js';
import { PRETEND_PUBLIC, uniqueEmail, type TestApi } from '../testing/harness.js';

/** Access sharing: specification 000, §2.8, §3, §4, §5 and §8. */
export function accessSuite(env: () => TestApi): void {
  const share = (users: { email: string; access_level: number; can_edit_project?: boolean }[]) => ({ data: { users } });

  describe('access sharing', () => {
    it('grants view and edit by e-mail; a viewer reads but cannot edit; the list marks owner and caller', async () => {
      const owner = await userWithProject(env());
      const viewer = await newUser(env());
      const editor = await newUser(env());
      const saved = await owner.client.patch(
        `/api/v1.0/project/${owner.projectId}/access`,
        share([
          { email: viewer.email.toUpperCase(), access_level: 1, can_edit_project: false },
          { email: editor.email, access_level: 0, can_edit_project: true },
        ]),
      );
      expect(saved.status).toBe(200);
      expect(saved.json.result.users).toEqual([
        { email: owner.email, access_level: 0, can_edit_project: true, is_owner: true, is_current_user: true, user: { email: owner.email } },
        ...[
          { email: viewer.email, access_level: 1, can_edit_project: false, is_owner: false, is_current_user: false, user: { email: viewer.email } },
          { email: editor.email, access_level: 0, can_edit_project: true, is_owner: false, is_current_user: false, user: { email: editor.email } },
        ].sort((a, b) => a.email.localeCompare(b.email)),
      ]);
      expect((await viewer.client.get(`/api/v1.0/project/${owner.projectId}`)).json.result.can_edit_project).toBe(false);
      expect((await viewer.client.put(`/api/v1.0/project/${owner.projectId}`, { title: 'Чужое' })).status).toBe(403);
      expect((await viewer.client.get(`/api/v1.0/project/${owner.projectId}/access`)).status).toBe(403);
      expect((await editor.client.put(`/api/v1.0/project/${owner.projectId}`, { title: 'Правка редактора' })).status).toBe(200);
      expect((await viewer.client.get('/api/report/v1.0/project/list')).json.result.data.map((r: { id: number }) => r.id)).toEqual([owner.projectId]);
      // Removing the viewer takes the access away.
      await owner.client.patch(`/api/v1.0/project/${owner.projectId}/access`, share([{ email: editor.email, access_level: 0 }]));
      expect((await viewer.client.get(`/api/v1.0/project/${owner.projectId}`)).status).toBe(403);
    });

    it('refuses unknown e-mails, doubles and changes of one’s own access, changing nothing', async () => {
      const owner = await userWithProject(env());
      const editor = await newUser(env());
      await owner.client.patch(`/api/v1.0/project/${owner.projectId}/access`, share([{ email: editor.email, access_level: 0 }]));
      const before = await snapshot(env().db);
      const cases: [ReturnType<typeof share>, string, typeof owner.client][] = [
        [share([{ email: uniqueEmail('ghost'), access_level: 1 }]), 'Такой email не найден в системе, пользователю необходимо пройти регистрацию', owner.client],
        [share([{ email: editor.email, access_level: 0 }, { email: editor.email.toUpperCase(), access_level: 1 }]), 'Пользователь уже добавлен', owner.client],
        [share([{ email: owner.email, access_level: 1 }, { email: editor.email, access_level: 0 }]), 'Нельзя изменить собственный доступ', owner.client],
        // The editor may not lower or drop their own access, nor the owner's.
        [share([{ email: editor.email, access_level: 1 }]), 'Нельзя изменить собственный доступ', editor.client],
        [share([]), 'Нельзя изменить собственный доступ', editor.client],
        [share([{ email: editor.email, access_level: 0 }, { email: owner.email, access_level: 1 }]), 'Нельзя изменить доступ владельца счётчика', editor.client],
      ];
      for (const [body, message, client] of cases) {
        const answer = await client.patch(`/api/v1.0/project/${owner.projectId}/access`, body);
        expect(answer.json, JSON.stringify(body)).toEqual({ responseStatus: 400, errors: { message } });
      }
      for (const body of [{ users: [] }, { data: { users: [{ email: 'not-an-email', access_level: 0 }] } }, { data: { users: [{ email: editor.email, access_level: 2 }] } }]) {
        expect((await owner.client.patch(`/api/v1.0/project/${owner.projectId}/access`, body)).status).toBe(400);
      }
      expect(await snapshot(env().db)).toBe(before);
    });

    it('adds at most 20 users a day per granting user: «Rate limit exceeded», nothing stored', async () => {
      const owner = await userWithProject(env());
      const users = [];
      for (let i = 0; i < 21; i++) users.push(await newUser(env()));
      const first = users.slice(0, 20).map((u) => ({ email: u.email, access_level: 1 }));
      expect((await owner.client.patch(`/api/v1.0/project/${owner.projectId}/access`, share(first))).status).toBe(200);
      const before = await snapshot(env().db);
      const more = await owner.client.patch(`/api/v1.0/project/${owner.projectId}/access`, share([...first, { email: users[20]!.email, access_level: 1 }]));
      expect(more.status).toBe(429);
      expect(more.json.errors.message).toBe('Rate limit exceeded');
      expect(await snapshot(env().db)).toBe(before);
      // Changing levels of users already added is not adding.
      const changed = await owner.client.patch(`/api/v1.0/project/${owner.projectId}/access`, share(first.map((u) => ({ ...u, access_level: 0 }))));
      expect(changed.status).toBe(200);
    });

    it('user/exists says whether an e-mail has an account, to logged-in users only', async () => {
      const { client, email } = await newUser(env());
      expect((await client.post('/api/v1.0/user/exists', { email })).json).toEqual({ responseStatus: 200, result: { exists: true } });
      expect((await client.post('/api/v1.0/user/exists', { email: uniqueEmail('none') })).json.result).toEqual({ exists: false });
      expect((await client.post('/api/v1.0/user/exists', { email: 'bad' })).status).toBe(400);
      const anonymous = await newUser(env());
      await anonymous.client.post('/logout');
      expect((await anonymous.client.post('/api/v1.0/user/exists', { email })).status).toBe(401);
    });
  });

  describe('access requests', () => {
    it('a user asks, the owner sees the request and accepts as view or edit, or declines', async () => {
      const owner = await userWithProject(env());
      const asker = await newUser(env());
      const other = await newUser(env());
      expect((await asker.client.post(`/api/v1.0/project/${owner.projectId}/access_request`)).status).toBe(204);
      expect((await asker.client.post(`/api/v1.0/project/${owner.projectId}/access_request`)).json.errors.message).toBe('Запрос уже отправлен');
      expect((await other.client.post(`/api/v1.0/project/${owner.projectId}/access_request`)).status).toBe(204);
      const all = await owner.client.get('/api/v1.0/user/current/access_requests_list');
      expect(all.json.result.total).toBe(2);
      const mine = await owner.client.get(`/api/v1.0/user/current/access_requests_list/${owner.projectId}`);
      const [first, second] = mine.json.result.data;
      expect(first).toEqual({
        access_request_id: expect.any(Number),
        accessRequestId: first.access_request_id,
        project_id: owner.projectId,
        project_title: 'Тестовый сайт',
        email: asker.email,
        created: expect.any(String),
      });
      expect((await owner.client.get('/api/report/v1.0/project/list')).json.result.data[0].has_access_requests).toBe(true);
      // The asker cannot decide their own request, nor see the list.
      expect((await asker.client.get(`/api/v1.0/user/current/access_requests_list/${owner.projectId}`)).status).toBe(403);
      const accept = await owner.client.post(`/api/v1.0/project/${owner.projectId}/access_request/${first.access_request_id}`, {
        action_request: 'access',
        access_level: 1,
        can_edit_project: false,
      });
      expect(accept.json).toEqual({ responseStatus: 200, result: {} });
      expect((await asker.client.get(`/api/v1.0/project/${owner.projectId}`)).json.result.can_edit_project).toBe(false);
      const decline = await owner.client.post(`/api/v1.0/project/${owner.projectId}/access_request/${second.access_request_id}`, { action_request: 'decline' });
      expect(decline.status).toBe(200);
      expect((await other.client.get(`/api/v1.0/project/${owner.projectId}`)).status).toBe(403);
      const again = await owner.client.post(`/api/v1.0/project/${owner.projectId}/access_request/${second.access_request_id}`, { action_request: 'access' });
      expect(again.json).toEqual({ responseStatus: 404, errors: { message: 'Запрос не найден' } });
      expect((await owner.client.get('/api/v1.0/user/current/access_requests_list')).json.result.total).toBe(0);
      // A request id of another project is not found through this one.
      const elsewhere = await userWithProject(env());
      expect((await asker.client.post(`/api/v1.0/project/${elsewhere.projectId}/access_request`)).status).toBe(204);
      const foreign = (await elsewhere.client.get('/api/v1.0/user/current/access_requests_list')).json.result.data[0].access_request_id;
      expect((await owner.client.post(`/api/v1.0/project/${owner.projectId}/access_request/${foreign}`, { action_request: 'access' })).status).toBe(404);
    });

    it('a decision may carry the project’s and the request’s ids in its body (spec 000 §7), as the list gives them', async () => {
      const owner = await userWithProject(env());
      const asker = await newUser(env());
      await asker.client.post(`/api/v1.0/project/${owner.projectId}/access_request`);
      const [request] = (await owner.client.get(`/api/v1.0/user/current/access_requests_list/${owner.projectId}`)).json.result.data;
      const { access_request_id, accessRequestId, project_id } = request;
      const accept = await owner.client.post(`/api/v1.0/project/${owner.projectId}/access_request/${access_request_id}`, {
        project_id,
        access_request_id,
        accessRequestId,
        action_request: 'access',
        access_level: 0,
        can_edit_project: true,
      });
      expect(accept.json).toEqual({ responseStatus: 200, result: {} });
      expect((await asker.client.get(`/api/v1.0/project/${owner.projectId}`)).json.result.can_edit_project).toBe(true);
    });

    it('a decision whose body names another project or request than its path is 400, and nothing is decided', async () => {
      const owner = await userWithProject(env());
      const asker = await newUser(env());
      await asker.client.post(`/api/v1.0/project/${owner.projectId}/access_request`);
      const [request] = (await owner.client.get(`/api/v1.0/user/current/access_requests_list/${owner.projectId}`)).json.result.data;
      const path = `/api/v1.0/project/${owner.projectId}/access_request/${request.access_request_id}`;
      const answers = [];
      for (const ids of [{ project_id: owner.projectId + 1 }, { access_request_id: request.access_request_id + 1 }, { accessRequestId: request.access_request_id + 1 }]) {
        answers.push((await owner.client.post(path, { ...ids, action_request: 'decline' })).json);
      }
      expect(answers).toEqual([
        { responseStatus: 400, errors: { message: `project_id in the body (${owner.projectId + 1}) is not the one in the path (${owner.projectId})` } },
        { responseStatus: 400, errors: { message: `access_request_id in the body (${request.access_request_id + 1}) is not the one in the path (${request.access_request_id})` } },
        { responseStatus: 400, errors: { message: `accessRequestId in the body (${request.access_request_id + 1}) is not the one in the path (${request.access_request_id})` } },
      ]);
      expect((await owner.client.get(`/api/v1.0/user/current/access_requests_list/${owner.projectId}`)).json.result.data).toEqual([request]);
    });

    it('verify_ownership gives a meta tag, and grants edit once the site shows it', async () => {
      const owner = await userWithProject(env());
      const claimant = await newUser(env());
      const pages: Record<string, { type: string; body: string }> = { '/': { type: 'text/html', body: '<title>Без метки</title>' } };
      const site = await startSite(PRETEND_PUBLIC, pages);
      try {
        env().hosts.set('claimed.test', [PRETEND_PUBLIC]);
        await env().db.query('UPDATE projects SET url = $2 WHERE id = $1', [owner.projectId, `http://claimed.test:${site.port}`]);
        const first = await claimant.client.post(`/api/v1.0/project/${owner.projectId}/verify_ownership`);
        expect(first.json.result).toEqual({ verified: false, meta_tag: expect.stringMatching(/^<meta name="stat-verification" content="[0-9a-f]{32}">$/) });
        expect((await claimant.client.post(`/api/v1.0/project/${owner.projectId}/verify_ownership`)).json.result.verified).toBe(false);
        pages['/'] = { type: 'text/html', body: `<head>${first.json.result.meta_tag}</head>` };
        const second = await claimant.client.post(`/api/v1.0/project/${owner.projectId}/verify_ownership`);
        expect(second.json.result).toEqual({ verified: true, meta_tag: first.json.result.meta_tag });
        expect((await claimant.client.get(`/api/v1.0/project/${owner.projectId}`)).json.result.can_edit_project).toBe(true);
      } finally {
        await site.close();
      }
    });
  });
}
