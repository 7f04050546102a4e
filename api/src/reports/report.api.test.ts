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
