import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../auth/project-access.js';
import { ApiClient } from '../testing/client.js';
import { newUser, snapshot, userWithProject } from '../testing/fixtures.js';
import type { TestApi } from '../testing/harness.js';
import { BODY_NOT_OBJECT, DEPTH_MESSAGE } from './input-guard.js';

const LOGIN = '/api/v1.0/auth/login';
const REPORT = `/api/report/v1.0/report/${DEMO_PROJECT_ID}/summary/table`;
const deep = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
const deepObject = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

/** Hostile input is a 400 (never a 500) and changes nothing; api.test.ts and api.cluster.test.ts. */
export function inputSuite(env: () => TestApi): void {
  const anonymous = (): ApiClient => new ApiClient(env().url);
  const bad = (message: string | RegExp) => ({ responseStatus: 400, errors: { message: typeof message === 'string' ? message : expect.stringMatching(message) } });

  describe('hostile input', () => {
    it('a NUL in the login e-mail is 400, even anonymously', async () => {
      const answer = await anonymous().post(LOGIN, { email: 'a\u0000b@x.com', password: 'whatever it is' });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(bad('body.email must not contain NUL characters'));
    });

    it('a lone surrogate in a body string, a field name, the query or the path is 400', async () => {
      const { client } = await newUser(env());
      const raw = await anonymous().post(LOGIN, '{"email":"\\ud800@x.com","password":"whatever it is"}');
      expect(raw.json).toEqual(bad('body.email must be well-formed Unicode (a lone surrogate)'));
      const key = await anonymous().post(LOGIN, '{"email":"a@x.com","password":"whatever it is","\\udc00":1}');
      expect(key.json).toEqual(bad('a field name in body must be well-formed Unicode (a lone surrogate)'));
      const query = await client.get('/api/v1.0/project/projects_with_same_url?url=a%00b');
      expect(query.json).toEqual(bad('query.url must not contain NUL characters'));
      const path = await client.get('/api/report/v1.0/report/1/a%00b/table');
      expect(path.status).toBe(400);
    });

    it('JSON nested 10 000 deep on the login is 400', async () => {
      for (const body of [deep(10_000), deepObject(10_000)]) {
        const answer = await anonymous().post(LOGIN, body);
        expect(answer.status).toBe(400);
        expect(answer.json).toEqual(bad(DEPTH_MESSAGE));
      }
    });

    it('JSON nested 10 000 deep on an anonymous report call is 400', async () => {
      const answer = await anonymous().post(REPORT, `{"date_start":"2024-01-01","filters":${deepObject(10_000)}}`);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(bad(DEPTH_MESSAGE));
      // 32 levels are read (and then refused by the report's own rules, not by depth).
      const fine = await anonymous().post(REPORT, `{"date_start":"2024-01-01","filters":${deepObject(31)}}`);
      expect(fine.status).toBe(400);
      expect(fine.json.errors.message).not.toBe(DEPTH_MESSAGE);
    });

    it('a body that is not an object (null, an array, a string, a number) is 400', async () => {
      for (const body of ['null', '[]', '"text"', '5', 'true']) {
        const answer = await anonymous().post(LOGIN, body);
        expect(answer.json, body).toEqual(bad(BODY_NOT_OBJECT));
      }
      // No body at all: 400 too, also where every field is optional (a project's save).
      expect((await anonymous().post(LOGIN)).json).toEqual(bad(BODY_NOT_OBJECT));
      const { client, projectId } = await userWithProject(env());
      expect((await client.put(`/api/v1.0/project/${projectId}`)).json).toEqual(bad(BODY_NOT_OBJECT));
    });

    it('a __proto__ or constructor key is 400', async () => {
      for (const body of ['{"__proto__":{"x":1},"email":"a@x.com","password":"whatever it is"}', '{"constructor":{"prototype":{"x":1}}}']) {
        expect((await anonymous().post(LOGIN, body)).status, body).toBe(400);
      }
    });

    it('rating ids of 2^31 and more are 400, never a query', async () => {
      const owner = await userWithProject(env());
      const moderator = await newUser(env(), 2);
      const before = await snapshot(env().db);
      for (const field of ['categories', 'regions', 'types']) {
        for (const id of [2 ** 31, 2 ** 32, 2 ** 53, -1, 0]) {
          const answer = await owner.client.put(`/api/v1.0/project/${owner.projectId}`, { [field]: [id] });
          expect(answer.status, `${field} ${id}`).toBe(400);
        }
      }
      for (const id of ['2147483648', '4294967296', '99999999999']) {
        expect((await anonymous().get(`/api/v1.0/rating/catalogue?category_id=${id}`)).status, id).toBe(400);
        expect((await moderator.client.post(`/api/v1.0/rating/moderation/${id}`, { action: 'include' })).status, id).toBe(400);
        expect((await owner.client.post(`/api/v1.0/project/${owner.projectId}/access_request/${id}`, { action_request: 'decline' })).status, id).toBe(400);
      }
      expect(await snapshot(env().db)).toBe(before);
    });

    it('place ids beyond the UInt32 of ch_geo are 400', async () => {
      for (const ids of ['9999999999', '1,4294967296']) {
        expect((await anonymous().get(`/api/report/v1.0/ch_geo?geo_ids=${ids}`)).status, ids).toBe(400);
      }
      expect((await anonymous().get('/api/report/v1.0/ch_geo?geo_ids=1,4294967295')).status).toBe(200);
    });

    it('PATCH access with {} is 400', async () => {
      const owner = await userWithProject(env());
      const before = await snapshot(env().db);
      const answer = await owner.client.patch(`/api/v1.0/project/${owner.projectId}/access`, {});
      expect(answer.status).toBe(400);
      expect(answer.json.responseStatus).toBe(400);
      expect(await snapshot(env().db)).toBe(before);
    });

    it('PATCH access with null is 400', async () => {
      const owner = await userWithProject(env());
      const before = await snapshot(env().db);
      for (const body of ['null', '{"data":null}', '{"data":{"users":null}}', '{"data":[]}']) {
        const answer = await owner.client.patch(`/api/v1.0/project/${owner.projectId}/access`, body);
        expect(answer.status, body).toBe(400);
      }
      expect(await snapshot(env().db)).toBe(before);
    });

    it('every answer carries a request id, nosniff and X-Frame-Options DENY', async () => {
      for (const answer of [await anonymous().get('/api/v1.0/user/current'), await anonymous().post(LOGIN, 'null'), await anonymous().get('/api/report/v1.0/service/time')]) {
        expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
        expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
        expect(answer.headers.get('x-frame-options')).toBe('DENY');
      }
    });
  });
}
