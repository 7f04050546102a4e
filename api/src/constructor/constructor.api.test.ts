import { describe, expect, it } from 'vitest';
import { eventKeyOf } from '@stat/schemas';
import type { ApiClient } from '../testing/client.js';
import { newUser, userWithProject } from '../testing/fixtures.js';
import { useTestApi, type TestApi } from '../testing/harness.js';

// Needs: the api in-process (chDB + PGlite). A small traffic whose every number below was counted by hand.
const D1 = '2026-11-10';
const D2 = '2026-11-11';
/** The api's clock: the day after the data, so no day is in the future and none is "today". */
const NOW = Date.parse('2026-11-12T12:00:00Z');

interface Hit {
  at: string;
  visitor: string;
  session: number;
  n: number;
  type?: 'pageview' | 'event';
  source: Record<string, string>;
  device: Record<string, string>;
  path?: string;
}
const SEARCH_YANDEX = { traffic_type: 'search', traffic_system: 'yandex' };
const SEARCH_GOOGLE = { traffic_type: 'search', traffic_system: 'google' };
const SOCIAL = { traffic_type: 'social', traffic_system: 'vk' };
const DIRECT = { traffic_type: 'direct' };
const DESKTOP_CHROME = { device_type: 'desktop', browser_family: 'Chrome' };
const DESKTOP_FIREFOX = { device_type: 'desktop', browser_family: 'Firefox' };
const PHONE_SAFARI = { device_type: 'mobile', browser_family: 'Mobile Safari' };
const PHONE_CHROME = { device_type: 'mobile', browser_family: 'Chrome Mobile' };

/**
 * Five visits of four visitors:
 * 1. a, 10 Nov, Yandex search, desktop Chrome: 2 page views and a custom event;
 * 2. b, 10 Nov, direct, phone Safari: 1 page view;
 * 3. a, 11 Nov, VK, desktop Chrome: 1 page view;
 * 4. c, 11 Nov, Yandex search, desktop Firefox: 3 page views;
 * 5. d, 11 Nov, Google search, phone Chrome: 1 page view.
 */
const HITS: Hit[] = [
  { at: `${D1} 10:00:00`, visitor: 'a', session: 1, n: 1, source: SEARCH_YANDEX, device: DESKTOP_CHROME },
  { at: `${D1} 10:01:00`, visitor: 'a', session: 1, n: 2, source: SEARCH_YANDEX, device: DESKTOP_CHROME, path: '/news' },
  { at: `${D1} 10:02:00`, visitor: 'a', session: 1, n: 3, type: 'event', source: SEARCH_YANDEX, device: DESKTOP_CHROME, path: '/news' },
  { at: `${D1} 11:00:00`, visitor: 'b', session: 2, n: 1, source: DIRECT, device: PHONE_SAFARI },
  { at: `${D2} 09:00:00`, visitor: 'a', session: 3, n: 1, source: SOCIAL, device: DESKTOP_CHROME },
  { at: `${D2} 12:00:00`, visitor: 'c', session: 4, n: 1, source: SEARCH_YANDEX, device: DESKTOP_FIREFOX },
  { at: `${D2} 12:01:00`, visitor: 'c', session: 4, n: 2, source: SEARCH_YANDEX, device: DESKTOP_FIREFOX, path: '/news' },
  { at: `${D2} 12:02:00`, visitor: 'c', session: 4, n: 3, source: SEARCH_YANDEX, device: DESKTOP_FIREFOX, path: '/about' },
  { at: `${D2} 13:00:00`, visitor: 'd', session: 5, n: 1, source: SEARCH_GOOGLE, device: PHONE_CHROME },
];

const utc = (moscow: string): string => new Date(Date.parse(`${moscow.replace(' ', 'T')}+03:00`)).toISOString().replace('T', ' ').replace('Z', '');

function row(projectId: number, hit: Hit): Record<string, unknown> {
  const url = `https://site.example${hit.path ?? '/'}`;
  return {
    event_key: eventKeyOf(crypto.randomUUID()),
    project_id: projectId,
    event_type: hit.type ?? 'pageview',
    event_class: hit.type === 'event' ? 'cv' : 'base',
    event_name: hit.type === 'event' ? 'subscribe' : 'pageview',
    ts: utc(hit.at),
    event_date: hit.at.slice(0, 10),
    visitor_id: hit.visitor,
    session_id: hit.session,
    session_start: utc(hit.at),
    event_number: hit.n,
    url,
    url_no_args: url,
    ...hit.source,
    ...hit.device,
  };
}

let api: TestApi;
let owner: ApiClient;
let projectId: number;

useTestApi({ file: 'constructor.api.test.ts' }, async (started) => {
  api = started;
  api.setNow(NOW);
  const user = await userWithProject(api);
  owner = user.client;
  projectId = user.projectId;
  await api.clickhouse.insert({ table: 'events', values: HITS.map((h) => row(projectId, h)), format: 'JSONEachRow' });
});

const twoDays = { date_start: D1, date_end: D2, group: 'day' };
const THREE = ['traffic_type', 'device_type', 'browser_family'];
const ask = (body: Record<string, unknown>, client: ApiClient = owner) => client.post(`/api/report/v1.0/eventbase/${projectId}/constructor`, { ...twoDays, ...body });
/** Rows as a reader sees them: title and metrics. */
const shown = (result: { data: { extra: { title: string }; metrics: number[] }[] }) => result.data.map((r) => [r.extra.title, ...r.metrics]);

describe('the constructor table', () => {
  const metrics = ['visits', 'visitors', 'page_views'];
  const sort = { name: 'page_views', order: 'desc' };

  it('builds a three-dimension table: the first dimension at the top, each row expanding into the next', async () => {
    const top = await ask({ metrics, dimensions: THREE, sort });
    expect(top.status).toBe(200);
    // search: visits 1, 4, 5 of a, c, d with 2 + 3 + 1 page views; direct: visit 2; social: visit 3.
    expect(shown(top.json.result)).toEqual([
      ['Поисковые системы', 3, 3, 6],
      ['Прямые заходы', 1, 1, 1],
      ['Социальные сети', 1, 1, 1],
    ]);
    expect(top.json.result.totals).toEqual([5, 4, 8]);
    expect(top.json.result.meta).toEqual({ total: 3, offset: 0, sample: 1 });
    expect(top.json.result.data.map((r: { id: string; can_be_expanded: boolean }) => [r.id, r.can_be_expanded])[0]).toEqual(['["search"]', true]);

    const devices = await ask({ metrics, dimensions: THREE, sort, parents: ['search'] });
    expect(shown(devices.json.result)).toEqual([
      ['Компьютеры', 2, 2, 5],
      ['Смартфоны', 1, 1, 1],
    ]);
    const browsers = await ask({ metrics, dimensions: THREE, sort, parents: ['search', 'desktop'] });
    expect(shown(browsers.json.result)).toEqual([
      ['Firefox', 1, 1, 3],
      ['Chrome', 1, 1, 2],
    ]);
    expect(browsers.json.result.data.map((r: { id: string; level: number; can_be_expanded: boolean }) => [r.id, r.level, r.can_be_expanded])).toEqual([
      ['["search","desktop","Firefox"]', 2, false],
      ['["search","desktop","Chrome"]', 2, false],
    ]);
  });

  it('reads at most 10 dimensions: an 11th is ignored, whatever it names', async () => {
    const ten = [...THREE, 'os_family', 'geo_country', 'screen_size', 'page_format', 'session_number', 'auth_top100', 'referer_domain'];
    const withTen = await ask({ metrics, dimensions: ten, sort });
    const withEleven = await ask({ metrics, dimensions: [...ten, 'no_such_dimension'], sort });
    expect(withEleven.status).toBe(200);
    expect(withEleven.json.result).toEqual(withTen.json.result);
    // Ten levels: a row of the tenth is the last, so a path of ten values is one too many.
    const tooDeep = await ask({ metrics, dimensions: [...ten, 'url'], sort, parents: ['search', 'desktop', 'Firefox', '', 0, '', '', 0, 0, ''] });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.json.errors.message).toBe('parents: the report constructor has 9 levels to expand');
  });

  it('takes the date as a dimension: the period’s days, each expanding into the next dimension', async () => {
    const days = await ask({ metrics: ['visits'], dimensions: ['date', 'traffic_type'] });
    expect(shown(days.json.result)).toEqual([
      ['11.11.2026', 3],
      ['10.11.2026', 2],
    ]);
    expect(days.json.result.data.map((r: { id: string }) => r.id)).toEqual([`["${D2}"]`, `["${D1}"]`]);
    const sources = await ask({ metrics: ['visits'], dimensions: ['date', 'traffic_type'], parents: [D2] });
    expect(shown(sources.json.result)).toEqual([
      ['Поисковые системы', 2],
      ['Социальные сети', 1],
    ]);
  });

  it('filters by dimensions and by metrics, and pages by offset and limit', async () => {
    const desktop = await ask({ metrics, dimensions: ['traffic_type'], sort, dimension_filters: [{ key: 'device_type', op: '=', value: 'desktop' }] });
    expect(shown(desktop.json.result)).toEqual([
      ['Поисковые системы', 2, 2, 5],
      ['Социальные сети', 1, 1, 1],
    ]);
    const busy = await ask({ metrics, dimensions: ['traffic_type'], sort, metric_filters: [{ key: 'visits', op: '>', value: 1 }] });
    expect(shown(busy.json.result)).toEqual([['Поисковые системы', 3, 3, 6]]);
    const second = await ask({ metrics, dimensions: ['traffic_type'], sort, offset: 1, limit: 10 });
    expect(shown(second.json.result)).toEqual([
      ['Прямые заходы', 1, 1, 1],
      ['Социальные сети', 1, 1, 1],
    ]);
    expect(second.json.result.meta).toEqual({ total: 3, offset: 1, sample: 1 });
  });

  it('counts events and pages: a page dimension counts a visit in every page it touched', async () => {
    const pages = await ask({ metrics: ['page_views', 'visits', 'events_count'], dimensions: ['url_no_args'], sort: { name: 'page_views', order: 'desc' } });
    // "/": visits 1 to 5 start there (5 views); "/news": visits 1 and 4 (2 views, the event of visit 1); "/about": visit 4.
    expect(shown(pages.json.result)).toEqual([
      ['https://site.example/', 5, 5, 0],
      ['https://site.example/news', 2, 2, 1],
      ['https://site.example/about', 1, 1, 0],
    ]);
  });

  it('reads a sample when asked for one, and says so; the exact rollup of sources needs none', async () => {
    const exact = await ask({ metrics, dimensions: ['traffic_type'], sample: 0.1 });
    expect(exact.json.result.meta.sample).toBe(1);
    const sampled = await ask({ metrics, dimensions: ['device_type'], sample: 0.1 });
    expect(sampled.status).toBe(200);
    expect(sampled.json.result.meta.sample).toBe(0.1);
  });
});

describe('the constructor graph', () => {
  it('draws the first dimension’s top rows by date, and ignores the others', async () => {
    const graph = await ask({ view_type: 'graph', metrics: ['visits'], dimensions: ['traffic_type', 'device_type'] });
    expect(graph.status).toBe(200);
    const lines = graph.json.result.data.map((l: { id: string; title: string; points: { date: string; metrics: number[] }[] }) => [
      l.id,
      l.title,
      l.points.map((p) => [p.date, p.metrics[0]]),
    ]);
    expect(lines).toEqual([
      ['["search"]', 'Поисковые системы', [[`${D1} 00:00:00`, 1], [`${D2} 00:00:00`, 2]]],
      ['["direct"]', 'Прямые заходы', [[`${D1} 00:00:00`, 1], [`${D2} 00:00:00`, 0]]],
      ['["social"]', 'Социальные сети', [[`${D1} 00:00:00`, 0], [`${D2} 00:00:00`, 1]]],
    ]);
    expect(graph.json.result.totals).toEqual([5]);
  });

  it('by date: the period’s one line', async () => {
    const graph = await ask({ view_type: 'graph', metrics: ['visitors'], dimensions: ['date'] });
    const points = graph.json.result.data.map((l: { id: string; points: { metrics: number[] }[] }) => [l.id, l.points.map((p) => p.metrics[0])]);
    // 10 Nov: a, b; 11 Nov: a, c, d.
    expect(points).toEqual([['total', [2, 3]]]);
    expect(graph.json.result.totals).toEqual([4]);
  });
});

describe('the constructor refuses what it cannot answer, with a message', () => {
  it.each([
    [{ metrics: ['visits'], dimensions: [] }, 'dimensions: choose at least one dimension'],
    [{ metrics: ['bounces'], dimensions: ['traffic_type'] }, 'metrics: bounces is not a metric of the report constructor'],
    [{ metrics: ['visits'], dimensions: ['traffic_type', 'nothing'] }, 'dimensions: nothing is not a dimension of the constructor'],
    [{ metrics: ['visits'], dimensions: ['entry_page', 'traffic_type'] }, 'dimensions: entry_page combine only with entry_page, exit_page and view_depth'],
    [{ metrics: ['avg_view_depth'], dimensions: ['url'] }, 'metrics: avg_view_depth cannot be computed for the rows of constructor'],
    [{ metrics: ['visits'], dimensions: ['traffic_type'], limit: 5 }, 'limit must be one of 10, 25, 50, 100'],
    [{ metrics: ['visits'], dimensions: ['traffic_type'], view_type: 'pie' }, 'view_type must be one of the following values: table, graph'],
  ])('%j', async (body, message) => {
    const answer = await ask(body);
    expect(answer.status).toBe(400);
    expect(answer.json.errors.message).toContain(message);
  });

  it('a published time compared with a word: 400 naming the dimension and the value, never a 500', async () => {
    const answer = await ask({ metrics: ['visits'], dimensions: ['traffic_type'], dimension_filters: [{ key: 'published_datetime', op: '=', value: 'завтра' }] });
    expect([answer.status, answer.json]).toEqual([
      400,
      { responseStatus: 400, errors: { message: 'dimension_filters.0.value of published_datetime must be a date and time written YYYY-MM-DD HH:MM:SS (UTC), from 1970-01-01 00:00:00 to 2106-02-07 06:28:15: "завтра" is not one' } },
    ]);
  });

  it('answers another user nothing of the project', async () => {
    const stranger = await newUser(api);
    const answer = await ask({ metrics: ['visits'], dimensions: ['traffic_type'] }, stranger.client);
    expect(answer.status).toBe(403);
    expect(answer.json.errors.message).toBeTruthy();
  });
});
