import { beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../testing/client.js';
import { newUser, userWithProject } from '../testing/fixtures.js';
import { useTestApi, type TestApi } from '../testing/harness.js';

// Needs: the build (web/dist, counter-snippet/dist). An api of its own, so that its store starts
// empty and holds only the events written here, all on fixed past dates: the answers do not
// depend on the day or the time of day the test runs.
let api: TestApi;
/** What the embedded server's demo seed would say (GET demo/state). */
let demoFilling = false;
useTestApi({ file: 'eventbase-latency.test.ts', demoState: () => ({ filling: demoFilling }) }, (started) => {
  api = started;
});

const PATH = '/api/report/v1.0/service/eventbase_latency';
const EMPTY = { start: null, end: null, end_timestamp: null };
const seconds = (iso: string): number => Date.parse(iso) / 1000;

let written = 0;
/** Writes page views of `projectId` at UTC instants into `events`; the views fill the rollups. */
async function writeEvents(projectId: number, instants: string[]): Promise<void> {
  await api.clickhouse.insert({
    table: 'events',
    format: 'JSONEachRow',
    values: instants.map((at) => {
      written += 1;
      return {
        event_key: String(written),
        project_id: projectId,
        event_type: 'pageview',
        ts: at.replace('T', ' ').replace('Z', ''),
        // The Moscow day, as the aggregator writes it.
        event_date: new Date(Date.parse(at) + 3 * 3_600_000).toISOString().slice(0, 10),
        visitor_id: `visitor-${written}`,
        session_id: written,
      };
    }),
  });
}

describe('GET service/eventbase_latency', () => {
  // Runs first: the store is still empty.
  it('answers nulls, not an error, while nothing is stored', async () => {
    const answer = await new ApiClient(api.url).get(PATH);
    expect([answer.status, answer.json]).toEqual([200, { responseStatus: 200, result: EMPTY }]);
  });

  it('answers a project with no events nulls, while other projects have some', async () => {
    const quiet = await userWithProject(api);
    const busy = await userWithProject(api);
    await writeEvents(busy.projectId, ['2025-06-01T10:00:00Z']);
    const answer = await quiet.client.get(`${PATH}/${quiet.projectId}`);
    expect([answer.status, answer.json]).toEqual([200, { responseStatus: 200, result: EMPTY }]);
  });

  describe('with events of two projects', () => {
    let owner: Awaited<ReturnType<typeof userWithProject>>;
    let other: Awaited<ReturnType<typeof userWithProject>>;
    beforeAll(async () => {
      owner = await userWithProject(api);
      other = await userWithProject(api);
      // 2026-01-10 12:00 and 2026-02-20 23:58 in Moscow.
      await writeEvents(owner.projectId, ['2026-02-20T20:58:00Z', '2026-01-10T09:00:00Z']);
      // 2026-03-05 11:07 in Moscow.
      await writeEvents(other.projectId, ['2026-03-05T08:07:00Z']);
    });

    it('spans the store from the first Moscow day to the last five-minute bucket with an event', async () => {
      const answer = await new ApiClient(api.url).get(PATH);
      expect(answer.json).toEqual({
        responseStatus: 200,
        // The project written in the test before holds the first day.
        result: { start: '2025-06-01', end: '2026-03-05', end_timestamp: seconds('2026-03-05T08:05:00Z') },
      });
    });

    it("spans one project's own events for whoever may view it", async () => {
      const answer = await owner.client.get(`${PATH}/${owner.projectId}`);
      expect(answer.json).toEqual({
        responseStatus: 200,
        result: { start: '2026-01-10', end: '2026-02-20', end_timestamp: seconds('2026-02-20T20:55:00Z') },
      });
    });

    it('refuses an anonymous caller on a private project with 401', async () => {
      const answer = await new ApiClient(api.url).get(`${PATH}/${owner.projectId}`);
      expect([answer.status, answer.json]).toEqual([401, { responseStatus: 401, errors: { message: 'Требуется вход' } }]);
    });

    it("refuses another user's project with 403", async () => {
      const answer = await other.client.get(`${PATH}/${owner.projectId}`);
      expect([answer.status, answer.json]).toEqual([403, { responseStatus: 403, errors: { message: 'Доступ запрещен' } }]);
    });

    it('answers an unknown project 404', async () => {
      const stranger = await newUser(api);
      const answer = await stranger.client.get(`${PATH}/2147483647`);
      expect([answer.status, answer.json]).toEqual([404, { responseStatus: 404, errors: { message: 'Счётчик не найден' } }]);
    });

    it('answers a deleted project 404, even to its owner', async () => {
      const gone = await userWithProject(api);
      await writeEvents(gone.projectId, ['2026-01-02T10:00:00Z']);
      expect((await gone.client.delete(`/api/v1.0/project/${gone.projectId}`)).status).toBe(200);
      const answer = await gone.client.get(`${PATH}/${gone.projectId}`);
      expect([answer.status, answer.json]).toEqual([404, { responseStatus: 404, errors: { message: 'Счётчик не найден' } }]);
    });

    it('refuses a malformed project id with 400', async () => {
      const answer = await owner.client.get(`${PATH}/1e3`);
      expect([answer.status, answer.json]).toEqual([400, { responseStatus: 400, errors: { message: 'projectId must be a whole number from 1 to 2147483647' } }]);
    });

    it('refuses project_id as a query parameter (the project goes in the path) with 400', async () => {
      const answer = await owner.client.get(`${PATH}?project_id=${owner.projectId}`);
      expect([answer.status, answer.json]).toEqual([400, { responseStatus: 400, errors: { message: 'property project_id should not exist' } }]);
    });
  });
});

describe('GET demo/state', () => {
  it('says whether the demo project is still being filled, to anyone', async () => {
    const anonymous = new ApiClient(api.url);
    expect((await anonymous.get('/api/v1.0/demo/state')).json).toEqual({ responseStatus: 200, result: { filling: false } });
    demoFilling = true;
    try {
      expect((await anonymous.get('/api/v1.0/demo/state')).json).toEqual({ responseStatus: 200, result: { filling: true } });
    } finally {
      demoFilling = false;
    }
    const asked = await anonymous.get('/api/v1.0/demo/state?project_id=1');
    expect(asked.status).toBe(400);
  });
});
