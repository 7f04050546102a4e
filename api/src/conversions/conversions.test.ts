import { eventKeyOf, type ConversionWidgetResult } from '@stat/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { newUser, userWithProject } from '../testing/fixtures.js';
import { useTestApi, type TestApi } from '../testing/harness.js';

// Needs: nothing but the build. Conversions (spec 002 §3–§7) through the api on PGlite and chDB:
// the rules of who may do what, and the figures of a conversion on visits counted by hand.

let api: TestApi;
useTestApi({ file: 'conversions.test.ts' }, (started) => {
  api = started;
});

const HOUR = 3_600_000;
/** Yesterday's Moscow date, and `back` days before it. */
const day = (back: number) => new Date(Date.now() + 3 * HOUR - (back + 1) * 24 * HOUR).toISOString().slice(0, 10);
const D = day(0);

/**
 * The visits of conversion-sql.test.ts: a (search −10 d, ad −3 d, direct with a purchase), b (social −2 d, search with two), c (direct with one), d (a link, none).
 * Devices: visits 1, 3, 6 a desktop, 2, 4, 5 a phone, 7 a tablet; visit 5 came with utm_source «=cmd» (a spreadsheet would take it for a formula).
 */
const VISITS = [
  { session: 1, visitor: 'a', back: 10, source: 'search', buys: 0, device: 'desktop', utm: '' },
  { session: 2, visitor: 'a', back: 3, source: 'ad', buys: 0, device: 'mobile', utm: '' },
  { session: 3, visitor: 'a', back: 0, source: 'direct', buys: 1, device: 'desktop', utm: '' },
  { session: 4, visitor: 'b', back: 2, source: 'social', buys: 0, device: 'mobile', utm: '' },
  { session: 5, visitor: 'b', back: 0, source: 'search', buys: 2, device: 'mobile', utm: '=cmd' },
  { session: 6, visitor: 'c', back: 0, source: 'direct', buys: 1, device: 'desktop', utm: '' },
  { session: 7, visitor: 'd', back: 0, source: 'link', buys: 0, device: 'tablet', utm: '' },
];

async function addVisits(projectId: number): Promise<void> {
  const values = VISITS.flatMap((v) => {
    const date = day(v.back);
    const base = { project_id: projectId, event_date: date, visitor_id: v.visitor, session_id: v.session, traffic_type: v.source, device_type: v.device, utm_source: v.utm, url: 'https://shop.example/' };
    return [
      { ...base, event_key: eventKeyOf(crypto.randomUUID()), event_type: 'pageview', ts: `${date} 09:00:00`, event_number: 1 },
      ...Array.from({ length: v.buys }, (_, i) => ({ ...base, event_key: eventKeyOf(crypto.randomUUID()), event_type: 'event', event_class: 'cv', event_name: 'buy', ts: `${date} 09:0${i + 1}:00`, event_number: i + 2 })),
    ];
  });
  await api.clickhouse.insert({ table: 'events', values, format: 'JSONEachRow' });
}

/**
 * 20 000 visitors of D, one visit each (search or direct by turns); every fifth buys, every
 * tenth twice: 4 000 visits with a purchase, 20 % of them all.
 */
async function addCrowd(projectId: number): Promise<void> {
  const values = Array.from({ length: 20_000 }, (_, i) => {
    const base = { project_id: projectId, event_date: D, visitor_id: `crowd-${i}`, session_id: 100 + i, traffic_type: i % 2 === 0 ? 'search' : 'direct', url: 'https://shop.example/' };
    const buys = i % 5 === 0 ? (i % 10 === 0 ? 2 : 1) : 0;
    return [
      { ...base, event_key: eventKeyOf(crypto.randomUUID()), event_type: 'pageview', ts: `${D} 09:00:00`, event_number: 1 },
      ...Array.from({ length: buys }, (_, b) => ({ ...base, event_key: eventKeyOf(crypto.randomUUID()), event_type: 'event', event_class: 'cv', event_name: 'buy', ts: `${D} 09:0${b + 1}:00`, event_number: b + 2 })),
    ];
  }).flat();
  await api.clickhouse.insert({ table: 'events', values, format: 'JSONEachRow' });
}

/** A goal «Покупка» (the event buy) and a conversion of it over all visits: its id. */
async function buyConversion(owner: Awaited<ReturnType<typeof userWithProject>>): Promise<number> {
  const goal = await owner.client.post('/api/v1.0/goal', { project_id: owner.projectId, title: 'Покупка', body: { dimension_filters: [{ key: 'event_name', op: '=', value: 'buy', extra: { eventClass: 'cv' } }] } });
  const created = await owner.client.post('/api/v1.0/conversion', { project_id: owner.projectId, title: 'Покупки', numerator_goal_id: goal.json.result.id });
  return Number(created.json.result.id);
}

/** A new owner's project with the visits of {@link addVisits}, and its conversion of purchases. */
async function visitedProjectWithPurchases(): Promise<{ owner: Awaited<ReturnType<typeof userWithProject>>; conversion: number }> {
  const owner = await userWithProject(api);
  await addVisits(owner.projectId);
  return { owner, conversion: await buyConversion(owner) };
}

describe('conversions', () => {
  it('counts a conversion and credits its visits to sources by the chosen model and window', async () => {
    const owner = await userWithProject(api);
    await addVisits(owner.projectId);
    const goal = await owner.client.post('/api/v1.0/goal', {
      project_id: owner.projectId,
      title: 'Покупка',
      body: { dimension_filters: [{ key: 'event_name', op: '=', value: 'buy', extra: { eventClass: 'cv' } }] },
    });
    expect(goal.status).toBe(200);
    const created = await owner.client.post('/api/v1.0/conversion', { project_id: owner.projectId, title: '  Покупки  ', numerator_goal_id: goal.json.result.id });
    expect(created.status).toBe(200);
    const conversion = created.json.result;
    // §3: visits, last click, 7 days, personal by default; the title trimmed.
    expect(conversion).toMatchObject({ title: 'Покупки', metric: 'visits', attribution: 'last_click', attribution_window: 7, access: 'own', denominator_goal_id: null, is_owner: true });

    // Visits 3, 5 and 6 bought, of the day's four (the empty denominator is all visits): 75 %.
    const report = await owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/conversions`, { date_start: D, date_end: D });
    expect(report.status).toBe(200);
    expect(report.json.result.conversions).toEqual([
      { id: conversion.id, numerator: { data: [{ date: D, value: 3 }], totals: 3 }, denominator: { data: [{ date: D, value: 4 }], totals: 4 }, conversion: 75 },
    ]);

    // Last click in 7 days: a's and c's visits were direct, b's search.
    const table = (body: Record<string, unknown>) => owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/conversion_table`, { conversion_id: conversion.id, date_start: D, date_end: D, ...body });
    const last = (await table({})).json.result;
    expect(last.data).toEqual([
      { traffic_type: 'direct', titles: { traffic_type: 'Прямые заходы' }, numerator: 2, denominator: 2, conversion: 100 },
      { traffic_type: 'search', titles: { traffic_type: 'Поисковые системы' }, numerator: 1, denominator: 1, conversion: 100 },
      { traffic_type: 'link', titles: { traffic_type: 'Переходы по ссылкам на сайтах' }, numerator: 0, denominator: 1, conversion: 0 },
    ]);
    expect(last.totals).toEqual({ numerator: 3, denominator: 4, conversion: 75 });
    expect([last.dimensions, last.available_dimensions, last.available_metrics]).toEqual([
      ['traffic_type'],
      ['traffic_type', 'traffic_system', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'],
      ['numerator', 'denominator', 'conversion'],
    ]);
    // First click in 14 days: a's first visit came from search, b's from a social network.
    const first = (await table({ attribution: 'first_click', attribution_window: 14 })).json.result;
    expect(first.data.map((r: { traffic_type: string; numerator: number }) => [r.traffic_type, r.numerator])).toEqual([
      ['direct', 1],
      ['search', 1],
      ['social', 1],
      ['link', 0],
    ]);
    expect(first.meta).toEqual({ total: 4, offset: 0, limit: 10, sort: { name: 'numerator', order: 'desc' }, attribution: 'first_click', attribution_window: 14, sample: 1 });
    // A window the spec does not have is refused.
    expect((await table({ attribution_window: 10 })).status).toBe(400);
  });

  it('takes the report filters in the body of the report (spec 002 §7 "body filters"): a source keeps its visits on both sides', async () => {
    const { owner, conversion } = await visitedProjectWithPurchases();
    // Of D's direct and link visits (3, 6, 7), 3 and 6 bought.
    const report = await owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/conversions`, {
      date_start: D,
      date_end: D,
      filters: [{ key: 'traffic_type', op: 'include', value: ['direct', 'link'] }],
    });
    expect(report.json).toEqual({
      responseStatus: 200,
      result: {
        conversions: [{ id: conversion, numerator: { data: [{ date: D, value: 2 }], totals: 2 }, denominator: { data: [{ date: D, value: 3 }], totals: 3 }, conversion: (100 * 2) / 3 }],
        sample: 1,
      },
    });
  });

  it('applies a filter on events as the reports of visits do: it keeps the visits having such an event, whole', async () => {
    const { owner, conversion } = await visitedProjectWithPurchases();
    // D's visits with a purchase, 3, 5 and 6, all of them counted in the denominator (all visits) too.
    const report = await owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/conversions`, {
      date_start: D,
      date_end: D,
      filters: [{ key: 'event_name', op: '=', value: 'buy', extra: { eventClass: 'cv' } }],
    });
    expect(report.json).toEqual({
      responseStatus: 200,
      result: { conversions: [{ id: conversion, numerator: { data: [{ date: D, value: 3 }], totals: 3 }, denominator: { data: [{ date: D, value: 3 }], totals: 3 }, conversion: 100 }], sample: 1 },
    });
  });

  it('refuses a filter rule the report calls refuse, with their message', async () => {
    const owner = await userWithProject(api);
    const report = await owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/conversions`, {
      date_start: D,
      date_end: D,
      filters: [{ key: 'published_datetime', op: '=', value: 'завтра' }],
    });
    expect(report.json).toEqual({
      responseStatus: 400,
      errors: { message: 'filters.0.value of published_datetime must be a date and time written YYYY-MM-DD HH:MM:SS (UTC), from 1970-01-01 00:00:00 to 2106-02-07 06:28:15: "завтра" is not one' },
    });
  });

  it('sorts and pages the table in ClickHouse, by any of its dimensions, and gives it as CSV', async () => {
    const { owner, conversion } = await visitedProjectWithPurchases();
    const table = (body: Record<string, unknown>) => owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/conversion_table`, { conversion_id: conversion, date_start: D, date_end: D, ...body });
    const sources = async (body: Record<string, unknown>) => (await table(body)).json.result.data.map((r: { traffic_type: string }) => r.traffic_type);
    // Last click: direct 2 of 2, search 1 of 1, link 0 of 1. The first column each way, a metric each way, ties by the value.
    expect(await sources({ sort: { name: 'traffic_type', order: 'asc' } })).toEqual(['direct', 'link', 'search']);
    expect(await sources({ sort: { name: 'traffic_type', order: 'desc' } })).toEqual(['search', 'link', 'direct']);
    expect(await sources({ sort: { name: 'conversion', order: 'asc' } })).toEqual(['link', 'direct', 'search']);
    expect(await sources({ sort: { name: 'denominator' } })).toEqual(['direct', 'link', 'search']);
    // Pages of one row: the third is the last; past it no rows, the count still 3.
    const third = (await table({ limit: 1, offset: 2 })).json.result;
    expect([third.data.map((r: { traffic_type: string }) => r.traffic_type), third.meta.total]).toEqual([['link'], 3]);
    const past = (await table({ limit: 1, offset: 5 })).json.result;
    expect([past.data, past.meta.total]).toEqual([[], 3]);
    // Two dimensions: traffic_system is empty on these visits («Не определено»).
    const pairs = (await table({ dimensions: ['traffic_type', 'traffic_system'], sort: { name: 'traffic_type', order: 'asc' } })).json.result;
    expect(pairs.data.map((r: { titles: Record<string, string> }) => `${r.titles.traffic_type} / ${r.titles.traffic_system}`)).toEqual([
      'Прямые заходы / Не определено',
      'Переходы по ссылкам на сайтах / Не определено',
      'Поисковые системы / Не определено',
    ]);
    // A sort by a dimension the table does not show, an unknown dimension, a duplicate: 400 with a message.
    for (const body of [{ sort: { name: 'utm_term' } }, { dimensions: ['gender'] }, { dimensions: ['utm_source', 'utm_source'] }, { sort: { name: 'visits' } }]) {
      const bad = await table(body);
      expect([bad.status, typeof bad.json.errors.message]).toEqual([400, 'string']);
    }

    // The CSV: BOM, semicolons, comma decimals, the totals first, a formula-looking value kept as text.
    const csv = await fetch(`${api.url}/top100/api/report/v1.0/eventbase/${owner.projectId}/conversion_table/csv`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: [...owner.client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') },
      body: JSON.stringify({ conversion_id: conversion, date_start: D, date_end: D, dimensions: ['utm_source'], sort: { name: 'utm_source', order: 'asc' } }),
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain(encodeURIComponent(`Конверсия Покупки ${D}.csv`));
    // Last click: visits 3 and 6 (no tag) of the three untagged visits of D (3, 6, 7): 66,67 % (two decimals, as the table shows it); visit 5 («=cmd») 1 of 1.
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(await csv.arrayBuffer())).toBe(
      '\uFEFFutm_source;Целевые визиты;Визиты;Конверсия, %\r\nИтого;3;4;75\r\nНе определено;2;3;66,67\r\n\'=cmd;1;1;100\r\n',
    );
  });

  it('answers the three widgets: each category’s conversion by the credited visit’s value, over the period and by day', async () => {
    const { owner, conversion } = await visitedProjectWithPurchases();
    const widget = (name: string, body: Record<string, unknown> = {}) =>
      owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/conversion_widget/${name}`, { conversion_id: conversion, date_start: D, date_end: D, ...body });
    const percents = async (name: string, body: Record<string, unknown> = {}) => {
      const answer = await widget(name, body);
      expect(answer.status).toBe(200);
      const result = answer.json.result as ConversionWidgetResult;
      return result.meta.order.map((key) => `${result.data[key]!.title}: ${result.data[key]!.numerator}/${result.data[key]!.denominator} = ${result.data[key]!.conversion}`);
    };
    // Traffic sources, last click in 7 days: as the table.
    expect(await percents('eventbase_conversion_traffic_sources')).toEqual(['Прямые заходы: 2/2 = 100', 'Поисковые системы: 1/1 = 100', 'Переходы по ссылкам на сайтах: 0/1 = 0']);
    // Technology by device, first click in 7 days: a's visit 2 and b's visit 4 were on a phone, so the one phone visit of D has two conversions (200 %); c's desktop one of the two desktop visits (50 %).
    expect(await percents('eventbase_conversion_technology', { dimension: 'device_type', attribution: 'first_click' })).toEqual(['Смартфоны: 2/1 = 200', 'Компьютеры: 1/2 = 50', 'Планшеты: 0/1 = 0']);
    // Audience: gender is not collected: every visit «Не определено», the whole conversion, 3 of 4.
    const audience = (await widget('eventbase_conversion_audience')).json.result as ConversionWidgetResult;
    expect(audience.meta).toMatchObject({ dimensions: ['gender'], order: [''], attribution: 'last_click', attribution_window: 7 });
    expect(typeof audience.meta.not_collected).toBe('string');
    expect(audience.data['']).toEqual({ title: 'Не определено', numerator: 3, denominator: 4, conversion: 75, points: [{ date: D, numerator: 3, denominator: 4, conversion: 75 }] });
    // By day over three days: the social visit two days before counts in its day's denominator.
    const days = (await widget('eventbase_conversion_traffic_sources', { date_start: day(2), attribution: 'first_click' })).json.result as ConversionWidgetResult;
    expect(days.data.social!.points).toEqual([
      { date: day(2), numerator: 0, denominator: 1, conversion: 0 },
      { date: D, numerator: 1, denominator: 0, conversion: null },
    ]);
    // Another widget is 404; a tab of another widget 400.
    expect((await widget('eventbase_conversion_weather')).status).toBe(404);
    expect((await widget('traffic_sources')).status).toBe(404);
    const bad = await widget('eventbase_conversion_audience', { dimension: 'os_family' });
    expect([bad.status, typeof bad.json.errors.message]).toEqual([400, 'string']);
  });

  it('reads a sample when asked: counts scaled back within the sampling error, the percent the ratio of the sampled counts, the sample said', async () => {
    const owner = await userWithProject(api);
    await addCrowd(owner.projectId);
    const conversion = await buyConversion(owner);
    const post = (path: string, body: Record<string, unknown>) =>
      owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/${path}`, { date_start: D, date_end: D, ...body });
    // Sample 1 is exact: 4 000 of the 20 000 visits bought.
    const exact = (await post('conversions', { sample: 1 })).json.result;
    expect(exact).toEqual({ conversions: [{ id: conversion, numerator: { data: [{ date: D, value: 4_000 }], totals: 4_000 }, denominator: { data: [{ date: D, value: 20_000 }], totals: 20_000 }, conversion: 20 }], sample: 1 });

    // The same visits as ClickHouse's own SAMPLE 0.1 on visitor_hash reads them.
    const [read] = await (
      await api.clickhouse.query({
        query: `SELECT uniqExactIf(session_id, event_name = 'buy') AS n, uniqExact(session_id) AS d FROM events SAMPLE 0.1 WHERE project_id = {p:UInt32} AND event_date = {d:Date}`,
        query_params: { p: owner.projectId, d: D },
        format: 'JSONEachRow',
      })
    ).json<{ n: string; d: string }>();
    const n = Number(read!.n);
    const d = Number(read!.d);
    const sampled = (await post('conversions', { sample: 0.1 })).json.result;
    expect(sampled.sample).toBe(0.1);
    const [one] = sampled.conversions;
    expect([one.numerator.totals, one.denominator.totals, one.numerator.data, one.conversion]).toEqual([n * 10, d * 10, [{ date: D, value: n * 10 }], (100 * n) / d]);
    // A sample of visitors by hash draws each with p = 0.1: the scaled count of N has a relative
    // standard error of sqrt((1 - p) / (N p)); three of them is the bound (as report.sampling.test.ts).
    const bound = (count: number): number => 3 * Math.sqrt(0.9 / (count * 0.1));
    expect(Math.abs(one.numerator.totals / 4_000 - 1)).toBeLessThan(bound(4_000));
    expect(Math.abs(one.denominator.totals / 20_000 - 1)).toBeLessThan(bound(20_000));

    // The table and a widget read the same sample: the same totals, the same percent, the sample said.
    const table = (await post('conversion_table', { conversion_id: conversion, sample: 0.1 })).json.result;
    expect([table.totals, table.meta.sample]).toEqual([{ numerator: n * 10, denominator: d * 10, conversion: (100 * n) / d }, 0.1]);
    for (const row of table.data as { numerator: number; denominator: number; conversion: number }[]) expect(row.conversion).toBeCloseTo((100 * row.numerator) / row.denominator, 9);
    expect(table.data.reduce((sum: number, row: { numerator: number }) => sum + row.numerator, 0)).toBe(n * 10);
    const widget = (await post('conversion_widget/eventbase_conversion_traffic_sources', { conversion_id: conversion, sample: 0.1 })).json.result as ConversionWidgetResult;
    expect(widget.meta.sample).toBe(0.1);
    expect(Object.values(widget.data).reduce((sum, c) => sum + c.denominator, 0)).toBe(d * 10);

    // The CSV is read whole whatever is asked, as the reports' CSV (spec 001 §7: sample 1).
    const csv = await fetch(`${api.url}/top100/api/report/v1.0/eventbase/${owner.projectId}/conversion_table/csv`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: [...owner.client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') },
      body: JSON.stringify({ conversion_id: conversion, date_start: D, date_end: D, sample: 0.1 }),
    });
    expect((await csv.text()).split('\r\n')[1]).toBe('Итого;4000;20000;20');

    // A period of today only is read whole, whatever is asked (as the reports).
    const today = day(-1);
    expect((await post('conversions', { date_start: today, date_end: today, sample: 0.01 })).json.result.sample).toBe(1);
  });

  it('refuses a sample outside (0, 1] on every conversion report call, naming the parameter', async () => {
    const owner = await userWithProject(api);
    const conversion = await buyConversion(owner);
    const calls: [string, Record<string, unknown>][] = [
      ['conversions', {}],
      ['conversion_table', { conversion_id: conversion }],
      ['conversion_table/csv', { conversion_id: conversion }],
      ['conversion_widget/eventbase_conversion_audience', { conversion_id: conversion }],
    ];
    for (const [path, body] of calls) {
      for (const sample of [0, -0.1, 1.5, 'half']) {
        const bad = await owner.client.post(`/api/report/v1.0/eventbase/${owner.projectId}/${path}`, { date_start: D, date_end: D, ...body, sample });
        expect([path, sample, bad.status, String(bad.json.errors.message).includes('sample')]).toEqual([path, sample, 400, true]);
      }
    }
  });

  it('keeps a personal conversion its creator’s: others neither see nor delete it; favourites are per user', async () => {
    const owner = await userWithProject(api);
    const goal = await owner.client.post('/api/v1.0/goal', { project_id: owner.projectId, title: 'Подписка', access: 'common', body: { dimension_filters: [{ key: 'event_name', op: '=', value: 'subscribe' }] } });
    const other = await newUser(api);
    await owner.client.patch(`/api/v1.0/project/${owner.projectId}/access`, { data: { users: [{ email: other.email, access_level: 0 }] } });
    const mine = (await owner.client.post('/api/v1.0/conversion', { project_id: owner.projectId, title: 'Моя', numerator_goal_id: goal.json.result.id })).json.result;
    const shared = (await owner.client.post('/api/v1.0/conversion', { project_id: owner.projectId, title: 'Общая', access: 'common', numerator_goal_id: goal.json.result.id })).json.result;
    const titles = async (client: typeof owner.client) => (await client.get(`/api/v1.0/user/conversions?project_id=${owner.projectId}`)).json.result.conversions.map((c: { title: string }) => c.title);
    expect(await titles(owner.client)).toEqual(['Общая', 'Моя']);
    expect(await titles(other.client)).toEqual(['Общая']);
    expect((await other.client.get(`/api/v1.0/conversion/${mine.id}`)).status).toBe(404);
    // An editor of the project changes a public one, but only its creator deletes it.
    expect((await other.client.put(`/api/v1.0/conversion/${shared.id}`, { attribution: 'last_valuable' })).json.result.attribution).toBe('last_valuable');
    expect((await other.client.delete(`/api/v1.0/conversion/${shared.id}`)).status).toBe(403);
    // A favourite is the caller's own.
    expect((await other.client.put(`/api/v1.0/conversion/${shared.id}`, { is_favorite: true })).json.result.is_favorite).toBe(true);
    expect((await owner.client.get(`/api/v1.0/conversion/${shared.id}`)).json.result.is_favorite).toBe(false);
    // Bad fields are 400 with a message; a goal of another project is refused.
    const bad = await owner.client.put(`/api/v1.0/conversion/${mine.id}`, { title: 'ab' });
    expect([bad.status, typeof bad.json.errors.message]).toEqual([400, 'string']);
    const stranger = await userWithProject(api);
    const foreignGoal = (await stranger.client.post('/api/v1.0/goal', { project_id: stranger.projectId, title: 'Чужая', access: 'common', body: { dimension_filters: [{ key: 'event_name', op: '=', value: 'x' }] } })).json.result;
    expect((await owner.client.post('/api/v1.0/conversion', { project_id: owner.projectId, title: 'Чужая цель', numerator_goal_id: foreignGoal.id })).status).toBe(400);
    expect((await owner.client.delete(`/api/v1.0/conversion/${mine.id}`)).status).toBe(200);
    expect((await owner.client.get(`/api/v1.0/conversion/${mine.id}`)).status).toBe(404);
  });

  describe('a conversion without a title or a numerator, or with a title too short for the table, is a 400 and nothing is stored', () => {
    let owner: Awaited<ReturnType<typeof userWithProject>>;
    let goalId: number;
    const conversions = async (): Promise<unknown[]> => api.db.query('SELECT * FROM conversions WHERE project_id = $1 ORDER BY id', [owner.projectId]);
    beforeAll(async () => {
      owner = await userWithProject(api);
      const goal = await owner.client.post('/api/v1.0/goal', { project_id: owner.projectId, title: 'Покупка', body: { dimension_filters: [{ key: 'event_name', op: '=', value: 'buy' }] } });
      goalId = Number(goal.json.result.id);
    });
    it.each([
      ['no title', {}, 'title: Поле не заполнено'],
      ['a title null', { title: null }, 'title: Поле не заполнено'],
      ['a title of two characters that are four UTF-16 units', { title: '😀😀' }, 'title: Минимум 3 символа, не больше 255'],
      ['no numerator', { title: 'Покупки', numerator_goal_id: undefined }, 'numerator_goal_id: Выберите цель'],
    ])('%s', async (_name, input, message) => {
      const before = await conversions();
      const answer = await owner.client.post('/api/v1.0/conversion', { project_id: owner.projectId, numerator_goal_id: goalId, ...input });
      expect(answer.json).toEqual({ responseStatus: 400, errors: { message } });
      expect(await conversions()).toEqual(before);
    });

    it('a title sent as null to a change is a 400, and the conversion keeps its title', async () => {
      const created = await owner.client.post('/api/v1.0/conversion', { project_id: owner.projectId, title: 'Покупки', numerator_goal_id: goalId });
      const before = await conversions();
      const answer = await owner.client.put(`/api/v1.0/conversion/${created.json.result.id}`, { title: null });
      expect(answer.json).toEqual({ responseStatus: 400, errors: { message: 'title: Поле не заполнено' } });
      expect(await conversions()).toEqual(before);
    });
  });
});
