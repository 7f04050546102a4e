import { describe, expect, it } from 'vitest';
import { userWithProject } from '../testing/fixtures.js';
import { useTestApi, type TestApi } from '../testing/harness.js';
import { EXPORT_FORBIDDEN } from './export.service.js';

// Needs: nothing but the build. The data export (spec 002 §2, §5, §6, §9) against the api running
// in this process on PGlite and chDB, on four events whose file was written out by hand.

let api: TestApi;
useTestApi({ file: 'export.api.test.ts' }, (started) => {
  api = started;
});

const ANALYST = 3;
const HOUR = 3_600_000;

/** Moscow noon of the day `days` before today, in ms. */
function moscowNoon(days: number): number {
  const today = new Date(Date.now() + 3 * HOUR).toISOString().slice(0, 10);
  return Date.parse(`${today}T09:00:00Z`) - days * 24 * HOUR;
}
const dateOf = (ms: number) => new Date(ms + 3 * HOUR).toISOString().slice(0, 10);
const moscowTime = (ms: number) => new Date(ms + 3 * HOUR).toISOString().slice(0, 19).replace('T', ' ');

async function addEvents(projectId: number, rows: Record<string, unknown>[]): Promise<void> {
  await api.clickhouse.insert({ table: 'events', format: 'JSONEachRow', values: rows.map((r) => ({ project_id: projectId, visitor_id: 'v1', ...r })) });
}

describe('the data export', () => {
  it('gives staff a data address that streams the period’s events, oldest first, up to the limit, with the chosen fields', async () => {
    const analyst = await userWithProject(api, ANALYST);
    const day = moscowNoon(1);
    const ev = (at: number, more: Record<string, unknown>) => ({ ts: new Date(at).toISOString().replace('T', ' ').replace('Z', ''), event_date: dateOf(at), event_key: String(at), ...more });
    await addEvents(analyst.projectId, [
      // Two days before: outside the period.
      ev(day - 2 * 24 * HOUR, { event_type: 'pageview', url: 'https://site.ru/old', session_id: 1, session_number: 1, event_number: 1 }),
      // The day: a visit of two events, then a second visit of a logged-in user with a custom event.
      ev(day + 60_000, { event_type: 'event', url: 'https://site.ru/b', session_id: 7, session_number: 2, event_number: 2, event_class: 'form', event_name: 'send' }),
      ev(day, { event_type: 'pageview', url: 'https://site.ru/a', session_id: 7, session_number: 2, event_number: 1 }),
      ev(day + 120_000, { event_type: 'pageview', url: 'https://site.ru/c', session_id: 9, session_number: 3, event_number: 1, user_id: '=1+2' }),
    ]);
    const asked = { date_start: dateOf(day), date_end: dateOf(day), limit: 2, fields: ['session_id', 'event_number_in_session', 'event_class', 'event_name', 'publisher_uid'] };
    const linked = await analyst.client.post(`/api/v1.0/${analyst.projectId}/export/link`, asked);
    expect(linked.status).toBe(200);
    const { url, expires_at } = linked.json.result as { url: string; expires_at: string };
    expect(url).toMatch(/^http:\/\/.+\/top100\/api\/v1\.0\/export\/[\w-]{32}\.csv$/);
    // Valid for 7 days.
    expect(Math.round((Date.parse(expires_at) - Date.now()) / (24 * HOUR))).toBe(7);

    // The address alone opens the file: no session needed.
    const file = await fetch(`${api.url}${new URL(url).pathname}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await file.arrayBuffer());
    expect(text).toBe(
      '\uFEFFdate_time;event_type;url;session_id;event_number_in_session;event_class;event_name;publisher_uid\r\n' +
        `${moscowTime(day)};pageview;https://site.ru/a;7;1;;;\r\n` +
        `${moscowTime(day + 60_000)};event;https://site.ru/b;7;2;form;send;\r\n`,
    );
    // The limit decides how many; a value that a spreadsheet would take for a formula is written as text.
    const all = await analyst.client.post(`/api/v1.0/${analyst.projectId}/export/link`, { ...asked, limit: 10, fields: ['publisher_uid'] });
    const allText = await (await fetch(`${api.url}${new URL(all.json.result.url).pathname}`)).text();
    expect(allText.trim().split('\r\n').slice(1)).toEqual([
      `${moscowTime(day)};pageview;https://site.ru/a;`,
      `${moscowTime(day + 60_000)};event;https://site.ru/b;`,
      `${moscowTime(day + 120_000)};pageview;https://site.ru/c;'=1+2`,
    ]);
  });

  it('takes the fields joined by commas, as spec 002 §7 gives them, for the same file as their list', async () => {
    const analyst = await userWithProject(api, ANALYST);
    const day = moscowNoon(1);
    await addEvents(analyst.projectId, [
      { ts: new Date(day).toISOString().replace('T', ' ').replace('Z', ''), event_date: dateOf(day), event_key: String(day), event_type: 'event', url: 'https://site.ru/a', session_id: 5, event_class: 'form', event_name: 'send' },
    ]);
    const link = async (fields: unknown) => analyst.client.post(`/api/v1.0/${analyst.projectId}/export/link`, { date_start: dateOf(day), date_end: dateOf(day), limit: 1, fields });
    const file = async (url: string) => (await fetch(`${api.url}${new URL(url).pathname}`)).text();
    const joined = await link('session_id, event_name,');
    expect(joined.json).toEqual({ responseStatus: 200, result: { url: expect.stringMatching(/\/export\/[\w-]{32}\.csv$/), expires_at: expect.any(String) } });
    const listed = await link(['session_id', 'event_name']);
    const text = 'date_time;event_type;url;session_id;event_name\r\n' + `${moscowTime(day)};event;https://site.ru/a;5;send\r\n`;
    expect([await file(joined.json.result.url), await file(listed.json.result.url)]).toEqual([text, text]);
  });

  it('refuses users who are neither staff nor analysts, and bad requests, with a message', async () => {
    const owner = await userWithProject(api);
    const refused = await owner.client.post(`/api/v1.0/${owner.projectId}/export/link`, { date_start: 'today', date_end: 'today', limit: 1, fields: [] });
    expect(refused.status).toBe(403);
    expect(refused.json.errors.message).toBe(EXPORT_FORBIDDEN);

    const analyst = await userWithProject(api, ANALYST);
    const path = `/api/v1.0/${analyst.projectId}/export/link`;
    const bad = async (body: Record<string, unknown>) => {
      const answer = await analyst.client.post(path, { date_start: 'today', date_end: 'today', limit: 1, fields: [], ...body });
      return [answer.status, typeof answer.json?.errors?.message === 'string' && answer.json.errors.message.length > 0];
    };
    expect(await bad({ limit: 0 })).toEqual([400, true]);
    expect(await bad({ limit: '1e3' })).toEqual([400, true]);
    expect(await bad({ fields: ['version'] })).toEqual([400, true]); // not collected here
    expect(await bad({ fields: ['url', 'url'] })).toEqual([400, true]);
    expect(await bad({ fields: 'session_id,version' })).toEqual([400, true]); // joined by commas, checked the same
    expect(await bad({ date_start: 'tomorrow' })).toEqual([400, true]);
    expect(await bad({ date_start: '2026-11-10', date_end: '2026-11-01' })).toEqual([400, true]);
  });

  it('answers 404 with a message for an address that is not (or no longer) valid', async () => {
    const answer = await fetch(`${api.url}/top100/api/v1.0/export/abcdefghijklmnopqrstuvwxyz012345.csv`);
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { errors: { message: string } }).errors.message).toContain('недействительна');
  });
});
