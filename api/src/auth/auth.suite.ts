import { describe, expect, it, onTestFinished } from 'vitest';
import { ApiClient } from '../testing/client.js';
import { clientFromNewAddress } from '../testing/fixtures.js';
import { uniqueEmail, type TestApi } from '../testing/harness.js';
import { REFRESH_REUSE_GRACE_MS } from './sessions.js';

/** Accounts and sessions, run on PGlite (api.test.ts) and on PostgreSQL and Redis (api.cluster.test.ts). */
export function authSuite(env: () => TestApi): void {
  const client = (): ApiClient => new ApiClient(env().url);
  /** A client holding only the given cookies. */
  const withCookies = (cookies: Record<string, string>): ApiClient => {
    const c = client();
    for (const [name, value] of Object.entries(cookies)) c.cookies.set(name, value);
    return c;
  };
  const count = async (sql: string, params: unknown[] = []): Promise<number> =>
    Number((await env().db.query<{ n: number }>(`SELECT count(*) AS n FROM ${sql}`, params))[0]?.n);

  describe('accounts and sessions', () => {
    it('register answers the user of the specification and logs in with HTTP-only SameSite=Lax cookies', async () => {
      const c = client();
      const email = uniqueEmail('reg');
      const answer = await c.post('/api/v1.0/auth/register', { email, password: 'correct horse battery', user_name: 'Аня' });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({
        responseStatus: 200,
        result: {
          login: email,
          id: expect.any(Number),
          email,
          user_name: 'Аня',
          auth_type: 'password',
          is_top100_staff: false,
          role_permissions: ['create_projects'],
          role_id: 7,
          snackbars: {},
          metaTips: {
            reportAdditional: false,
            reportCsv: false,
            reportFilter: false,
            reportGraph: false,
            reportSettings: false,
            reportViews: false,
          },
          hints: { all: false, reports: [], tips: [], views: 0 },
        },
      });
      const cookies = answer.headers.getSetCookie();
      expect(cookies).toHaveLength(2);
      for (const cookie of cookies) expect(cookie).toMatch(/; Path=\/top100; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
      const current = await c.get('/api/v1.0/user/current');
      expect(current.status).toBe(200);
      expect(current.json.result).toEqual(answer.json.result);
    });

    it('stores an argon2id hash, never the password', async () => {
      const email = uniqueEmail('hash');
      await client().register(email, 'a password to hash');
      const [row] = await env().db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = $1', [email]);
      expect(row?.password_hash).toMatch(/^\$argon2id\$/);
      expect(row?.password_hash).not.toContain('a password to hash');
    });

    it('refuses a second account for the same e-mail, in any case, and stores nothing', async () => {
      const email = uniqueEmail('twice');
      await client().register(email);
      const again = await client().post('/api/v1.0/auth/register', { email: email.toUpperCase(), password: 'another password' });
      expect(again.status).toBe(400);
      expect(again.json).toEqual({ responseStatus: 400, errors: { message: 'Пользователь с таким email уже зарегистрирован' } });
      expect(await count('users WHERE email = $1', [email])).toBe(1);
    });

    it.each([
      [{ email: 'not-an-email', password: 'long enough pass' }, /Введен неправильный email/],
      [{ email: 'short@example.com', password: 'short' }, /Пароль должен быть от 8 до 128 символов/],
      [{ email: 'extra@example.com', password: 'long enough pass', role_id: 1 }, /property role_id should not exist/],
      [{ password: 'long enough pass' }, /email/],
    ])('400 for a bad registration %j, nothing stored', async (body, message) => {
      const before = await count('users');
      const answer = await client().post('/api/v1.0/auth/register', body);
      expect(answer.status).toBe(400);
      expect(answer.json.errors.message).toMatch(message);
      expect(await count('users')).toBe(before);
    });

    it('refuses a password of eight spaces at registration with 400, and stores no account', async () => {
      const email = uniqueEmail('blank');
      const answer = await client().post('/api/v1.0/auth/register', { email, password: '        ' });
      expect([answer.status, answer.json]).toEqual([400, { responseStatus: 400, errors: { message: 'Пароль не может состоять только из пробелов' } }]);
      expect(await count('users WHERE email = $1', [email])).toBe(0);
    });

    it('refuses a new password of blanks only (tabs, line breaks, spaces) with 400; the old one still logs in', async () => {
      const email = uniqueEmail('blank-change');
      const here = client();
      await here.register(email, 'old password 1');
      const answer = await here.post('/api/v1.0/user/current/password', { current_password: 'old password 1', new_password: '\t\t\n  \r\n  ' });
      expect([answer.status, answer.json]).toEqual([400, { responseStatus: 400, errors: { message: 'Пароль не может состоять только из пробелов' } }]);
      expect((await client().login(email, 'old password 1')).status).toBe(200);
    });

    it('logs in with the right password only', async () => {
      const email = uniqueEmail('login');
      await client().register(email);
      const wrong = await client().login(email, 'wrong password!');
      expect(wrong.status).toBe(401);
      expect(wrong.json).toEqual({ responseStatus: 401, errors: { message: 'Неверный email или пароль' } });
      const unknown = await client().login(uniqueEmail('nobody'), 'whatever password');
      expect(unknown.json).toEqual(wrong.json);
      const c = client();
      const right = await c.login(email.toUpperCase());
      expect(right.status).toBe(200);
      expect(right.json.result.email).toBe(email);
      expect((await c.get('/api/v1.0/user/current')).status).toBe(200);
    });

    it('the profile changes its name; a name over 100 characters is a 400', async () => {
      const c = client();
      await c.register(uniqueEmail('profile'));
      const renamed = await c.put('/api/v1.0/user/current', { user_name: '  Анна  ' });
      expect(renamed.status).toBe(200);
      expect(renamed.json.result.user_name).toBe('Анна');
      expect((await c.get('/api/v1.0/user/current')).json.result.user_name).toBe('Анна');
      const long = await c.put('/api/v1.0/user/current', { user_name: 'я'.repeat(101) });
      expect(long.status).toBe(400);
      expect(long.json.errors.message).toContain('не более 100 символов');
      expect((await client().put('/api/v1.0/user/current', { user_name: 'x' })).status).toBe(401);
    });

    it('keeps the report hints a user hid for every browser the user logs in with; a bad state is a 400 and changes nothing', async () => {
      const email = uniqueEmail('hints');
      const here = client();
      await here.register(email);
      const fresh = (await here.get('/api/v1.0/user/current')).json.result;
      expect(fresh.hints).toEqual({ all: false, reports: [], tips: [], views: 0 });
      const hidden = { all: false, reports: ['geo', 'summary'], tips: ['reportGraph'], views: 2 };
      const saved = await here.put('/api/v1.0/user/current/hints', hidden);
      expect(saved.status).toBe(200);
      expect(saved.json.result.hints).toEqual(hidden);
      // Another browser: a new login of the same user reads the same state; the spec's metaTips flags follow it.
      const there = client();
      await there.login(email);
      const read = (await there.get('/api/v1.0/user/current')).json.result;
      expect(read.hints).toEqual(hidden);
      expect(read.metaTips).toMatchObject({ reportGraph: true, reportCsv: false });
      for (const bad of [
        { ...hidden, views: 4 },
        { ...hidden, tips: ['reportNothing'] },
        { ...hidden, reports: ['geo; DROP TABLE users'] },
        { ...hidden, all: 'yes' },
        { all: true },
      ]) {
        const refused = await there.put('/api/v1.0/user/current/hints', bad);
        expect(refused.status).toBe(400);
        expect(typeof refused.json.errors.message).toBe('string');
      }
      expect((await here.get('/api/v1.0/user/current')).json.result.hints).toEqual(hidden);
      expect((await client().put('/api/v1.0/user/current/hints', hidden)).status).toBe(401);
    });

    it('changes the password with the current one; other devices are logged out, this one stays', async () => {
      const email = uniqueEmail('password');
      const here = client();
      await here.register(email, 'old password 1');
      const there = client();
      await there.login(email, 'old password 1');
      const wrong = await here.post('/api/v1.0/user/current/password', { current_password: 'not it at all', new_password: 'new password 2' });
      expect(wrong.status).toBe(400);
      expect(wrong.json.errors.message).toBe('Неверный текущий пароль');
      const short = await here.post('/api/v1.0/user/current/password', { current_password: 'old password 1', new_password: 'short' });
      expect(short.status).toBe(400);
      expect((await there.get('/api/v1.0/user/current')).status).toBe(200);

      const changed = await here.post('/api/v1.0/user/current/password', { current_password: 'old password 1', new_password: 'new password 2' });
      expect(changed.status).toBe(200);
      expect((await here.get('/api/v1.0/user/current')).status).toBe(200);
      expect((await there.get('/api/v1.0/user/current')).status).toBe(401);
      expect((await there.post('/api/v1.0/auth/refresh')).status).toBe(401);
      expect((await client().login(email, 'old password 1')).status).toBe(401);
      expect((await client().login(email, 'new password 2')).status).toBe(200);
    });

    it('«Выйти на всех устройствах» ends every login of the user, this one too, and no other user’s', async () => {
      const email = uniqueEmail('everywhere');
      const here = client();
      await here.register(email);
      const there = client();
      await there.login(email);
      const other = client();
      await other.register(uniqueEmail('bystander'));
      const out = await here.post('/api/v1.0/user/current/logout_all');
      expect(out.status).toBe(204);
      expect(here.cookies.size).toBe(0);
      expect((await there.get('/api/v1.0/user/current')).status).toBe(401);
      expect((await there.post('/api/v1.0/auth/refresh')).status).toBe(401);
      expect((await other.get('/api/v1.0/user/current')).status).toBe(200);
      // A new login works at once.
      const again = client();
      expect((await again.login(email)).status).toBe(200);
      expect((await again.get('/api/v1.0/user/current')).status).toBe(200);
    });

    it('user/current is an empty 204 for a caller without login cookies, 401 for a made-up session or refresh cookie', async () => {
      // Nobody is logged in: nothing to refresh, so no error (spec 000 §7: 204 yields an empty result).
      const anonymous = await client().get('/api/v1.0/user/current');
      expect(anonymous.status).toBe(204);
      expect(anonymous.json).toBeNull();
      const forged = client();
      forged.cookies.set('stat_session', 'made-up-token');
      const refused = await forged.get('/api/v1.0/user/current');
      expect(refused.status).toBe(401);
      expect(refused.json).toEqual({ responseStatus: 401, errors: { message: 'Требуется вход' } });
      const stale = client();
      stale.cookies.set('stat_refresh', 'made-up-token');
      expect((await stale.get('/api/v1.0/user/current')).status).toBe(401);
      // The rest of the user's calls still demand a login.
      expect((await client().get('/api/v1.0/user/current/projects')).status).toBe(401);
    });

    it('403 without the CSRF header on a state-changing call, and nothing happens', async () => {
      const before = await count('users');
      const answer = await client().post('/api/v1.0/auth/register', { email: uniqueEmail('csrf'), password: 'long enough pass' }, { csrf: false });
      expect(answer.status).toBe(403);
      expect(answer.json.errors.message).toBe('CSRF check failed: send the X-Requested-With header');
      expect(await count('users')).toBe(before);
    });

    it('refresh mints a new session token once the old one is gone; without a refresh cookie it is 401', async () => {
      const c = client();
      await c.register(uniqueEmail('refresh'));
      c.cookies.delete('stat_session');
      expect((await c.get('/api/v1.0/user/current')).status).toBe(401);
      const refreshed = await c.post('/api/v1.0/auth/refresh');
      expect(refreshed.status).toBe(204);
      expect(refreshed.headers.getSetCookie()).toEqual([
        expect.stringMatching(/^stat_session=[\w-]{43}; Path=\/top100; Max-Age=900;/),
        expect.stringMatching(/^stat_refresh=[\w-]{43}; Path=\/top100; Max-Age=2592000;/),
      ]);
      expect((await c.get('/api/v1.0/user/current')).status).toBe(200);
      const none = await client().post('/api/v1.0/auth/refresh');
      expect(none.status).toBe(401);
      expect(none.json.errors.message).toBe('Сессия истекла, войдите снова');
    });

    it('logout ends the session and its refresh token, and clears the cookies', async () => {
      const c = client();
      await c.register(uniqueEmail('logout'));
      const kept = new Map(c.cookies);
      const out = await c.post('/logout');
      expect(out.status).toBe(204);
      expect(c.cookies.size).toBe(0);
      // The old cookies, replayed, no longer work.
      const replay = client();
      for (const [k, v] of kept) replay.cookies.set(k, v);
      expect((await replay.get('/api/v1.0/user/current')).status).toBe(401);
      expect((await replay.post('/api/v1.0/auth/refresh')).status).toBe(401);
    });

    it('logout ends every token of the login: both session tokens it minted and its refresh token', async () => {
      const c = client();
      await c.register(uniqueEmail('logout-all'));
      const first = c.cookies.get('stat_session');
      // A second session token of the same login (after a refresh), held by another tab.
      expect((await c.post('/api/v1.0/auth/refresh')).status).toBe(204);
      const second = c.cookies.get('stat_session');
      expect(second).not.toBe(first);
      const firstTab = withCookies({ stat_session: first as string });
      expect((await firstTab.get('/api/v1.0/user/current')).status).toBe(200);
      const refresh = c.cookies.get('stat_refresh') as string;
      expect((await c.post('/logout')).status).toBe(204);
      expect((await firstTab.get('/api/v1.0/user/current')).status).toBe(401);
      expect((await withCookies({ stat_session: second as string }).get('/api/v1.0/user/current')).status).toBe(401);
      expect((await withCookies({ stat_refresh: refresh }).post('/api/v1.0/auth/refresh')).status).toBe(401);
    });

    it('logout with only the refresh cookie ends the session token too', async () => {
      const c = client();
      await c.register(uniqueEmail('logout-refresh'));
      const session = c.cookies.get('stat_session') as string;
      const refresh = c.cookies.get('stat_refresh') as string;
      expect((await withCookies({ stat_refresh: refresh }).post('/logout')).status).toBe(204);
      expect((await withCookies({ stat_session: session }).get('/api/v1.0/user/current')).status).toBe(401);
      expect((await withCookies({ stat_refresh: refresh }).post('/api/v1.0/auth/refresh')).status).toBe(401);
    });

    it('logout with only the session cookie ends the refresh token too', async () => {
      const c = client();
      await c.register(uniqueEmail('logout-session'));
      const refresh = c.cookies.get('stat_refresh') as string;
      expect((await withCookies({ stat_session: c.cookies.get('stat_session') as string }).post('/logout')).status).toBe(204);
      expect((await withCookies({ stat_refresh: refresh }).post('/api/v1.0/auth/refresh')).status).toBe(401);
    });

    it('refresh rotates the refresh token: a new cookie each time, the old one no longer exchanged', async () => {
      const c = client();
      await c.register(uniqueEmail('rotate'));
      const seen = new Set([c.cookies.get('stat_refresh')]);
      for (let i = 0; i < 3; i++) {
        expect((await c.post('/api/v1.0/auth/refresh')).status).toBe(204);
        seen.add(c.cookies.get('stat_refresh'));
      }
      expect(seen.size).toBe(4);
      expect((await c.get('/api/v1.0/user/current')).status).toBe(200);
    });

    it('a refresh token presented again after it was exchanged ends the whole login (reuse detection)', async () => {
      const c = client();
      await c.register(uniqueEmail('reuse'));
      const stolen = c.cookies.get('stat_refresh') as string;
      const firstSession = c.cookies.get('stat_session') as string;
      expect((await c.post('/api/v1.0/auth/refresh')).status).toBe(204);
      expect((await c.post('/api/v1.0/auth/refresh')).status).toBe(204);
      expect((await c.get('/api/v1.0/user/current')).status).toBe(200);
      // Past the grace of parallel tabs, the first refresh token comes back.
      env().setNow(Date.now() + REFRESH_REUSE_GRACE_MS + 1000);
      onTestFinished(() => env().setNow(null));
      const thief = withCookies({ stat_refresh: stolen });
      const reused = await thief.post('/api/v1.0/auth/refresh');
      expect(reused.status).toBe(401);
      expect(reused.json).toEqual({ responseStatus: 401, errors: { message: 'Сессия истекла, войдите снова' } });
      // Every token of that login stops: the user's current ones and the first session token.
      expect((await c.get('/api/v1.0/user/current')).status).toBe(401);
      expect((await withCookies({ stat_session: firstSession }).get('/api/v1.0/user/current')).status).toBe(401);
      expect((await c.post('/api/v1.0/auth/refresh')).status).toBe(401);
    });

    it('two tabs that refresh with the same token at once both keep the session (grace of parallel refreshes)', async () => {
      const c = client();
      await c.register(uniqueEmail('tabs'));
      const refresh = c.cookies.get('stat_refresh') as string;
      const tabs = [withCookies({ stat_refresh: refresh }), withCookies({ stat_refresh: refresh })];
      const answers = await Promise.all(tabs.map((tab) => tab.post('/api/v1.0/auth/refresh')));
      expect(answers.map((a) => a.status)).toEqual([204, 204]);
      // One of them got the next refresh token; the other only a session token.
      const rotated = answers.filter((a) => a.headers.getSetCookie().some((cookie) => cookie.startsWith('stat_refresh=')));
      expect(rotated).toHaveLength(1);
      for (const tab of tabs) expect((await tab.get('/api/v1.0/user/current')).status).toBe(200);
    });

    it('80 concurrent wrong passwords for one e-mail: exactly 10 are checked, the other 70 are 429', async () => {
      const email = uniqueEmail('parallel-brute');
      const from = clientFromNewAddress(env());
      await from.register(email);
      const answers = await Promise.all(Array.from({ length: 80 }, (_, i) => new ApiClient(env().url, '/top100', from.address).login(email, `guess ${i}`)));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(70);
    });

    it('429 after 10 failed logins for one e-mail, even with the right password then', async () => {
      const email = uniqueEmail('brute');
      await client().register(email);
      for (let i = 0; i < 10; i++) expect((await client().login(email, `guess number ${i}`)).status).toBe(401);
      const blocked = await client().login(email);
      expect(blocked.status).toBe(429);
      expect(blocked.json).toEqual({ responseStatus: 429, errors: { message: 'Слишком много попыток входа. Попробуйте через 15 минут.' } });
    });
  });
}
