import { describe, expect, it } from 'vitest';
import { STORE_NOT_READY_MESSAGE } from '../common/error.filter.js';
import { addTraffic, userWithProject } from '../testing/fixtures.js';
import { useTestApi, type TestApi } from '../testing/harness.js';

// Needs: the api in-process (chDB + PGlite); an api of its own, for the last test drops tables
// of its chDB. The report CSV (§7 …/csv) begins the file only with its first rows: a call that
// fails before them is answered as any report call's error, never as a file of a header alone.

let api: TestApi;
let owner: Awaited<ReturnType<typeof userWithProject>>;
const DAY_MS = 86_400_000;
/** The Moscow day `back` days before today, YYYY-MM-DD. */
const day = (back: number): string => new Date(Date.now() + 3 * 3_600_000 - back * DAY_MS).toISOString().slice(0, 10);
const yesterday = day(1);
const body = { date_start: day(2), date_end: yesterday, group: 'day', metrics: ['page_views'] };
const shown = (date: string): string => date.split('-').reverse().join('.');

useTestApi({ file: 'csv.api.test.ts' }, async (started) => {
  api = started;
  owner = await userWithProject(api);
  await addTraffic(api.clickhouse, owner.projectId, Date.parse(`${yesterday}T09:00:00Z`), 5, 2);
});

const csv = (report: string, more: Record<string, unknown> = {}) => owner.client.post(`/api/report/v1.0/report/${owner.projectId}/${report}/csv`, { ...body, ...more });

describe('the report CSV', () => {
  it('is the file when the queries answer', async () => {
    const answer = await csv('summary');
    // (The client's decoding drops the file's byte-order mark.)
    expect([answer.status, answer.headers.get('content-type'), answer.json]).toEqual([
      200,
      'text/csv; charset=utf-8',
      `Дата;Просмотры\r\nИтого;5\r\n${shown(yesterday)};5\r\n${shown(day(2))};0\r\n`,
    ]);
  });

  it('takes the title of §7 in the body and names the file by it and the period', async () => {
    const answer = await csv('summary', { title: 'Посещаемость сайта' });
    expect([answer.status, answer.headers.get('content-disposition'), answer.json]).toEqual([
      200,
      `attachment; filename="summary_${day(2)}_${yesterday}.csv"; filename*=UTF-8''${encodeURIComponent(`Посещаемость сайта ${day(2)} — ${yesterday}.csv`)}`,
      `Дата;Просмотры\r\nИтого;5\r\n${shown(yesterday)};5\r\n${shown(day(2))};0\r\n`,
    ]);
  });

  it('names the file by the report’s own title when the title sent is blank', async () => {
    const answer = await csv('summary', { title: '   ' });
    expect([answer.status, answer.headers.get('content-disposition')]).toEqual([
      200,
      `attachment; filename="summary_${day(2)}_${yesterday}.csv"; filename*=UTF-8''${encodeURIComponent(`Посещаемость ${day(2)} — ${yesterday}.csv`)}`,
    ]);
  });

  it('refuses a title of more than 255 characters with 400 JSON', async () => {
    const answer = await csv('summary', { title: 'я'.repeat(256) });
    expect([answer.status, answer.headers.get('content-disposition'), answer.json]).toEqual([
      400,
      null,
      { responseStatus: 400, errors: { message: 'title must be shorter than or equal to 255 characters' } },
    ]);
  });

  it('refuses a published time compared with a word with 400 JSON, before any byte of a file', async () => {
    const answer = await csv('traffic_sources', { dimension_filters: [{ key: 'published_datetime', op: '=', value: 'завтра' }] });
    expect([answer.status, answer.headers.get('content-type'), answer.headers.get('content-disposition'), answer.json]).toEqual([
      400,
      'application/json; charset=utf-8',
      null,
      { responseStatus: 400, errors: { message: 'dimension_filters.0.value of published_datetime must be a date and time written YYYY-MM-DD HH:MM:SS (UTC), from 1970-01-01 00:00:00 to 2106-02-07 06:28:15: "завтра" is not one' } },
    ]);
  });

  it('answers the error of a query that fails before the first row as JSON (503, the store not ready), not a file of a header alone', async () => {
    const tables = await (await api.clickhouse.query({ query: "SELECT name FROM system.tables WHERE database = currentDatabase() AND (name IN ('events', 'visits') OR name LIKE 'rollup%')", format: 'JSONEachRow' })).json<{ name: string }>();
    for (const { name } of tables) await api.clickhouse.command({ query: `DROP TABLE ${name}` });
    for (const report of ['summary', 'traffic_sources']) {
      const answer = await csv(report);
      expect([report, answer.status, answer.headers.get('content-disposition'), answer.json]).toEqual([
        report,
        503,
        null,
        { responseStatus: 503, errors: { message: STORE_NOT_READY_MESSAGE, request_id: expect.any(String) } },
      ]);
    }
  });
});
