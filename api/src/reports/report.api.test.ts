import { describe, expect, inject, it } from 'vitest';

// Needs: the embedded service of the global setup (chDB with the demo project).
const apiUrl = inject('apiUrl');
/** The Moscow day of an instant, YYYY-MM-DD. */
const moscowDay = (at: number): string => new Date(at + 3 * 3600_000).toISOString().slice(0, 10);
const today = moscowDay(Date.now());
const body = { date_start: today, date_end: today, group: 'hour', metrics: ['page_views', 'visits', 'visitors'] };

/**
 * Runs a check of "today" with the Moscow day it began on; if the day turned meanwhile (a run
 * across midnight), runs it once more on the new day, so no test depends on the time of day.
 */
async function onOneMoscowDay(check: (day: string) => Promise<void>): Promise<void> {
  const day = moscowDay(Date.now());
  try {
    await check(day);
  } catch (error) {
    if (moscowDay(Date.now()) === day) throw error;
    await check(moscowDay(Date.now()));
  }
}

async function post(path: string, payload: unknown, contentType = 'application/json'): Promise<{ status: number; json: any }> {
  const response = await fetch(`${apiUrl}/top100/api/report/v1.0/report/${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  return { status: response.status, json: await response.json() };
}

describe('summary report api', () => {
  it('answers the demo project with a graph point for every hour of a day, and totals', async () => {
    // Yesterday: a whole day of generated traffic at any time of day (today may have begun a minute ago).
    const yesterday = shift(moscowDay(Date.now()), -1);
    const { status, json } = await post('7596044/summary/graph', { ...body, date_start: yesterday, date_end: yesterday });
    expect(status).toBe(200);
    expect(json.responseStatus).toBe(200);
    const points = json.result.data[0].points;
    expect(points.map((p: { date: string }) => p.date)).toEqual(Array.from({ length: 24 }, (_, h) => `${yesterday} ${String(h).padStart(2, '0')}:00:00`));
    const sum = points.reduce((s: number, p: { metrics: number[] }) => s + p.metrics[0]!, 0);
    expect(json.result.totals[0]).toBe(sum);
    expect(sum).toBeGreaterThan(0);
  });

  it('graphs today hour by hour up to the current hour, no further', async () => {
    await onOneMoscowDay(async (day) => {
      const hourBefore = new Date(Date.now() + 3 * 3600_000).getUTCHours();
      const { json } = await post('7596044/summary/graph', { ...body, date_start: day, date_end: day });
      const hourAfter = new Date(Date.now() + 3 * 3600_000).getUTCHours();
      const points = json.result.data[0].points as { date: string }[];
      expect(points[0]!.date).toBe(`${day} 00:00:00`);
      expect([hourBefore + 1, hourAfter + 1]).toContain(points.length);
    });
  });

  it('answers bounces, depth and duration of visits, consistent with the counts', async () => {
    const week = { ...body, date_start: shift(today, -7), date_end: shift(today, -1), group: 'day' };
    const metrics = ['page_views', 'visits', 'bounces', 'avg_view_depth', 'avg_sessions_duration'];
    const { status, json } = await post('7596044/summary/table', { ...week, metrics });
    expect(status).toBe(200);
    const [pageViews, visits, bounces, depth, duration] = json.result.totals as number[];
    expect(bounces).toBeGreaterThan(0);
    expect(bounces).toBeLessThan(100);
    expect(depth).toBeCloseTo(pageViews! / visits!, 1);
    expect(duration).toBeGreaterThan(0);
  });

  it('refuses a period that ends in the future', async () => {
    await onOneMoscowDay(async (day) => {
      const { status, json } = await post('7596044/summary/table', { ...body, date_start: day, date_end: shift(day, 1), group: 'day' });
      expect(status).toBe(400);
      expect(json.errors.message).toBe(`date_end: ${shift(day, 1)} lies in the future`);
    });
  });

  it('table rows, sorted by a metric, page by limit and offset', async () => {
    const thirty = { ...body, date_start: shift(today, -29), group: 'day', sort: { name: 'page_views', order: 'desc' } };
    const first = await post('7596044/summary/table', { ...thirty, limit: 5 });
    const second = await post('7596044/summary/table', { ...thirty, limit: 5, offset: 5 });
    expect(first.status).toBe(200);
    expect(first.json.result.meta).toEqual({ total: 30, offset: 0, sample: 1 });
    const views = [...first.json.result.data, ...second.json.result.data].map((r: { metrics: number[] }) => r.metrics[0]!);
    expect(views).toHaveLength(10);
    expect(views).toEqual([...views].sort((a, b) => b - a));
    // 30 days of generated traffic: every finished day has visits.
    const all = await post('7596044/summary/table', { ...thirty, date_end: shift(today, -1), limit: 100 });
    expect(all.json.result.data.every((r: { metrics: number[] }) => r.metrics[1]! > 0)).toBe(true);
  });

  it('400 with a message naming the bad fields, in the error envelope', async () => {
    const { status, json } = await post('7596044/summary/graph', { ...body, group: 'year', metrics: ['x'] });
    expect(status).toBe(400);
    expect(json.responseStatus).toBe(400);
    expect(json.errors.message).toMatch(/group must be one of/);
    expect(json.errors.message).toMatch(/metrics must be one of/);
  });

  it('400 for malformed JSON', async () => {
    const { status, json } = await post('7596044/summary/table', '{"date_start":');
    expect(status).toBe(400);
    expect(json.errors.message).toMatch(/JSON/);
  });

  it.each(['0', 'abc', '99999999999', '-5', '1e3', '2147483648', '4294967295'])('400 for project id %s', async (id) => {
    const { status, json } = await post(`${id}/summary/table`, body);
    expect(status).toBe(400);
    expect(json.errors.message).toBe('projectId must be a whole number from 1 to 2147483647');
  });

  it('404 for a report that does not exist', async () => {
    const { status, json } = await post('7596044/no_such_report/table', body);
    expect(status).toBe(404);
    expect(json.errors.message).toBe('report no_such_report not found');
  });

  it('400 when the grouping does not fit the period', async () => {
    const { status, json } = await post('7596044/summary/graph', { ...body, date_start: '2025-01-01', group: 'five_minute' });
    expect(status).toBe(400);
    expect(json.errors.message).toMatch(/^group: five_minute does not fit a period of \d+ days \(choose day, week, month\)$/);
  });

  it('413 for an oversized body', async () => {
    const { status } = await post('7596044/summary/table', { ...body, pad: 'x'.repeat(100_000) });
    expect(status).toBe(413);
  });

  it('serves server time', async () => {
    const response = await fetch(`${apiUrl}/top100/api/report/v1.0/service/time`);
    const json = (await response.json()) as { result: { timestamp: number } };
    expect(Math.abs(json.result.timestamp - Date.now() / 1000)).toBeLessThan(60);
  });
});

describe('the ch_geo dictionary', () => {
  const geo = async (query: string): Promise<{ status: number; json: any }> => {
    const response = await fetch(`${apiUrl}/top100/api/report/v1.0/ch_geo?${query}`);
    return { status: response.status, json: await response.json() };
  };

  it('names the places of geo ids in Russian, with their kind and parent; unknown ids are left out', async () => {
    const { status, json } = await geo('geo_ids=524901,2017370,625144,999999999,524901');
    expect(status).toBe(200);
    expect(json).toEqual({
      responseStatus: 200,
      result: {
        data: [
          { id: 524901, name: 'Москва', kind: 'city', parent_id: 524894 },
          { id: 625144, name: 'Минск', kind: 'city', parent_id: 625143 },
          { id: 2017370, name: 'Россия', kind: 'country', parent_id: 0 },
        ],
      },
    });
  });

  it.each(['', 'geo_ids=', 'geo_ids=moscow', 'geo_ids=1,,2', `geo_ids=${Array.from({ length: 501 }, (_, i) => i + 1).join(',')}`, 'geo_ids=1&x=2'])(
    'refuses %s with 400 and a message',
    async (query) => {
      const { status, json } = await geo(query);
      expect(status).toBe(400);
      expect(json.responseStatus).toBe(400);
      expect(typeof json.errors.message).toBe('string');
    },
  );
});

describe('every base report through the api, on the demo project', () => {
  const month = { date_start: '30days', date_end: 'yesterday', group: 'day' };

  it.each(['traffic_sources', 'geo', 'device', 'browser', 'os', 'page_urls', 'page_titles', 'entrance_pages', 'exit_pages', 'view_depth', 'visit_time', 'usability', 'custom_vars', 'utms', 'search_system_phrase', 'social_network', 'screensize', 'page_formats', 'chapters'])(
    '%s: rows whose first metric adds up within the totals, and a graph of its first rows',
    async (name) => {
      const table = await post(`7596044/${name}/table`, { ...month, limit: 100 });
      expect(table.status).toBe(200);
      const { data, totals, meta } = table.json.result;
      expect(data.length).toBeGreaterThan(0);
      expect(meta.sample).toBe(1);
      expect(data.every((r: { level: number; parent_id: null; extra: { title: string } }) => r.level === 0 && r.parent_id === null && r.extra.title.length > 0)).toBe(true);
      const graph = await post(`7596044/${name}/graph`, { ...month, need_all_total: true });
      expect(graph.status).toBe(200);
      const lines = graph.json.result.data as { id: string; points: { metrics: number[] }[] }[];
      expect(lines[0]!.id).toBe('total');
      expect(lines.slice(1).map((l) => l.id)).toEqual(data.slice(0, 5).map((r: { id: string }) => r.id));
      // The whole line's points add up to the period's total of an additive metric (page views or events).
      const additive = table.json.result.metrics.findIndex((m: string) => ['page_views', 'events_count', 'usability_views'].includes(m));
      if (additive >= 0 && name !== 'custom_vars') {
        expect(lines[0]!.points.reduce((sum, p) => sum + p.metrics[additive]!, 0)).toBe(totals[additive]);
      }
    },
  );

  it('answers the filter dialog: values of a dimension by visits, a tree under its parents, and the event list', async () => {
    const filter = async (name: string, body: unknown): Promise<{ status: number; json: any }> => {
      const response = await fetch(`${apiUrl}/top100/api/report/v1.0/eventbase/7596044/filter/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, json: await response.json() };
    };
    const types = await filter('traffic_type', { date_start: '30days', date_end: 'today' });
    expect(types.status).toBe(200);
    const values = types.json.result.data as { value: string; title: string; visits: number; can_be_expanded: boolean }[];
    expect(values.map((v) => v.visits)).toEqual([...values.map((v) => v.visits)].sort((a, b) => b - a));
    expect(values.find((v) => v.value === 'search')).toMatchObject({ title: 'Поисковые системы', can_be_expanded: true });
    const countries = await filter('geo_country', { date_start: '30days' });
    const country = countries.json.result.data[0] as { value: number };
    const areas = await filter('geo_area', { date_start: '30days', parents: [country.value] });
    expect(areas.status).toBe(200);
    expect(areas.json.result.data.length).toBeGreaterThan(0);
    // A search matches the name a value is shown by (a place, a source type), whatever its case; the code too.
    const found = await filter('traffic_type', { date_start: '30days', search: 'ПОИСК' });
    expect(found.json.result.data.map((v: { value: string }) => v.value)).toEqual(['search']);
    expect(found.json.result.meta.total).toBe(1);
    const place = countries.json.result.data[0] as { value: number; title: string; visits: number };
    expect(place.title).not.toBe(String(place.value));
    const byName = await filter('geo_country', { date_start: '30days', search: place.title.slice(1, 4).toLowerCase() });
    expect(byName.json.result.data).toContainEqual(place);
    expect(byName.json.result.data.every((v: { title: string }) => v.title.toLowerCase().includes(place.title.slice(1, 4).toLowerCase()))).toBe(true);
    expect((await filter('geo_country', { date_start: '30days', search: String(place.value) })).json.result.data).toContainEqual(place);
    expect((await filter('geo_country', { date_start: '30days', search: 'нет такой страны' })).json.result).toEqual({ data: [], meta: { total: 0, offset: 0 } });
    const events = await filter('events', { date_start: '30days' });
    expect(events.status).toBe(200);
    expect(events.json.result.data.every((e: { value: string }) => e.value !== '' && e.value !== 'tech' && e.value !== 'rec')).toBe(true);
    expect((await filter('password', {})).status).toBe(400);
    expect((await filter('geo_city', { parents: [1, 2, 3] })).status).toBe(400);
  });

  it('answers a report the service cannot collect with no rows and the reason', async () => {
    const { status, json } = await post('7596044/age/table', month);
    expect(status).toBe(200);
    expect(json.result.data).toEqual([]);
    expect(json.result.meta.not_collected).toMatch(/panel/);
  });

  it('refuses hostile bodies with 400 before they reach ClickHouse', async () => {
    const hostile = [
      { ...month, dimension_filters: [{ key: 'url; DROP TABLE events', op: '=', value: 'x' }] },
      { ...month, dimension_filters: [{ key: 'url', op: 'OR 1=1', value: 'x' }] },
      { ...month, sort: { name: 'visits DESC; --', order: 'desc' } },
      { ...month, metrics: ['sleep(10)'] },
      { ...month, offset: -1 },
      { ...month, sample: '0.1; DROP' },
      { ...month, parents: [[[[['deep']]]]] },
      { ...month, dimension_filters: [{ key: 'url', op: 'include', value: Array.from({ length: 1000 }, (_, i) => `${i}`) }] },
    ];
    for (const body of hostile) {
      const { status, json } = await post('7596044/traffic_sources/table', body);
      expect([status, json.responseStatus]).toEqual([400, 400]);
    }
    // Well-formed but wrong for the dimension: 400 from the compiler, never a 500.
    for (const [name, more] of [
      ['geo', { parents: ['Россия'] }],
      ['geo', { dimension_filters: [{ key: 'geo_city', op: '>', value: 'много' }] }],
      ['traffic_sources', { dimension_filters: [{ key: 'view_depth', op: '>', value: 'много' }] }],
      ['traffic_sources', { parents: ['search', 'yandex', 'фраза'] }],
    ] as const) {
      const { status, json } = await post(`7596044/${name}/table`, { ...month, ...more });
      expect([status, json.responseStatus, typeof json.errors.message]).toEqual([400, 400, 'string']);
    }
    // SQL in a value is a value: it matches nothing and breaks nothing.
    const { status, json } = await post('7596044/traffic_sources/table', { ...month, dimension_filters: [{ key: 'url', op: 'like', value: "*' OR 1=1 --*" }] });
    expect(status).toBe(200);
    expect(json.result.data).toEqual([]);
  });
});

describe('report bodies that are wrong for the service answer 400 naming the field, never a 500', () => {
  const week = { date_start: shift(today, -7), date_end: shift(today, -1), group: 'day', metrics: ['page_views'] };
  const error = (message: string) => ({ status: 400, json: { responseStatus: 400, errors: { message } } });
  const DATETIME = 'a date and time written YYYY-MM-DD HH:MM:SS (UTC), from 1970-01-01 00:00:00 to 2106-02-07 06:28:15';

  it('a metric filter value beyond ±2^53', async () => {
    expect(await post('7596044/traffic_sources/table', { ...week, metric_filters: [{ key: 'page_views', op: '>', value: 1e308 }] })).toEqual(
      error('metric_filters.0.value must be a number from -9007199254740991 to 9007199254740991'),
    );
  });

  it('dimensions sent as null', async () => {
    expect(await post('7596044/summary/table', { ...week, dimensions: null })).toEqual(
      error('each value in dimensions must be a string; dimensions must contain no more than 82 elements; dimensions must be an array'),
    );
  });

  it('selected lines sent as null, on a graph', async () => {
    expect(await post('7596044/traffic_sources/graph', { ...week, selected_lines: null })).toEqual(error('selected_lines must be at most 10 row ids of the table'));
  });

  it('a published time compared with a word, in a table', async () => {
    expect(await post('7596044/traffic_sources/table', { ...week, dimension_filters: [{ key: 'published_datetime', op: '=', value: 'завтра' }] })).toEqual(
      error(`dimension_filters.0.value of published_datetime must be ${DATETIME}: "завтра" is not one`),
    );
  });

  it('a published time matched by a pattern, in a graph', async () => {
    expect(await post('7596044/summary/graph', { ...week, dimension_filters: [{ key: 'published_datetime', op: 'like', value: '2026*' }] })).toEqual(
      error('dimension_filters.0.op like does not apply to published_datetime, a date and time: use =, !=, >, >=, <, <=, range, include, exclude'),
    );
  });

  it('a list of published times holding a word, by the older name of the filters', async () => {
    expect(await post('7596044/traffic_sources/table', { ...week, filters: [{ key: 'published_datetime', op: 'include', value: ['завтра'] }] })).toEqual(
      error(`filters.0.value of published_datetime must be ${DATETIME}: "завтра" is not one`),
    );
  });

  it('a published time compared with an instant is answered', async () => {
    const { status, json } = await post('7596044/traffic_sources/table', { ...week, dimension_filters: [{ key: 'published_datetime', op: '>=', value: '2020-01-01 00:00' }] });
    expect([status, json.responseStatus, json.result.totals.length]).toEqual([200, 200, 1]);
  });

  it('the filter dialog’s values of the published time (an unknown one, stored as the first instant, left out)', async () => {
    const response = await fetch(`${apiUrl}/top100/api/report/v1.0/eventbase/7596044/filter/published_datetime`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ date_start: week.date_start, date_end: week.date_end, search: 'завтра' }),
    });
    expect([response.status, await response.json()]).toEqual([200, { responseStatus: 200, result: { data: [], meta: { total: 0, offset: 0 } } }]);
  });
});

describe('static files', () => {
  it('serves the snippet under its versioned name for a year and under counter.js for an hour', async () => {
    const latest = await fetch(`${apiUrl}/counter/counter.js`);
    expect(latest.status).toBe(200);
    expect(latest.headers.get('cache-control')).toBe('public, max-age=3600');
    const code = await latest.text();
    expect(code).toContain('sendBeacon');
  });

  it.each(['/', '/stat/projects', '/stat/projects/7596044/new/report/summary', '/projects/1?x=1', '/create', '/login'])(
    'answers the web app for %s',
    async (path) => {
      const response = await fetch(`${apiUrl}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
    },
  );
});

function shift(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
