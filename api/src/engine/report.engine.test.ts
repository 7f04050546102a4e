import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import type { ClickHouseClient } from '@stat/storage';
import { DictionaryRepository } from './dictionaries.js';
import { ReportEngine } from './runner.js';
import type { ReportRequest } from './request.js';
import { eventKeyOf, reportDefinition, type TableResult } from '@stat/schemas';
import { ReportAnswers } from './answers.js';
import { Sampling } from './sampling.js';
import { planReport } from './plan.js';
import { findsKeysFirst, totalsOfSite } from './sql/query-plan.js';
import { answersOver, useChdb } from '../testing/chdb.js';
import { textOf } from '../testing/lines.js';

// Needs: chDB (in-process). A small traffic whose every number below was counted by hand.
const PROJECT = 42;
const D1 = '2026-11-10';
const D2 = '2026-11-11';
/** The api's clock: the day after the data, so no bucket is in the future and none is "today". */
const NOW = Date.parse('2026-11-12T12:00:00Z');

/** A stored event: what the aggregator would write, the rest left at the columns' defaults. */
interface Fixture {
  type: 'pageview' | 'event' | 'show' | 'click' | 'engagement';
  /** Moscow wall-clock time, YYYY-MM-DD HH:mm:ss */
  at: string;
  visitor: string;
  session: number;
  /** Moscow wall-clock time the visit began */
  start: string;
  n: number;
  bounce?: number;
  durationMs?: number;
  path: string;
  source?: Record<string, string>;
  more?: Record<string, unknown>;
}

const utc = (moscow: string): string => new Date(Date.parse(`${moscow.replace(' ', 'T')}+03:00`)).toISOString().replace('T', ' ').replace('Z', '');

const SEARCH = { traffic_type: 'search', traffic_system: 'yandex', search_system: 'yandex', search_phrase: 'купить слона' };
const SOCIAL = { traffic_type: 'social', traffic_system: 'vk', social_network: 'vk' };
const DIRECT = { traffic_type: 'direct' };
const DESKTOP = { device_type: 'desktop', browser_family: 'Chrome', geo_country: 2017370 };
const PHONE = { device_type: 'smartphone', browser_family: 'Mobile Safari', geo_country: 630336 };

/**
 * Visit 1 (visitor a, 10 Nov, from a Yandex search): two pages and a custom event, 3 minutes.
 * Visit 2 (visitor b, 10 Nov, direct, phone): one page, a block shown and clicked, 6 seconds: a bounce.
 * Visit 3 (visitor a again, 11 Nov, from VK): one page: a bounce.
 */
const EVENTS: Fixture[] = [
  { type: 'pageview', at: `${D1} 10:00:00`, visitor: 'a', session: 1, start: `${D1} 10:00:00`, n: 1, bounce: 1, path: '/news/1', source: SEARCH, more: DESKTOP },
  { type: 'pageview', at: `${D1} 10:02:00`, visitor: 'a', session: 1, start: `${D1} 10:00:00`, n: 2, bounce: -1, durationMs: 120_000, path: '/news/2', source: SEARCH, more: DESKTOP },
  {
    type: 'event', at: `${D1} 10:03:00`, visitor: 'a', session: 1, start: `${D1} 10:00:00`, n: 3, durationMs: 60_000, path: '/news/2', source: SEARCH,
    more: { ...DESKTOP, event_class: 'cv', event_name: 'subscribe', event_params: { plan: 'pro' } },
  },
  { type: 'pageview', at: `${D1} 10:07:00`, visitor: 'b', session: 2, start: `${D1} 10:07:00`, n: 1, bounce: 1, path: '/', source: DIRECT, more: PHONE },
  { type: 'show', at: `${D1} 10:07:05`, visitor: 'b', session: 2, start: `${D1} 10:07:00`, n: 2, durationMs: 5000, path: '/', source: DIRECT, more: { ...PHONE, block_name: 'hero' } },
  { type: 'click', at: `${D1} 10:07:06`, visitor: 'b', session: 2, start: `${D1} 10:07:00`, n: 3, durationMs: 1000, path: '/', source: DIRECT, more: { ...PHONE, block_name: 'hero' } },
  { type: 'pageview', at: `${D2} 11:00:00`, visitor: 'a', session: 3, start: `${D2} 11:00:00`, n: 1, bounce: 1, path: '/news/1?from=vk', source: SOCIAL, more: DESKTOP },
];

function row(f: Fixture): Record<string, unknown> {
  const url = `https://site.example${f.path}`;
  return {
    event_key: eventKeyOf(crypto.randomUUID()),
    project_id: PROJECT,
    event_type: f.type,
    ts: utc(f.at),
    event_date: f.at.slice(0, 10),
    visitor_id: f.visitor,
    session_id: f.session,
    session_start: utc(f.start),
    event_number: f.n,
    bounce_delta: f.bounce ?? 0,
    duration_delta: f.durationMs ?? 0,
    url,
    url_no_args: url.split('?')[0],
    url_args_key: url.includes('?') ? 'from' : '',
    ...f.source,
    ...f.more,
  };
}

let clickhouse: ClickHouseClient;
let service: ReportAnswers;

useChdb('report-engine', () => EVENTS.map(row), async (client) => {
  clickhouse = client;
  // The names of two systems, as the aggregator writes them at its start; the newer version of a name wins.
  await clickhouse.insert({
    table: 'ch_traffic_systems',
    values: [
      { traffic_type: 'search', id: 'yandex', name: 'Yandex', digest: 'a', version: 1 },
      { traffic_type: 'search', id: 'yandex', name: 'Яндекс', digest: 'b', version: 2 },
      { traffic_type: 'social', id: 'vk', name: 'ВКонтакте', digest: 'b', version: 2 },
    ],
    format: 'JSONEachRow',
  });
  service = answersOver(clickhouse, NOW);
});

const twoDays = { date_start: D1, date_end: D2, group: 'day' } as const;
const request = (more: Partial<ReportRequest> = {}): ReportRequest => ({ ...twoDays, ...more }) as ReportRequest;

/** Rows as [title, ...metrics]: what a reader of the table sees. */
const shown = (t: TableResult): (string | number | null)[][] => t.data.map((r) => [r.extra.title, ...r.metrics]);

describe('the report engine, on a traffic counted by hand', () => {
  const VISIT_METRICS = ['visits', 'visitors', 'page_views', 'bounces', 'avg_view_depth', 'avg_sessions_duration'] as const;

  it('traffic_sources: a row per traffic type, visits counted where they start, and the totals', async () => {
    const t = await service.table(PROJECT, 'traffic_sources', request({ metrics: [...VISIT_METRICS] }));
    expect(shown(t)).toEqual([
      // visits, visitors, page views, bounce %, depth, seconds per visit
      ['Прямые заходы', 1, 1, 1, 100, 1, 6],
      ['Поисковые системы', 1, 1, 2, 0, 2, 180],
      ['Социальные сети', 1, 1, 1, 100, 1, 0],
    ]);
    expect(t.totals).toEqual([3, 2, 4, 66.67, 1.33, 62]);
    expect(t.meta).toEqual({ total: 3, offset: 0, sample: 1 });
    expect(t.data.map((r) => [r.id, r.parent_id, r.level, r.can_be_expanded])).toEqual([
      ['["direct"]', null, 0, true],
      ['["search"]', null, 0, true],
      ['["social"]', null, 0, true],
    ]);
  });

  it('traffic_sources: a row expands into its systems, and a system into its phrases', async () => {
    const systems = await service.table(PROJECT, 'traffic_sources', request({ metrics: ['visits', 'page_views'], parents: ['search'] }));
    expect(systems.data.map((r) => [r.id, r.parent_id, r.level, r.can_be_expanded, ...r.metrics])).toEqual([['["search","yandex"]', '["search"]', 1, true, 1, 2]]);
    // A system reads by its name from the dictionary, not by its id.
    expect(systems.data.map((r) => r.extra.title)).toEqual(['Яндекс']);
    const phrases = await service.table(PROJECT, 'traffic_sources', request({ metrics: ['visits', 'page_views'], parents: ['search', 'yandex'] }));
    expect(phrases.data.map((r) => [r.extra.title, r.level, r.can_be_expanded, ...r.metrics])).toEqual([['купить слона', 2, false, 1, 2]]);
  });

  it('social_network and search_system_phrase: systems read by their names, a system the dictionary lacks by its id', async () => {
    const social = await service.table(PROJECT, 'social_network', request({ metrics: ['visits'] }));
    expect(shown(social)).toEqual([['ВКонтакте', 1]]);
    const search = await service.table(PROJECT, 'search_system_phrase', request({ metrics: ['visits'] }));
    expect(shown(search)).toEqual([['Яндекс', 1]]);
    await clickhouse.command({ query: "ALTER TABLE ch_traffic_systems DELETE WHERE id = 'vk'", clickhouse_settings: { mutations_sync: '2' } });
    // The names are kept a minute (the aggregator writes them at its start), then read again.
    expect(shown(await service.table(PROJECT, 'social_network', request({ metrics: ['visits'] })))).toEqual([['ВКонтакте', 1]]);
    const fresh = new ReportAnswers(new ReportEngine(clickhouse), new DictionaryRepository(clickhouse), () => NOW, new Sampling(new ReportEngine(clickhouse), 0));
    expect(shown(await fresh.table(PROJECT, 'social_network', request({ metrics: ['visits'] })))).toEqual([['vk', 1]]);
    await clickhouse.insert({ table: 'ch_traffic_systems', values: [{ traffic_type: 'social', id: 'vk', name: 'ВКонтакте', digest: 'b', version: 2 }], format: 'JSONEachRow' });
  });

  it('places: read by their ids once a minute; a place the dictionary did not know shows as soon as it does', async () => {
    const place = (id: number, name: string, version: number) => ({ id, name, kind: 'city', parent_id: 2017370, digest: 'd', version });
    await clickhouse.insert({ table: 'ch_geo', values: [place(990001, 'Тверь', 1), place(990002, 'Клин', 1)], format: 'JSONEachRow' });
    const dictionaries = new DictionaryRepository(clickhouse);
    const names = async (d: DictionaryRepository): Promise<string[]> => (await d.geo([990003, 990002, 990001, 990002])).map((p) => `${p.id} ${p.name}`);
    expect(await names(dictionaries)).toEqual(['990001 Тверь', '990002 Клин']);
    await clickhouse.insert({ table: 'ch_geo', values: [place(990002, 'Клин (Московская область)', 2), place(990003, 'Ржев', 1)], format: 'JSONEachRow' });
    // Kept: the dictionary changes when an aggregator starts, so a minute-old name is good; an id
    // it did not know is asked again (its names may not have been written yet).
    expect(await names(dictionaries)).toEqual(['990001 Тверь', '990002 Клин', '990003 Ржев']);
    dictionaries.geoTtlMs = 0;
    expect(await names(dictionaries)).toEqual(['990001 Тверь', '990002 Клин (Московская область)', '990003 Ржев']);
  });

  it('sorts by a metric in SQL, ties by title, and pages with limit and offset', async () => {
    const byViews = await service.table(PROJECT, 'traffic_sources', request({ metrics: ['page_views'], sort: { name: 'page_views', order: 'desc' }, limit: 2 }));
    expect(shown(byViews)).toEqual([['Поисковые системы', 2], ['Прямые заходы', 1]]);
    const next = await service.table(PROJECT, 'traffic_sources', request({ metrics: ['page_views'], sort: { name: 'page_views', order: 'desc' }, limit: 2, offset: 2 }));
    expect(shown(next)).toEqual([['Социальные сети', 1]]);
    expect(next.meta.total).toBe(3);
    // Past the last row, and with no rows asked for, the count is still the level's.
    const past = await service.table(PROJECT, 'traffic_sources', request({ metrics: ['page_views'], offset: 10 }));
    const none = await service.table(PROJECT, 'traffic_sources', request({ metrics: ['page_views'], limit: 0 }));
    expect([past.data, past.meta.total, none.data, none.meta.total, none.totals]).toEqual([[], 3, [], 3, [4]]);
  });

  it('sorts by the name column as the names read, not by the codes behind them, and pages that order', async () => {
    const byName = (order: 'asc' | 'desc', more: Partial<ReportRequest> = {}) =>
      service.table(PROJECT, 'traffic_sources', request({ metrics: ['page_views'], sort: { name: 'title', order }, ...more }));
    // The codes direct, search, social would put «Прямые заходы» first.
    expect(shown(await byName('asc'))).toEqual([['Поисковые системы', 2], ['Прямые заходы', 1], ['Социальные сети', 1]]);
    expect(shown(await byName('desc'))).toEqual([['Социальные сети', 1], ['Прямые заходы', 1], ['Поисковые системы', 2]]);
    const second = await byName('asc', { limit: 1, offset: 1 });
    expect([shown(second), second.meta.total, second.totals]).toEqual([[['Прямые заходы', 1]], 3, [4]]);
    // The CSV of the table sorted so is in the same order.
    const { lines } = await service.csv(PROJECT, 'traffic_sources', request({ metrics: ['page_views'], sort: { name: 'title', order: 'desc' } }));
    const text = await textOf(lines);
    expect(text.split('\r\n').slice(1)).toEqual(['Итого;4', 'Социальные сети;1', 'Прямые заходы;1', 'Поисковые системы;2', '']);
  });

  it('page_urls: pages count every visit that viewed them; a page expands into its addresses with arguments', async () => {
    const t = await service.table(PROJECT, 'page_urls', request({ metrics: ['page_views', 'visits', 'visitors'] }));
    expect(shown(t)).toEqual([
      ['https://site.example/news/1', 2, 2, 1],
      ['https://site.example/', 1, 1, 1],
      ['https://site.example/news/2', 1, 1, 1],
    ]);
    const urls = await service.table(PROJECT, 'page_urls', request({ metrics: ['page_views'], parents: ['https://site.example/news/1'] }));
    expect(shown(urls)).toEqual([['https://site.example/news/1', 1], ['https://site.example/news/1?from=vk', 1]]);
  });

  it('page_urls: a page sorted by a sum is found before any state is merged, paged and filtered by sums, with the site\'s totals', async () => {
    const metrics = ['page_views', 'visits', 'visitors'] as const;
    // Found keys first (the pages' sums choose the page, then only its rows' states are merged),
    // the totals from the site's days: page views 4; visits 1, 2, 3; visitors a, b.
    const plan = (more: Partial<ReportRequest>) => planReport(reportDefinition('page_urls')!, PROJECT, request({ metrics: [...metrics], ...more }), '2026-11-12', 'table').plan;
    expect([findsKeysFirst(plan({}), { sortBy: 'page_views', limit: 1 }), totalsOfSite(plan({}))]).toEqual([true, true]);
    const second = await service.table(PROJECT, 'page_urls', request({ metrics: [...metrics], limit: 1, offset: 1 }));
    // Ties by the address: «/» before «/news/2».
    expect(shown(second)).toEqual([['https://site.example/', 1, 1, 1]]);
    expect([second.meta.total, second.totals]).toEqual([3, [4, 3, 2]]);
    const fewViews = await service.table(PROJECT, 'page_urls', request({ metrics: [...metrics], sort: { name: 'page_views', order: 'asc' }, metric_filters: [{ key: 'page_views', op: '<', value: 2 }] }));
    expect(shown(fewViews)).toEqual([['https://site.example/', 1, 1, 1], ['https://site.example/news/2', 1, 1, 1]]);
    expect([fewViews.meta.total, fewViews.totals]).toEqual([2, [4, 3, 2]]);
    const byTitle = await service.table(PROJECT, 'page_urls', request({ metrics: [...metrics], sort: { name: 'title', order: 'desc' }, limit: 2 }));
    expect(shown(byTitle)).toEqual([['https://site.example/news/2', 1, 1, 1], ['https://site.example/news/1', 2, 2, 1]]);
    // A sort or a metric filter by a distinct count needs every row's states; a filter, the kept rows' totals.
    expect(findsKeysFirst(plan({}), { sortBy: 'visitors', limit: 1 })).toBe(false);
    expect(findsKeysFirst(plan({ metric_filters: [{ key: 'visits', op: '>', value: 1 }] }), { sortBy: 'page_views', limit: 1 })).toBe(false);
    expect([findsKeysFirst(plan({ dimension_filters: [{ key: 'url_no_args', op: 'like', value: '*news*' }] }), { sortBy: 'page_views', limit: 1 }), totalsOfSite(plan({ dimension_filters: [{ key: 'url_no_args', op: 'like', value: '*news*' }] }))]).toEqual([false, false]);
    const byVisitors = await service.table(PROJECT, 'page_urls', request({ metrics: [...metrics], sort: { name: 'visitors', order: 'desc' }, metric_filters: [{ key: 'visits', op: '>', value: 1 }] }));
    expect([shown(byVisitors), byVisitors.meta.total, byVisitors.totals]).toEqual([[['https://site.example/news/1', 2, 2, 1]], 1, [4, 3, 2]]);
    const news = await service.table(PROJECT, 'page_urls', request({ metrics: [...metrics], dimension_filters: [{ key: 'url_no_args', op: 'like', value: '*news*' }] }));
    expect([shown(news), news.totals]).toEqual([[['https://site.example/news/1', 2, 2, 1], ['https://site.example/news/2', 1, 1, 1]], [3, 2, 1]]);
  });

  it('page_urls in a large period: a filtered top level is found keys first, its totals apart, with the very same numbers', async () => {
    const metrics = ['page_views', 'visits', 'visitors'] as const;
    // Every period is large for this service (from 1 event): see LARGE_PERIOD_EVENTS.
    const engine = new ReportEngine(clickhouse);
    const large = new ReportAnswers(engine, new DictionaryRepository(clickhouse), () => NOW, new Sampling(engine, 0, () => NOW, 1));
    const filtered: Partial<ReportRequest> = { metrics: [...metrics], dimension_filters: [{ key: 'url_no_args', op: 'like', value: '*news*' }] };
    const planned = planReport(reportDefinition('page_urls')!, PROJECT, request(filtered), '2026-11-12', 'table').plan;
    expect([findsKeysFirst(planned, { sortBy: 'page_views', limit: 10 }), findsKeysFirst({ ...planned, largePeriod: true }, { sortBy: 'page_views', limit: 10 })]).toEqual([false, true]);
    // An expanded level (a page's few addresses) stays one query.
    expect(findsKeysFirst({ ...planned, largePeriod: true, parents: ['https://site.example/news/1'] }, { sortBy: 'page_views', limit: 10 })).toBe(false);
    for (const asked of [request(filtered), request({ ...filtered, limit: 1, offset: 1 }), request({ ...filtered, metrics: ['page_views'], parents: ['https://site.example/news/1'] })]) {
      const [one, apart] = await Promise.all([service.table(PROJECT, 'page_urls', asked), large.table(PROJECT, 'page_urls', asked)]);
      expect([shown(apart), apart.totals, apart.meta.total]).toEqual([shown(one), one.totals, one.meta.total]);
    }
    // By hand (the «news» pages): /news/1 2 views, 2 visits, 1 visitor; /news/2 1, 1, 1; totals 3 views, 2 visits, 1 visitor.
    const whole = await large.table(PROJECT, 'page_urls', request(filtered));
    expect([shown(whole), whole.totals, whole.meta.total]).toEqual([[['https://site.example/news/1', 2, 2, 1], ['https://site.example/news/2', 1, 1, 1]], [3, 2, 1], 2]);
  });

  it('entrance_pages, view_depth and visit_time read the visits', async () => {
    const entrances = await service.table(PROJECT, 'entrance_pages', request({ metrics: ['visits', 'bounces'] }));
    // The entry page is the address as visited, arguments included.
    expect(shown(entrances)).toEqual([
      ['https://site.example/', 1, 100],
      ['https://site.example/news/1', 1, 0],
      ['https://site.example/news/1?from=vk', 1, 100],
    ]);
    const depth = await service.table(PROJECT, 'view_depth', request({ metrics: ['visits'], sort: { name: 'title', order: 'asc' } }));
    expect(shown(depth)).toEqual([['1', 2], ['2', 1]]);
    const time = await service.table(PROJECT, 'visit_time', request({ metrics: ['visits'], sort: { name: 'title' } }));
    expect(shown(time)).toEqual([['Менее 15 секунд', 2], ['3–10 минут', 1]]);
  });

  it('time on site of the visits is the visit\'s duration as defined: an engagement report sent later does not lengthen it', async () => {
    // Its own project: one page view, then the page's engagement report 20 s later (10 s visible):
    // a bounce (one page view, neither lasted nor engaged 15 s) that lasted 0 s.
    const own = PROJECT + 2;
    const start = `${D1} 12:00:00`;
    const visit = { visitor: 'c', session: 21, start, path: '/', source: DIRECT, more: DESKTOP };
    await clickhouse.insert({
      table: 'events',
      values: [
        { ...row({ ...visit, type: 'pageview', at: start, n: 1, bounce: 1 }), project_id: own },
        { ...row({ ...visit, type: 'engagement', at: `${D1} 12:00:20`, n: 2, more: { ...DESKTOP, engaged_ms: 10_000 } }), project_id: own },
      ],
      format: 'JSONEachRow',
    });
    const time = await service.table(own, 'visit_time', request({ metrics: ['visits', 'bounces'] }));
    expect(shown(time)).toEqual([['Менее 15 секунд', 1, 100]]);
    const metrics = { metrics: ['visits', 'bounces', 'avg_sessions_duration'] } as const;
    const entrances = await service.table(own, 'entrance_pages', request({ metrics: [...metrics.metrics] }));
    const sources = await service.table(own, 'traffic_sources', request({ metrics: [...metrics.metrics] }));
    expect([entrances.totals, sources.totals]).toEqual([[1, 100, 0], [1, 100, 0]]);
  });

  it('screen sizes: a row per size of the page views; the visit\'s other hits, which carry no screen, make no «0x0» row', async () => {
    // Its own project: visitor d's visit of two page views on 1920x1080 with an engagement report
    // and a block click between them (no screen), and visitor e's one page view on 390x844.
    const own = PROJECT + 3;
    const at = (hhmmss: string): string => `${D1} ${hhmmss}`;
    const d = { visitor: 'd', session: 31, start: at('09:00:00'), path: '/', source: DIRECT };
    const wide = { ...DESKTOP, screen_width: 1920, screen_height: 1080 };
    await clickhouse.insert({
      table: 'events',
      values: [
        row({ ...d, type: 'pageview', at: at('09:00:00'), n: 1, more: wide }),
        row({ ...d, type: 'engagement', at: at('09:00:40'), n: 2, more: { ...DESKTOP, engaged_ms: 30_000 } }),
        row({ ...d, type: 'click', at: at('09:00:50'), n: 3, more: { ...DESKTOP, block_name: 'menu' } }),
        row({ ...d, type: 'pageview', at: at('09:01:00'), n: 4, more: wide }),
        row({ visitor: 'e', session: 32, start: at('09:05:00'), path: '/', source: DIRECT, type: 'pageview', at: at('09:05:00'), n: 1, more: { ...PHONE, screen_width: 390, screen_height: 844 } }),
      ].map((r) => ({ ...r, project_id: own })),
      format: 'JSONEachRow',
    });
    const metrics = ['visits', 'visitors', 'page_views'] as const;
    const sizes = await service.table(own, 'screensize', request({ metrics: [...metrics] }));
    expect(shown(sizes)).toEqual([
      ['1920x1080', 1, 1, 2],
      ['390x844', 1, 1, 1],
    ]);
    expect(sizes.totals).toEqual([2, 2, 3]);
    const widths = await service.table(own, 'drilldown_width', request({ metrics: [...metrics] }));
    expect(widths.data.map((r) => [r.extra.value, ...r.metrics])).toEqual([
      [390, 1, 1, 1],
      [1920, 1, 1, 2],
    ]);
  });

  it('usability and custom_vars: block shows and clicks, events by name, parameter and value', async () => {
    const blocks = await service.table(PROJECT, 'usability', request());
    expect(shown(blocks)).toEqual([['hero', 1, 1, 100]]);
    const events = await service.table(PROJECT, 'custom_vars', request());
    expect(shown(events)).toEqual([['subscribe', 1, 1, 1]]);
    const keys = await service.table(PROJECT, 'custom_vars', request({ parents: ['subscribe'] }));
    expect(shown(keys)).toEqual([['plan', 1, 1, 1]]);
    const values = await service.table(PROJECT, 'custom_vars', request({ parents: ['subscribe', 'plan'] }));
    expect(shown(values)).toEqual([['pro', 1, 1, 1]]);
  });

  it('totals of custom parameters count an event with two parameters once, as their rows count it in each', async () => {
    // Its own project: one event with two parameters, so it is a row of each key and once in the totals.
    const own = PROJECT + 1;
    const event = { ...row(EVENTS[2]!), project_id: own, event_params: { plan: 'pro', period: 'year' } };
    await clickhouse.insert({ table: 'events', values: [event], format: 'JSONEachRow' });
    const keys = await service.table(own, 'custom_vars', request({ parents: ['subscribe'], metrics: ['events_count'] }));
    expect(shown(keys)).toEqual([['period', 1], ['plan', 1]]);
    expect([keys.totals, keys.meta.total]).toEqual([[1], 2]);
    const csv = await service.csv(own, 'custom_vars', request({ parents: ['subscribe'], metrics: ['events_count'] }));
    const text = await textOf(csv.lines);
    expect(text.split('\r\n').slice(1, 4)).toEqual(['Итого;1', 'period;1', 'plan;1']);
  });

  it('a page past the last row and a level of no rows keep their totals and count; the CSV of no rows has its totals line', async () => {
    const filtered = { dimension_filters: [{ key: 'traffic_type', op: '=', value: 'search' }] } as Partial<ReportRequest>;
    const past = await service.table(PROJECT, 'traffic_sources', request({ ...filtered, metrics: ['visits', 'page_views'], offset: 5 }));
    expect([past.data, past.totals, past.meta.total]).toEqual([[], [1, 2], 1]);
    const nothing = { dimension_filters: [{ key: 'traffic_type', op: '=', value: 'ad' }] } as Partial<ReportRequest>;
    const empty = await service.table(PROJECT, 'traffic_sources', request({ ...nothing, metrics: ['visits', 'page_views'] }));
    expect([empty.data, empty.totals, empty.meta.total]).toEqual([[], [0, 0], 0]);
    const csv = await service.csv(PROJECT, 'traffic_sources', request({ ...nothing, metrics: ['visits', 'page_views'] }));
    const text = await textOf(csv.lines);
    expect(text.split('\r\n').slice(1)).toEqual(['Итого;0;0', '']);
  });

  it('resolves relative dates, and refuses the future and a grouping that does not fit the period', async () => {
    const yesterday = await service.table(PROJECT, 'traffic_sources', request({ date_start: 'yesterday', date_end: 'yesterday', group: 'hour', metrics: ['visits'] }));
    expect(shown(yesterday)).toEqual([['Социальные сети', 1]]);
    const week = await service.table(PROJECT, 'traffic_sources', request({ date_start: '7days', date_end: 'today', metrics: ['visits'] }));
    expect(week.totals).toEqual([3]);
    await expect(service.table(PROJECT, 'summary', request({ date_end: '2026-11-13' }))).rejects.toThrow(/date_end: 2026-11-13 lies in the future/);
    await expect(service.table(PROJECT, 'summary', request({ group: 'month' }))).rejects.toThrow(/group: month does not fit a period of 2 days/);
    await expect(service.table(PROJECT, 'summary', request({ date_start: '2026-01-01', group: 'five_minute' }))).rejects.toThrow(/group/);
  });

  it('refuses a graph whose queries cannot be built, with nothing left unhandled (an unhandled rejection stops the service)', async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      const asked = request({ need_all_total: true, dimension_filters: [{ key: 'geo_country', op: '>', value: 'many' }] });
      await expect(service.graph(PROJECT, 'traffic_sources', asked)).rejects.toThrow(/value of geo_country must be a number from -9007199254740991 to 9007199254740991: "many" is not one/);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
    }
  });

  it('refuses a metric the report does not offer, and a sort by a column not shown', async () => {
    await expect(service.table(PROJECT, 'page_urls', request({ metrics: ['bounces'] }))).rejects.toThrow(/bounces is not a metric of the report page_urls/);
    await expect(service.table(PROJECT, 'geo', request({ metrics: ['visits'], sort: { name: 'page_views', order: 'desc' } }))).rejects.toThrow(/sort.name: page_views/);
    await expect(service.table(PROJECT, 'geo', request({ parents: [1, 2, 3] }))).rejects.toThrow(/parents/);
    await expect(service.table(PROJECT, 'geo', request({ dimension_filters: [{ key: 'geo_city', op: '=', value: 'Москва' }] }))).rejects.toThrow(/value of geo_city must be a number/);
    await expect(service.table(PROJECT, 'no_such_report', request())).rejects.toThrow(/not found/);
  });

  it('CSV: the byte-order mark, the column titles, the totals, then every row, semicolons and comma decimals', async () => {
    const { disposition, lines } = await service.csv(PROJECT, 'traffic_sources', request({ metrics: ['visits', 'bounces', 'avg_view_depth'], limit: 1 }));
    const text = await textOf(lines);
    expect(text).toBe(
      '\uFEFFТип источника;Визиты;Отказы, %;Глубина просмотра\r\n' +
        'Итого;3;66,67;1,33\r\n' +
        'Прямые заходы;1;100;1\r\nПоисковые системы;1;0;2\r\nСоциальные сети;1;100;1\r\n',
    );
    expect(disposition).toContain(encodeURIComponent(`Источники трафика ${D1} — ${D2}.csv`));
  });

  it('CSV of a report of time rows: a line per bucket, labelled as the table labels it', async () => {
    const csv = async (more: Partial<ReportRequest>): Promise<string> => {
      const { lines } = await service.csv(PROJECT, 'summary', request({ metrics: ['page_views', 'visits'], sort: { name: 'date', order: 'asc' }, ...more }));
      return textOf(lines);
    };
    expect(await csv({})).toBe('\uFEFFДата;Просмотры;Визиты\r\nИтого;4;3\r\n10.11.2026;3;2\r\n11.11.2026;1;1\r\n');
    // A week cut by the period is that part of it; an hour has its time.
    expect((await csv({ date_start: '2026-11-01', group: 'week' })).split('\r\n').slice(2)).toEqual([
      '01.11.2026 – 01.11.2026;0;0',
      '02.11.2026 – 08.11.2026;0;0',
      '09.11.2026 – 11.11.2026;4;3',
      '',
    ]);
    expect((await csv({ date_end: D1, group: 'hour' })).split('\r\n').slice(2, 4)).toEqual(['10.11.2026 00:00;0;0', '10.11.2026 01:00;0;0']);
  });

  it('a report of something the service does not collect answers no rows and says why', async () => {
    const t = await service.table(PROJECT, 'sex', request());
    expect(t.data).toEqual([]);
    expect(t.meta.not_collected).toMatch(/panel/);
  });

  describe('filters', () => {
    const sources = async (more: Partial<ReportRequest>): Promise<(string | number | null)[][]> =>
      shown(await service.table(PROJECT, 'traffic_sources', request({ metrics: ['visits', 'page_views'], ...more })));

    it.each([
      ['=', 'search', [['Поисковые системы', 1, 2]]],
      ['!=', 'search', [['Прямые заходы', 1, 1], ['Социальные сети', 1, 1]]],
      ['include', ['search', 'social'], [['Поисковые системы', 1, 2], ['Социальные сети', 1, 1]]],
      ['exclude', ['search', 'social'], [['Прямые заходы', 1, 1]]],
      ['like', 's*', [['Поисковые системы', 1, 2], ['Социальные сети', 1, 1]]],
      ['like', 'S*', []],
      ['like', '@S*', [['Поисковые системы', 1, 2], ['Социальные сети', 1, 1]]],
      ['nlike', '*a*', [['Прямые заходы', 1, 1]]],
      ['multilike', ['d*', '*l'], [['Прямые заходы', 1, 1], ['Социальные сети', 1, 1]]],
      ['multilikeand', ['s*', '*h'], [['Поисковые системы', 1, 2]]],
      ['nmultilike', ['d*', '*l'], [['Поисковые системы', 1, 2]]],
      ['>', 'r', [['Поисковые системы', 1, 2], ['Социальные сети', 1, 1]]],
      ['>=', 'social', [['Социальные сети', 1, 1]]],
      ['<', 'e', [['Прямые заходы', 1, 1]]],
      ['<=', 'search', [['Прямые заходы', 1, 1], ['Поисковые системы', 1, 2]]],
      ['range', ['e', 'sz'], [['Поисковые системы', 1, 2], ['Социальные сети', 1, 1]]],
    ] as const)('traffic_type %s %j', async (op, value, expected) => {
      expect(await sources({ dimension_filters: [{ key: 'traffic_type', op, value: value as never }] })).toEqual(expected);
    });

    it('a pattern takes % and _ as themselves', async () => {
      expect(await sources({ dimension_filters: [{ key: 'traffic_type', op: 'like', value: 'searc_' }] })).toEqual([]);
    });

    it('numbers compare as numbers', async () => {
      const t = await service.table(PROJECT, 'geo', request({ metrics: ['visits'], dimension_filters: [{ key: 'geo_country', op: '>', value: 1_000_000 }] }));
      expect(t.data.map((r) => [r.extra.value, ...r.metrics])).toEqual([[2017370, 2]]);
    });

    it('a rule on pages keeps the visits that viewed such a page, whole', async () => {
      expect(await sources({ dimension_filters: [{ key: 'url_no_args', op: 'like', value: '*/news/1' }] })).toEqual([
        ['Поисковые системы', 1, 2],
        ['Социальные сети', 1, 1],
      ]);
    });

    it('a rule on a visit\'s depth or time on site keeps, in a report of events, the events of the visits that meet it', async () => {
      // Visit 1 viewed two pages in 3 minutes; visits 2 and 3 one page each, in 6 seconds and none.
      expect(await sources({ dimension_filters: [{ key: 'view_depth', op: '>=', value: 2 }] })).toEqual([['Поисковые системы', 1, 2]]);
      expect(await sources({ dimension_filters: [{ key: 'visit_time', op: '<', value: 60 }] })).toEqual([
        ['Прямые заходы', 1, 1],
        ['Социальные сети', 1, 1],
      ]);
      const pages = await service.table(PROJECT, 'page_urls', request({ metrics: ['page_views', 'visits'], dimension_filters: [{ key: 'view_depth', op: '=', value: 1 }] }));
      expect(shown(pages)).toEqual([
        ['https://site.example/', 1, 1],
        ['https://site.example/news/1', 1, 1],
      ]);
      expect(pages.totals).toEqual([2, 2]);
      const graph = await service.graph(PROJECT, 'summary', request({ metrics: ['visits'], dimension_filters: [{ key: 'view_depth', op: '>', value: 1 }] }));
      expect(graph.totals).toEqual([1]);
    });

    it('an event rule narrows to its class', async () => {
      const rule = { key: 'event_name', op: '=', value: 'subscribe' } as const;
      expect(await sources({ dimension_filters: [{ ...rule, extra: { eventClass: 'cv' } }] })).toEqual([['Поисковые системы', 1, 2]]);
      expect(await sources({ dimension_filters: [{ ...rule, extra: { eventClass: 'ub' } }] })).toEqual([]);
    });

    it('rules combine with AND; the legacy `filters` joins `dimension_filters`', async () => {
      expect(
        await sources({
          dimension_filters: [{ key: 'traffic_type', op: '!=', value: 'direct' }],
          filters: [{ key: 'device_type', op: '=', value: 'desktop' }, { key: 'traffic_type', op: '!=', value: 'social' }],
        }),
      ).toEqual([['Поисковые системы', 1, 2]]);
    });

    it('metric filters keep the rows whose metric passes, and leave the totals whole', async () => {
      const t = await service.table(PROJECT, 'traffic_sources', request({ metrics: ['visits', 'page_views'], metric_filters: [{ key: 'page_views', op: '>', value: 1 }] }));
      expect(shown(t)).toEqual([['Поисковые системы', 1, 2]]);
      expect(t.meta.total).toBe(1);
      expect(t.totals).toEqual([3, 4]);
    });
  });

  describe('graphs', () => {
    it('summary: a point per day of the period with the totals', async () => {
      const g = await service.graph(PROJECT, 'summary', request({ metrics: ['page_views', 'visits', 'visitors'] }));
      expect(g.data.map((l) => [l.id, l.points.map((p) => [p.date, ...p.metrics])])).toEqual([
        ['total', [[`${D1} 00:00:00`, 3, 2, 2], [`${D2} 00:00:00`, 1, 1, 1]]],
      ]);
      expect(g.totals).toEqual([4, 3, 2]);
    });

    it('summary by five minutes: a visit is counted once, in the bucket where it starts', async () => {
      const g = await service.graph(PROJECT, 'summary', request({ date_end: D1, group: 'five_minute', metrics: ['page_views', 'visits'] }));
      const busy = g.data[0]!.points.filter((p) => p.metrics.some((v) => v !== null && v > 0)).map((p) => [p.date, ...p.metrics]);
      expect(busy).toEqual([[`${D1} 10:00:00`, 2, 1], [`${D1} 10:05:00`, 1, 1]]);
    });

    it('a line per selected row and the line of the whole report', async () => {
      const g = await service.graph(PROJECT, 'traffic_sources', request({ metrics: ['page_views'], selected_lines: ['["search"]', '["search","yandex"]'], need_all_total: true }));
      expect(g.data.map((l) => [l.id, l.title, l.points.map((p) => p.metrics[0])])).toEqual([
        ['total', 'Итого', [3, 1]],
        ['["search"]', 'Поисковые системы', [2, 0]],
        ['["search","yandex"]', 'Яндекс', [2, 0]],
      ]);
    });

    it('without selected lines, the first rows of the table are drawn', async () => {
      const g = await service.graph(PROJECT, 'traffic_sources', request({ metrics: ['visits'] }));
      expect(g.data.map((l) => l.id)).toEqual(['["direct"]', '["search"]', '["social"]']);
    });

    it('without selected lines, the lines are the first five rows of the table by its sort', async () => {
      // Another project: eight browsers, visits counted by hand (one page view a visit), two ties.
      const OTHER = PROJECT + 1;
      const visits: [string, number][] = [['Chrome', 6], ['Firefox', 5], ['Opera', 4], ['Edge', 4], ['Safari', 3], ['Yandex Browser', 2], ['Vivaldi', 1], ['Samsung Internet', 1]];
      let session = 100;
      const rows = visits.flatMap(([browser, count]) =>
        Array.from({ length: count }, (_, i) => {
          session += 1;
          const at = `${D1} 1${i}:00:00`;
          return { ...row({ type: 'pageview', at, visitor: `${browser}${i}`, session, start: at, n: 1, bounce: 1, path: '/', source: DIRECT, more: { device_type: 'desktop', browser_family: browser } }), project_id: OTHER };
        }),
      );
      await clickhouse.insert({ table: 'events', values: rows, format: 'JSONEachRow' });
      const lines = async (more: Partial<ReportRequest>) => {
        const body = request({ metrics: ['visits'], ...more });
        const [table, graph] = await Promise.all([service.table(OTHER, 'browser', body), service.graph(OTHER, 'browser', body)]);
        expect(graph.data.map((l) => l.id)).toEqual(table.data.slice(0, 5).map((r) => r.id));
        return graph.data.map((l) => [l.title, l.points.reduce((sum, p) => sum + p.metrics[0]!, 0)]);
      };
      // Most visits first; of two equal, the name first in order.
      expect(await lines({})).toEqual([['Chrome', 6], ['Firefox', 5], ['Edge', 4], ['Opera', 4], ['Safari', 3]]);
      expect(await lines({ sort: { name: 'visits', order: 'asc' } })).toEqual([['Samsung Internet', 1], ['Vivaldi', 1], ['Yandex Browser', 2], ['Safari', 3], ['Edge', 4]]);
      // The graph asked alone draws the same lines.
      const alone = await service.graph(OTHER, 'browser', request({ metrics: ['visits'] }));
      expect(alone.data.map((l) => l.title)).toEqual(['Chrome', 'Firefox', 'Edge', 'Opera', 'Safari']);
    });

    it('a week cut by the period starts at the period', async () => {
      // 1 November 2026 is a Sunday: its week is that one day.
      const g = await service.graph(PROJECT, 'summary', request({ date_start: '2026-11-01', date_end: D2, group: 'week', metrics: ['page_views'] }));
      expect(g.data[0]!.points.map((p) => [p.date, ...p.metrics])).toEqual([['2026-11-01 00:00:00', 0], ['2026-11-02 00:00:00', 0], ['2026-11-09 00:00:00', 4]]);
    });
  });

  describe('a window of minutes (the live dashboard)', () => {
    const at = (moscow: string): number => Date.parse(`${moscow.replace(' ', 'T')}+03:00`) / 1000;
    // 10:02:00 to 10:07:05 of 10 Nov: a's second page and event, b's page; not b's block show at 10:07:05.
    const window = { since: at(`${D1} 10:02:00`), until: at(`${D1} 10:07:05`) };
    const oneDay = { date_start: D1, date_end: D1, group: 'minute' } as const;

    it('reads only the events inside it, from the raw events whatever a rollup could answer', async () => {
      const source = (name: string): string => planReport(reportDefinition(name)!, PROJECT, request(oneDay), '2026-11-12', 'table', window).plan.source;
      expect([source('summary'), source('traffic_sources')]).toEqual(['events', 'events']);
      const summary = await service.table(PROJECT, 'summary', request({ ...oneDay, metrics: ['page_views', 'visitors', 'events_count'] }), window);
      expect(summary.totals).toEqual([2, 2, 1]);
      // A visit counts where it starts: b's began in the window, a's before it.
      expect(shown(await service.table(PROJECT, 'traffic_sources', request({ ...oneDay, metrics: ['visits'] }), window))).toEqual([
        ['Прямые заходы', 1],
        ['Поисковые системы', 0],
      ]);
      const graph = await service.graph(PROJECT, 'summary', request({ ...oneDay, metrics: ['page_views'] }), window);
      expect(graph.data[0]!.points.slice(0, 6).map((p) => [p.date, ...p.metrics])).toEqual([
        [`${D1} 10:02:00`, 1],
        [`${D1} 10:03:00`, 0],
        [`${D1} 10:04:00`, 0],
        [`${D1} 10:05:00`, 0],
        [`${D1} 10:06:00`, 0],
        [`${D1} 10:07:00`, 1],
      ]);
    });

    it('refuses the reports read from whole visits', () => {
      expect(() => planReport(reportDefinition('entrance_pages')!, PROJECT, request(oneDay), '2026-11-12', 'table', window)).toThrow('the report entrance_pages is read from whole visits and has no window of minutes');
    });
  });

  describe('the day rollups of drill-down paths', () => {
    // A rule every event passes, on a dimension no path rollup keeps, sends a request to the raw events.
    const toRaw: Partial<ReportRequest> = { dimension_filters: [{ key: 'title', op: 'like', value: '*' }] };

    it('answer traffic_sources, geo, page_urls and chapters when path, filters and metrics fit; the raw events otherwise', () => {
      const source = (name: string, more: Partial<ReportRequest>, kind: 'table' | 'graph' = 'table'): string =>
        planReport(reportDefinition(name)!, PROJECT, request(more), '2026-11-12', kind).plan.source;
      expect(['traffic_sources', 'geo', 'page_urls', 'chapters'].map((name) => source(name, {}))).toEqual(['paths', 'paths', 'paths', 'paths']);
      // The URL tree's levels are computed from the rollup's url_no_args, as filters too.
      expect(source('page_urls', { dimension_filters: [{ key: 'url_section_1', op: '=', value: '/news/' }] })).toBe('paths');
      expect(source('traffic_sources', { dimension_filters: [{ key: 'traffic_type', op: '=', value: 'search' }] })).toBe('paths');
      expect(source('traffic_sources', toRaw)).toBe('events');
      expect(source('traffic_sources', { date_end: D1, group: 'hour' }, 'graph')).toBe('events');
      expect(source('browser', {})).toBe('events');
    });

    it.each([
      ['traffic_sources', ['visits', 'visitors', 'page_views', 'bounces', 'avg_view_depth', 'avg_sessions_duration', 'uid'], ['search']],
      ['geo', ['visits', 'visitors', 'page_views', 'bounces', 'avg_view_depth', 'avg_sessions_duration', 'uid'], [2017370]],
      ['page_urls', ['page_views', 'visits', 'visitors', 'avg_view_duration', 'uid'], ['https://site.example/news/1']],
      ['chapters', ['page_views', 'visits', 'visitors', 'avg_view_duration', 'uid'], ['/news/']],
    ] as const)('%s: the same tables, expanded rows and graphs as the raw events', async (name, metrics, parents) => {
      const asked = { metrics: [...metrics] } as Partial<ReportRequest>;
      const raw = { ...asked, ...toRaw } as Partial<ReportRequest>;
      expect((await service.table(PROJECT, name, request(asked))).data.length).toBeGreaterThan(0);
      expect(await service.table(PROJECT, name, request(asked))).toEqual(await service.table(PROJECT, name, request(raw)));
      expect(await service.table(PROJECT, name, request({ ...asked, parents: [...parents] }))).toEqual(await service.table(PROJECT, name, request({ ...raw, parents: [...parents] })));
      expect(await service.graph(PROJECT, name, request({ ...asked, need_all_total: true }))).toEqual(await service.graph(PROJECT, name, request({ ...raw, need_all_total: true })));
    });
  });

  it('the rollups and the raw events give the same numbers for the same request', async () => {
    const metrics = ['page_views', 'visits', 'visitors', 'bounces', 'avg_view_depth', 'avg_sessions_duration'] as const;
    const periods = [
      ['five_minute', D1, D1],
      ['hour', D1, D2],
      ['day', D1, D2],
      ['week', '2026-11-01', D2],
      ['month', '2026-10-01', D2],
    ] as const;
    for (const [group, date_start, date_end] of periods) {
      const asked = { group, date_start, date_end, metrics: [...metrics] };
      const fromRollup = await service.graph(PROJECT, 'summary', request(asked));
      // A rule every event passes sends the same request to the raw events.
      const fromEvents = await service.graph(PROJECT, 'summary', request({ ...asked, dimension_filters: [{ key: 'url', op: 'like', value: '*' }] }));
      expect(fromRollup.data[0]!.points.length).toBeGreaterThan(0);
      expect(fromEvents).toEqual(fromRollup);
    }
  });
});

describe('the runner', () => {
  /** The test's own ClickHouse client, counting the queries that reach it. */
  function counted(): { engine: ReportEngine; queries: () => number } {
    let queries = 0;
    const client = Object.create(clickhouse) as ClickHouseClient;
    client.query = ((params: Parameters<ClickHouseClient['query']>[0]) => {
      queries += 1;
      return clickhouse.query(params);
    }) as ClickHouseClient['query'];
    return { engine: new ReportEngine(client), queries: () => queries };
  }

  it('reads a table in one query, its totals rolled up with its rows', async () => {
    const { engine, queries } = counted();
    const page = new ReportAnswers(engine, new DictionaryRepository(clickhouse), () => NOW, new Sampling(engine, 0));
    const asked = request({ metrics: ['visits', 'page_views'] });
    const [table, graph] = await Promise.all([page.table(PROJECT, 'traffic_sources', asked), page.graph(PROJECT, 'traffic_sources', asked)]);
    expect(table.totals).toEqual([3, 4]);
    expect(graph.totals).toEqual([3, 4]);
    // The table: one query, its rows with their totals rolled up; the graph: the same query for its
    // totals and default lines (the table's first rows), then their series. Together, one read of
    // the rows and totals.
    const together = queries();
    const alone = counted();
    const one = new ReportAnswers(alone.engine, new DictionaryRepository(clickhouse), () => NOW, new Sampling(alone.engine, 0));
    await one.table(PROJECT, 'traffic_sources', asked);
    expect(alone.queries()).toBe(1);
    await one.graph(PROJECT, 'traffic_sources', asked);
    expect([together, alone.queries()]).toEqual([2, 3]);
  });

  it('keeps nothing once answered: the same query asked later reads again', async () => {
    const { engine, queries } = counted();
    const sql = { query: 'SELECT count() AS n FROM events WHERE project_id = {p:UInt32}', params: { p: PROJECT }, table: 'events' };
    const [a, b] = await Promise.all([engine.rows(sql), engine.rows(sql)]);
    expect([a, b, queries()]).toEqual([[{ n: EVENTS.length }], [{ n: EVENTS.length }], 1]);
    await engine.rows(sql);
    expect(queries()).toBe(2);
  });
});
