import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import type { ClickHouseClient } from '@stat/storage';
import { constructorDefinition, reportDefinition, type TableResult } from '@stat/schemas';
import { compileTable } from './sql/statements.js';
import { planReport } from './plan.js';
import type { ReportRequest } from './request.js';
import { ReportAnswers } from './answers.js';
import { pageViewRows } from '../testing/page-views.js';
import { answersOver, useChdb } from '../testing/chdb.js';

// Needs: chDB (in-process). A period of two weeks whose middle week is whole: its rows come from
// the week rollups (migration 0020), the days around it from the day rollups; every number below
// was counted by hand.
const PROJECT = 44;
/** Wednesday 28 October to Tuesday 10 November: days 28 Oct–1 Nov, the week of Monday 2 Nov, days 9–10 Nov. */
const PERIOD = { date_start: '2026-10-28', date_end: '2026-11-10' } as const;
const NOW = Date.parse('2026-11-12T12:00:00Z');
const RUSSIA = 2017370;
const BELARUS = 630336;

/**
 * Page views: [Moscow day, visitor, visit, page, source, country]. Visitor 1 comes before, inside
 * and after the whole week (so the parts of the period share a visitor), visitor 2 inside it,
 * visitor 4 after it; visitor 3 only outside the period (27 October and 11 November).
 */
const VIEWS: [day: string, visitor: string, session: number, path: string, source: string, country: number][] = [
  ['2026-10-27', 'v3', 9, '/a', 'direct', RUSSIA],
  ['2026-10-29', 'v1', 1, '/a', 'search', RUSSIA],
  ['2026-11-03', 'v1', 2, '/a', 'direct', RUSSIA],
  ['2026-11-04', 'v2', 4, '/a', 'search', RUSSIA],
  ['2026-11-04', 'v2', 4, '/b', 'search', RUSSIA],
  ['2026-11-09', 'v4', 6, '/a?x=1', 'social', BELARUS],
  ['2026-11-10', 'v1', 3, '/b', 'direct', RUSSIA],
  ['2026-11-11', 'v3', 10, '/a', 'direct', RUSSIA],
];

let clickhouse: ClickHouseClient;
let service: ReportAnswers;

useChdb('weeks', () => pageViewRows(PROJECT, VIEWS, (i) => ({ traffic_type: VIEWS[i]![4], geo_country: VIEWS[i]![5] })), (client) => {
  clickhouse = client;
  service = answersOver(clickhouse, NOW);
});

const METRICS = ['page_views', 'visits', 'visitors'] as const;
const request = (more: Partial<ReportRequest> = {}): ReportRequest => ({ ...PERIOD, group: 'day', metrics: [...METRICS], ...more }) as ReportRequest;
/** A rule every event passes, on a dimension no path rollup keeps: sends a request to the raw events. */
const toRaw: Partial<ReportRequest> = { dimension_filters: [{ key: 'title', op: 'like', value: '*' }] };
/** Rows as [title, ...metrics] and the totals: what a reader of the table sees. */
const shown = (t: TableResult): unknown => ({ rows: t.data.map((r) => [r.extra.title, ...r.metrics]), totals: t.totals });

describe('a period with a whole week', () => {
  it('reads the whole week from the week rollup and the days around it from the day rollup', () => {
    const table = (name: string, body: ReportRequest): string => {
      const { plan, sort } = planReport(reportDefinition(name)!, PROJECT, body, '2026-11-12', 'table');
      return compileTable(plan, { sortBy: sort.name === 'date' ? 'title' : sort.name, order: sort.order, limit: 10, offset: 0, totals: true }).table;
    };
    expect(['page_urls', 'geo', 'traffic_sources'].map((name) => table(name, request()))).toEqual(['rollup_pages_week', 'rollup_geo_week', 'rollup_sources_week']);
    // Six days hold no whole week: the day rollup alone.
    expect(table('page_urls', request({ date_start: '2026-11-03', date_end: '2026-11-10' }))).toBe('rollup_pages_day');
  });

  it('page_urls: a visitor of the days before, of the week and of the days after is one visitor', async () => {
    // /a: views on 29 Oct (v1), 3 Nov (v1), 4 Nov (v2), 9 Nov (v4, with arguments); /b: 4 Nov (v2), 10 Nov (v1).
    // Visits with a page view: 1, 2, 3, 4, 6; visitors v1, v2, v4. 27 Oct and 11 Nov are outside.
    const table = await service.table(PROJECT, 'page_urls', request());
    expect(shown(table)).toEqual({
      rows: [
        ['https://site.example/a', 4, 4, 3],
        ['https://site.example/b', 2, 2, 2],
      ],
      totals: [6, 5, 3],
    });
    expect(table).toEqual(await service.table(PROJECT, 'page_urls', request(toRaw)));
  });

  it('traffic_sources and geo: visits where they start, visitors once over the period', async () => {
    const sources = await service.table(PROJECT, 'traffic_sources', request({ metrics: ['visits', 'visitors', 'page_views'] }));
    // direct: visits 2 and 3 (both v1); search: 1 (v1) and 4 (v2, two views); social: 6 (v4). Ties by the value's id.
    expect(shown(sources)).toEqual({
      rows: [
        ['Прямые заходы', 2, 1, 2],
        ['Поисковые системы', 2, 2, 3],
        ['Социальные сети', 1, 1, 1],
      ],
      totals: [5, 3, 6],
    });
    expect(sources).toEqual(await service.table(PROJECT, 'traffic_sources', request({ metrics: ['visits', 'visitors', 'page_views'], ...toRaw })));
    const geo = await service.table(PROJECT, 'geo', request({ metrics: ['visits', 'visitors', 'page_views'] }));
    expect(geo.data.map((r) => r.metrics)).toEqual([
      [4, 2, 5],
      [1, 1, 1],
    ]);
    expect(geo.totals).toEqual([5, 3, 6]);
    expect(geo).toEqual(await service.table(PROJECT, 'geo', request({ metrics: ['visits', 'visitors', 'page_views'], ...toRaw })));
  });

  it('chapters: the URL tree computed over the same parts, as from the raw events', async () => {
    const tree = await service.table(PROJECT, 'chapters', request());
    // One section level: the root's pages /a and /b, as page_urls counts them.
    expect(shown(tree)).toEqual({ rows: [['/a', 4, 4, 3], ['/b', 2, 2, 2]], totals: [6, 5, 3] });
    expect(tree).toEqual(await service.table(PROJECT, 'chapters', request(toRaw)));
  });

  it('a filter and an expanded row read the same parts', async () => {
    const filtered = request({ dimension_filters: [{ key: 'url_no_args', op: 'like', value: '*/b' }] });
    expect(shown(await service.table(PROJECT, 'page_urls', filtered))).toEqual({ rows: [['https://site.example/b', 2, 2, 2]], totals: [2, 2, 2] });
    const expanded = request({ parents: ['https://site.example/a'] });
    expect(shown(await service.table(PROJECT, 'page_urls', expanded))).toEqual({
      rows: [
        ['https://site.example/a', 3, 3, 2],
        ['https://site.example/a?x=1', 1, 1, 1],
      ],
      totals: [4, 4, 3],
    });
  });

  it('the week rollup holds what the day rollup holds for the same days', async () => {
    for (const [day, week] of [
      ['rollup_pages_day', 'rollup_pages_week'],
      ['rollup_geo_day', 'rollup_geo_week'],
      ['rollup_sources_day', 'rollup_sources_week'],
    ] as const) {
      const read = async (table: string, monday: string): Promise<unknown> => {
        const r = await clickhouse.query({
          query: `SELECT toString(sum(page_views)) AS views, toString(uniqCombinedMerge(17)(visitors)) AS visitors FROM ${table} WHERE project_id = {p:UInt32} AND toMonday(event_date) = {m:Date}`,
          query_params: { p: PROJECT, m: monday },
          format: 'JSONEachRow',
        });
        return r.json();
      };
      for (const monday of ['2026-10-26', '2026-11-02', '2026-11-09']) expect(await read(week, monday), `${week} ${monday}`).toEqual(await read(day, monday));
    }
  });
});

describe('the constructor\'s dates by week and by month', () => {
  const byDate = (more: Partial<ReportRequest>): Promise<TableResult> =>
    service.tableOf(PROJECT, constructorDefinition(['date']), request({ dimensions: ['date'], sort: { name: 'title', order: 'asc' }, ...more }));

  it('a week\'s row counts its days inside the period, titled by the first of them', async () => {
    // 28 Oct–1 Nov: 29 Oct (v1, visit 1). 2–8 Nov: 3 Nov (v1, visit 2), 4 Nov (v2, visit 4, two views).
    // 9–10 Nov: 9 Nov (v4, visit 6), 10 Nov (v1, visit 3). Visitors over the period: v1, v2, v4.
    expect(shown(await byDate({ group: 'week' }))).toEqual({
      rows: [
        ['28.10.2026', 1, 1, 1],
        ['02.11.2026', 3, 2, 2],
        ['09.11.2026', 2, 2, 2],
      ],
      totals: [6, 5, 3],
    });
    // By day the same period has a row a day with views (rows are titled as the table shows dates).
    expect((await byDate({ group: 'day' })).data.map((r) => r.extra.title)).toEqual(['29.10.2026', '03.11.2026', '04.11.2026', '09.11.2026', '10.11.2026']);
  });

  it('a month\'s row: its visitors once, and a week row expands into what it holds', async () => {
    // October: 27 Oct (v3, visit 9), 29 Oct (v1, visit 1). 1–11 November: v1 (visits 2, 3), v2 (4, two
    // views), v4 (6), v3 (10): four visitors in November, four over both months.
    expect(shown(await byDate({ date_start: '2026-10-01', date_end: '2026-11-11', group: 'month' }))).toEqual({
      rows: [
        ['01.10.2026', 2, 2, 2],
        ['01.11.2026', 6, 5, 4],
      ],
      totals: [8, 7, 4],
    });
    const pages = await service.tableOf(PROJECT, constructorDefinition(['date', 'url_no_args']), request({ dimensions: ['date', 'url_no_args'], group: 'week', parents: ['2026-11-02'] }));
    // 2–8 Nov: /a on 3 Nov (v1) and 4 Nov (v2), /b on 4 Nov (v2).
    expect(shown(pages)).toEqual({
      rows: [
        ['https://site.example/a', 2, 2, 2],
        ['https://site.example/b', 1, 1, 1],
      ],
      totals: [3, 2, 2],
    });
  });
});
