import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventKeyOf } from '@stat/schemas';
import { createLogger } from '@stat/telemetry';
import { startTestApi, type TestApi } from '../testing/harness.js';
import { newUser, noonOfToday, userWithProject } from '../testing/fixtures.js';
import type { ApiClient } from '../testing/client.js';

// Needs: the api in this process on its own chDB; a small traffic of today whose every number
// below was counted by hand. The api's clock is fixed at 12:30:00 Moscow time.
const NOW = noonOfToday();
const TODAY = new Date(NOW + 3 * 3_600_000).toISOString().slice(0, 10);
/** Epoch seconds of a Moscow wall-clock time of today. */
const sec = (hhmmss: string): number => Date.parse(`${TODAY}T${hhmmss}+03:00`) / 1000;
const utc = (hhmmss: string): string => new Date(sec(hhmmss) * 1000).toISOString().replace('T', ' ').replace('Z', '');

const SEARCH = { traffic_type: 'search', traffic_system: 'yandex', search_system: 'yandex', search_phrase: 'купить слона' };
const SOCIAL = { traffic_type: 'social', traffic_system: 'vk', social_network: 'vk', utm_source: 'vk', utm_medium: 'social' };
const DIRECT = { traffic_type: 'direct' };

interface Fixture {
  type: 'pageview' | 'event' | 'engagement';
  at: string;
  visitor: string;
  session: number;
  n: number;
  path: string;
  more?: Record<string, unknown>;
}

/**
 * d: 08:00 one page (direct, Yandex format), long before every window but «since the start of today».
 * b: 12:10 «/» then 12:22 «/news/1» (direct).
 * a: 12:27 «/news/1», 12:28:30 «/news/2», 12:29 the event «subscribe» (from a Yandex search).
 * c: 12:29:30 «/news/2?from=vk» (VK, utm_source vk), 12:29:40 «subscribe», 12:29:50 «share».
 * e: 11:50 «/news/1» (direct, web), before the 30 minutes' window; its engaged time reported at 12:05,
 *    inside it: e viewed no page in the window (not a visitor of «/news/1» there).
 * Page formats, one page view each: b web, android; a ios, amp; c turbo; d yandex; e web.
 */
const EVENTS: Fixture[] = [
  { type: 'pageview', at: '08:00:00', visitor: 'd', session: 4, n: 1, path: '/', more: { ...DIRECT, page_format: 'yandex' } },
  { type: 'pageview', at: '11:50:00', visitor: 'e', session: 5, n: 1, path: '/news/1', more: { ...DIRECT, page_format: 'web' } },
  { type: 'engagement', at: '12:05:00', visitor: 'e', session: 5, n: 2, path: '/news/1', more: { ...DIRECT, engaged_ms: 40_000 } },
  { type: 'pageview', at: '12:10:00', visitor: 'b', session: 2, n: 1, path: '/', more: { ...DIRECT, page_format: 'web', geo_country: 630336 } },
  { type: 'pageview', at: '12:22:00', visitor: 'b', session: 2, n: 2, path: '/news/1', more: { ...DIRECT, page_format: 'android', geo_country: 630336 } },
  { type: 'pageview', at: '12:27:00', visitor: 'a', session: 1, n: 1, path: '/news/1', more: { ...SEARCH, page_format: 'ios', geo_country: 2017370 } },
  { type: 'pageview', at: '12:28:30', visitor: 'a', session: 1, n: 2, path: '/news/2', more: { ...SEARCH, page_format: 'amp', geo_country: 2017370 } },
  { type: 'event', at: '12:29:00', visitor: 'a', session: 1, n: 3, path: '/news/2', more: { ...SEARCH, geo_country: 2017370, event_class: 'cv', event_name: 'subscribe' } },
  { type: 'pageview', at: '12:29:30', visitor: 'c', session: 3, n: 1, path: '/news/2?from=vk', more: { ...SOCIAL, page_format: 'turbo', geo_country: 2017370 } },
  { type: 'event', at: '12:29:40', visitor: 'c', session: 3, n: 2, path: '/news/2?from=vk', more: { ...SOCIAL, geo_country: 2017370, event_class: 'cv', event_name: 'subscribe' } },
  { type: 'event', at: '12:29:50', visitor: 'c', session: 3, n: 3, path: '/news/2?from=vk', more: { ...SOCIAL, geo_country: 2017370, event_class: 'cv', event_name: 'share' } },
];

let api: TestApi;
/** The api's log lines: each report query it ran says so (`report query`, `report query failed`). */
const logLines: string[] = [];
const reportQueries = (): number => logLines.filter((line) => /"msg":"report query/.test(line)).length;
let owner: ApiClient;
let projectId: number;

beforeAll(async () => {
  const logger = createLogger({ role: 'api', level: 'info', destination: { write: (line: string) => void logLines.push(line) } });
  api = await startTestApi({ file: 'realtime.api.test.ts', logger });
  api.setNow(NOW);
  ({ client: owner, projectId } = await userWithProject(api));
  const starts: Record<string, string> = { a: '12:27:00', b: '12:10:00', c: '12:29:30', d: '08:00:00', e: '11:50:00' };
  await api.clickhouse.insert({
    table: 'events',
    format: 'JSONEachRow',
    values: EVENTS.map((f) => {
      const url = `https://site.example${f.path}`;
      return {
        event_key: eventKeyOf(crypto.randomUUID()),
        project_id: projectId,
        event_type: f.type,
        ts: utc(f.at),
        event_date: TODAY,
        visitor_id: f.visitor,
        session_id: f.session,
        session_start: utc(starts[f.visitor]!),
        event_number: f.n,
        url,
        url_no_args: url.split('?')[0],
        ...f.more,
      };
    }),
  });
  await api.clickhouse.insert({ table: 'ch_traffic_systems', format: 'JSONEachRow', values: [{ traffic_type: 'social', id: 'vk', name: 'ВКонтакте', digest: 'a', version: 1 }] });
});

afterAll(async () => {
  await api.close();
});

const realtime = (body: Record<string, unknown>, client: ApiClient = owner) =>
  client.post(`/api/report/v1.0/eventbase/${projectId}/realtime`, { date_start: 'today', date_end: 'today', group: 'minute', ...body });

/** Rows as [title, ...metrics]: what the widget shows. */
const shown = (table: { data: { title: string; metrics: number[] }[] }): (string | number)[][] => table.data.map((r) => [r.title, ...r.metrics]);

describe('POST /api/report/v1.0/eventbase/{projectId}/realtime', () => {
  it('counts the visitors of the last 5 minutes as «current users», up from the 5 minutes before', async () => {
    const { status, json } = await realtime({ sections: ['current_user_count'] });
    expect(status).toBe(200);
    // 12:25:01–12:30:00: a and c; 12:20:01–12:25:00: b.
    expect(json.result.current_user_count).toEqual({ value: 2, previous: 1, diff: 'up', minutes: 5 });
    expect(Object.keys(json.result).sort()).toEqual(['current_user_count', 'meta']);
  });

  it('answers every section over the last 30 minutes', async () => {
    const { status, json } = await realtime({ period: 30, widget_params: { events: { metrics: ['share'] } } });
    expect(status).toBe(200);
    const r = json.result;
    expect(r.meta).toEqual({ date_start: TODAY, date_end: TODAY, group: 'minute', since: sec('12:00:00'), server_time: NOW, sample: 1 });
    // Page views by minute from 12:00 to 12:30: b's two, a's two, c's one.
    const points = r.page_views.data[0].points as { ts: number; metrics: number[] }[];
    expect(points).toHaveLength(31);
    expect(points[0]!.ts).toBe(sec('12:00:00'));
    expect(points.filter((p) => p.metrics[0]! > 0).map((p) => [p.ts, p.metrics[0]])).toEqual([
      [sec('12:10:00'), 1],
      [sec('12:22:00'), 1],
      [sec('12:27:00'), 1],
      [sec('12:28:00'), 1],
      [sec('12:29:00'), 1],
    ]);
    expect(r.page_views.totals).toEqual([5]);
    // Visits that started in the window, one of each source; the lines are the rows.
    expect(shown(r.traffic_sources)).toEqual([
      ['Прямые заходы', 1],
      ['Поисковые системы', 1],
      ['Социальные сети', 1],
    ]);
    expect(r.traffic_sources.graph.data.map((l: { title: string; points: { ts: number; metrics: number[] }[] }) => [l.title, l.points.filter((p) => p.metrics[0]! > 0).map((p) => p.ts)])).toEqual([
      ['Прямые заходы', [sec('12:10:00')]],
      ['Поисковые системы', [sec('12:27:00')]],
      ['Социальные сети', [sec('12:29:00')]],
    ]);
    // Pages by views, then visitors.
    expect(shown(r.active_pages)).toEqual([
      ['https://site.example/news/1', 2, 2],
      ['https://site.example/news/2', 2, 2],
      ['https://site.example/', 1, 1],
    ]);
    expect(r.active_pages.totals).toEqual([5, 3]);
    // Gender is not collected: every visit of the window is «Не определено».
    expect(shown(r.audience)).toEqual([
      ['Мужчины', 0],
      ['Женщины', 0],
      ['Не определено', 3],
    ]);
    expect(r.audience.dimension).toBe('gender');
    // Five page views in five formats: no «Прочее».
    expect(shown(r.platforms)).toEqual([
      ['amp', 1],
      ['android', 1],
      ['ios', 1],
      ['turbo', 1],
      ['web', 1],
    ]);
    expect(shown(r.events)).toEqual([
      ['subscribe', 2],
      ['share', 1],
    ]);
    expect(r.events.graph.data.map((l: { title: string; points: { ts: number; metrics: number[] }[] }) => [l.title, l.points.filter((p) => p.metrics[0]! > 0).map((p) => [p.ts, p.metrics[0]])])).toEqual([
      ['share', [[sec('12:29:00'), 1]]],
    ]);
    expect(r.events.events_list).toEqual([
      { value: 'subscribe', title: 'subscribe' },
      { value: 'share', title: 'share' },
    ]);
    expect(shown(r.utms)).toEqual([['vk', 1, 1]]);
  });

  it('reads the last 5 minutes, and the whole of today', async () => {
    const five = await realtime({ period: 5, sections: ['page_views', 'platforms'] });
    expect(five.json.result.page_views.totals).toEqual([3]);
    expect(five.json.result.page_views.data[0].points).toHaveLength(6);
    // The whole day: six formats, seven views (web twice: b and e); web first, the next four by name, the sixth is «Прочее».
    const day = await realtime({ group: 'five_minute', sections: ['page_views', 'platforms', 'audience'], widget_params: { audience: { dimension: 'geo_country' } } });
    expect(day.status).toBe(200);
    expect(day.json.result.meta.since).toBeNull();
    expect(day.json.result.page_views.totals).toEqual([7]);
    expect(shown(day.json.result.platforms)).toEqual([
      ['web', 2],
      ['amp', 1],
      ['android', 1],
      ['ios', 1],
      ['turbo', 1],
      ['Прочее', 1],
    ]);
    // Countries by visits, equal counts by value: d and e from nowhere known, a and c from 2017370, b from 630336.
    expect(day.json.result.audience.data.map((r: { extra: { value: number }; metrics: number[] }) => [r.extra.value, r.metrics[0]])).toEqual([
      [0, 2],
      [2017370, 2],
      [630336, 1],
    ]);
    // The day's pages, each with the visitors who viewed it: «/news/1» by b, a and e.
    const pages = await realtime({ sections: ['active_pages'] });
    expect(shown(pages.json.result.active_pages)).toEqual([
      ['https://site.example/news/1', 3, 3],
      ['https://site.example/', 2, 2],
      ['https://site.example/news/2', 2, 2],
    ]);
  });

  it('shows one source group’s systems when the filter names it', async () => {
    const { json } = await realtime({ period: 30, sections: ['traffic_sources'], widget_params: { traffic_sources: { traffic_type: 'social' } } });
    expect(json.result.traffic_sources.report).toBe('social_network');
    expect(json.result.traffic_sources.traffic_type).toBe('social');
    expect(shown(json.result.traffic_sources)).toEqual([['ВКонтакте', 1]]);
  });

  it('applies the dimension filters to every section', async () => {
    const { json } = await realtime({ period: 30, sections: ['current_user_count', 'page_views'], dimension_filters: [{ key: 'traffic_type', op: '=', value: 'search' }] });
    expect(json.result.current_user_count).toEqual({ value: 1, previous: 0, diff: 'up', minutes: 5 });
    expect(json.result.page_views.totals).toEqual([2]);
  });

  it.each([
    [{ period: 7 }, 'period must be one of the following values: 5, 30, 60, 120, 240, today'],
    [{ sections: ['weather'] }, 'each value in sections must be one of the following values'],
    [{ widget_params: { traffic_sources: { limit: 6 } } }, 'widget_params: limit must not exceed 5'],
    [{ widget_params: { events: { metrics: ['a', 'b', 'c', 'd', 'e', 'f'] } } }, 'widget_params: at most 5 metrics or events'],
    [{ widget_params: { page_views: { metrics: ['usability_ctr'] } } }, 'metrics: usability_ctr is not a metric of the report summary'],
    [{ group: 'day' }, 'group: day does not fit a period of 1 days'],
    [{ colour: 'red' }, 'property colour should not exist'],
  ])('refuses %j with 400 and says why', async (body, message) => {
    const { status, json } = await realtime(body);
    expect(status).toBe(400);
    expect(json.errors.message).toContain(message);
  });

  it('refuses a request with one bad widget before any widget reads', async () => {
    const before = reportQueries();
    const { status } = await realtime({ widget_params: { utms: { metrics: ['usability_ctr'] } } });
    expect(status).toBe(400);
    // Nothing started and left running: the other seven sections would each have queried.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reportQueries()).toBe(before);
    await realtime({ sections: ['page_views'] });
    expect(reportQueries()).toBeGreaterThan(before);
  });

  it('refuses a published time matched by a pattern with 400 naming the operators it takes, never a 500', async () => {
    const { status, json } = await realtime({ sections: ['page_views'], dimension_filters: [{ key: 'published_datetime', op: 'like', value: '*' }] });
    expect([status, json]).toEqual([
      400,
      { responseStatus: 400, errors: { message: 'dimension_filters.0.op like does not apply to published_datetime, a date and time: use =, !=, >, >=, <, <=, range, include, exclude' } },
    ]);
  });

  it('refuses a user without access to the project', async () => {
    const { client: stranger } = await newUser(api);
    const { status, json } = await realtime({}, stranger);
    expect([403, 404]).toContain(status);
    expect(typeof json.errors.message).toBe('string');
  });
});
