import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import type { ClickHouseClient } from '@stat/storage';
import { constructorDefinition, reportDefinition, URL_SECTION_DEPTH, type TableResult } from '@stat/schemas';
import { ReportEngine } from './runner.js';
import { FilterValuesController } from '../reports/filter-values.js';
import { planReport } from './plan.js';
import type { ReportRequest } from './request.js';
import { ReportAnswers } from './answers.js';
import { pageViewRows, type PageView } from '../testing/page-views.js';
import { answersOver, useChdb } from '../testing/chdb.js';
import { textOf } from '../testing/lines.js';

// Needs: chDB (in-process). «Разделы сайта» as a URL tree, on page views counted by hand.
const PROJECT = 43;
const D1 = '2026-11-10';
const D2 = '2026-11-11';
/** The api's clock: the day after the data, so no bucket is in the future and none is "today". */
const NOW = Date.parse('2026-11-12T12:00:00Z');

/** A page below the six section levels: its seventh level is the page itself. */
const DEEP = '/d1/d2/d3/d4/d5/d6/p.html';

/**
 * Page views: [day, visitor, visit, page path (with arguments as the counter sends them)].
 * Visit 1 (a): `/`, `/news/`, `/news/a.html`. Visit 2 (b): `/about`, `/news/politics/b.html`,
 * `/news/politics/c.html`. Visit 3 (c): the root without its slash, `/news/politics/c.html`, DEEP.
 * Visit 4 (a, the next day): `/news/a.html?x=1`.
 */
const VIEWS: PageView[] = [
  [D1, 'a', 1, '/'],
  [D1, 'a', 1, '/news/'],
  [D1, 'a', 1, '/news/a.html'],
  [D1, 'b', 2, '/about'],
  [D1, 'b', 2, '/news/politics/b.html'],
  [D1, 'b', 2, '/news/politics/c.html'],
  [D1, 'c', 3, ''],
  [D1, 'c', 3, '/news/politics/c.html'],
  [D1, 'c', 3, DEEP],
  [D2, 'a', 4, '/news/a.html?x=1'],
];

let clickhouse: ClickHouseClient;
let engine: ReportEngine;
let service: ReportAnswers;

useChdb('chapters', () => pageViewRows(PROJECT, VIEWS), (client) => {
  clickhouse = client;
  engine = new ReportEngine(clickhouse);
  service = answersOver(clickhouse, NOW, engine);
});

const METRICS = ['page_views', 'visits', 'visitors'] as const;
const request = (more: Partial<ReportRequest> = {}): ReportRequest => ({ date_start: D1, date_end: D2, group: 'day', metrics: [...METRICS], ...more }) as ReportRequest;
/** A rule every event passes, on a dimension no path rollup keeps: sends a request to the raw events. */
const toRaw = { key: 'title', op: 'like', value: '*' } as const;

/** Rows as [title, can_be_expanded, ...metrics]: what a reader of the tree sees. */
const shown = (t: TableResult): (string | number | boolean | null)[][] => t.data.map((r) => [r.extra.title, r.can_be_expanded, ...r.metrics]);

describe('chapters: the site sections as a URL tree', () => {
  it('the first level: sections end in a slash and expand, pages are leaves; a root without its slash is `/`', async () => {
    const t = await service.table(PROJECT, 'chapters', request());
    expect(shown(t)).toEqual([
      // page views, visits, visitors
      ['/news/', true, 6, 4, 3],
      ['/', false, 2, 2, 2],
      ['/about', false, 1, 1, 1],
      ['/d1/', true, 1, 1, 1],
    ]);
    expect(t.totals).toEqual([10, 4, 3]);
    expect(t.data.map((r) => [r.id, r.parent_id, r.level])).toEqual([
      ['["/news/"]', null, 0],
      ['["/"]', null, 0],
      ['["/about"]', null, 0],
      ['["/d1/"]', null, 0],
    ]);
  });

  it('a section expands into its subsections and pages, its own page among them; a subsection into its pages', async () => {
    const news = await service.table(PROJECT, 'chapters', request({ parents: ['/news/'] }));
    expect(shown(news)).toEqual([
      ['/news/politics/', true, 3, 2, 2],
      ['/news/a.html', false, 2, 2, 1],
      ['/news/', false, 1, 1, 1],
    ]);
    expect(news.totals).toEqual([6, 4, 3]);
    expect(news.data.map((r) => [r.id, r.parent_id, r.level])[0]).toEqual(['["/news/","/news/politics/"]', '["/news/"]', 1]);

    const politics = await service.table(PROJECT, 'chapters', request({ parents: ['/news/', '/news/politics/'] }));
    expect(shown(politics)).toEqual([
      ['/news/politics/c.html', false, 2, 2, 2],
      ['/news/politics/b.html', false, 1, 1, 1],
    ]);
    expect(politics.totals).toEqual([3, 2, 2]);
  });

  it(`stops at ${URL_SECTION_DEPTH} section levels: the level below the last holds the deeper pages whole`, async () => {
    const sections = ['/d1/', '/d1/d2/', '/d1/d2/d3/', '/d1/d2/d3/d4/', '/d1/d2/d3/d4/d5/', '/d1/d2/d3/d4/d5/d6/'];
    expect(reportDefinition('chapters')!.drilldown.length).toBe(URL_SECTION_DEPTH + 1);
    for (let level = 1; level < sections.length; level++) {
      const t = await service.table(PROJECT, 'chapters', request({ parents: sections.slice(0, level) }));
      expect(shown(t)).toEqual([[sections[level], true, 1, 1, 1]]);
    }
    const pages = await service.table(PROJECT, 'chapters', request({ parents: sections }));
    expect(shown(pages)).toEqual([[DEEP, false, 1, 1, 1]]);
    await expect(service.table(PROJECT, 'chapters', request({ parents: [...sections, DEEP] }))).rejects.toThrow('has 6 levels to expand');
  });

  it('a filter on a section keeps its pages, in this report, in a report of pages and in a report of visits', async () => {
    const politics = { dimension_filters: [{ key: 'url_section_2', op: '=', value: '/news/politics/' }] } as Partial<ReportRequest>;
    const t = await service.table(PROJECT, 'chapters', request(politics));
    expect(shown(t)).toEqual([['/news/', true, 3, 2, 2]]);
    expect(t.totals).toEqual([3, 2, 2]);
    const pages = await service.table(PROJECT, 'page_urls', request(politics));
    expect(pages.data.map((r) => [r.extra.title, r.metrics[0]])).toEqual([
      ['https://site.example/news/politics/c.html', 2],
      ['https://site.example/news/politics/b.html', 1],
    ]);
    // A report of visits keeps the visits that viewed such a page, whole: visits 2 and 3, 6 page views.
    const summary = await service.table(PROJECT, 'summary', request({ ...politics, metrics: ['visits', 'page_views'] }));
    expect(summary.totals).toEqual([2, 6]);
    // A pattern: the pages of every section whose name starts with `d`.
    const like = await service.table(PROJECT, 'chapters', request({ dimension_filters: [{ key: 'url_section_1', op: 'like', value: '/d*' }] }));
    expect(shown(like)).toEqual([['/d1/', true, 1, 1, 1]]);
  });

  it('is read from the pages day rollup, at every level and with filters on its levels; the raw events give the same numbers', async () => {
    const source = (more: Partial<ReportRequest>, kind: 'table' | 'graph' = 'table'): string =>
      planReport(reportDefinition('chapters')!, PROJECT, request(more), '2026-11-12', kind).plan.source;
    expect(source({})).toBe('paths');
    expect(source({ parents: ['/news/', '/news/politics/'] })).toBe('paths');
    expect(source({ dimension_filters: [{ key: 'url_section_3', op: '!=', value: '' }] })).toBe('paths');
    expect(source({}, 'graph')).toBe('paths');
    expect(source({ dimension_filters: [toRaw] })).toBe('events');

    const asked = { metrics: ['page_views', 'visits', 'visitors', 'avg_view_duration', 'uid'] } as Partial<ReportRequest>;
    const raw = { ...asked, dimension_filters: [toRaw] } as Partial<ReportRequest>;
    for (const parents of [[], ['/news/'], ['/news/', '/news/politics/']]) {
      const fromRollup = await service.table(PROJECT, 'chapters', request({ ...asked, parents }));
      expect(fromRollup.data.length).toBeGreaterThan(0);
      expect(await service.table(PROJECT, 'chapters', request({ ...raw, parents }))).toEqual(fromRollup);
    }
    const lines = { selected_lines: ['["/news/"]', '["/news/","/news/politics/"]', '["/news/","/news/a.html"]'], need_all_total: true } as Partial<ReportRequest>;
    expect(await service.graph(PROJECT, 'chapters', request({ ...raw, ...lines }))).toEqual(await service.graph(PROJECT, 'chapters', request({ ...asked, ...lines })));
  });

  it('graph lines of selected rows of any level, titled by the row', async () => {
    const g = await service.graph(PROJECT, 'chapters', request({ metrics: ['page_views'], selected_lines: ['["/news/"]', '["/news/","/news/politics/"]', '["/news/","/news/a.html"]'] }));
    expect(g.data.map((l) => [l.id, l.title, l.points.map((p) => p.metrics[0])])).toEqual([
      ['["/news/"]', '/news/', [5, 1]],
      ['["/news/","/news/politics/"]', '/news/politics/', [3, 0]],
      ['["/news/","/news/a.html"]', '/news/a.html', [1, 1]],
    ]);
  });

  it('CSV of an expanded level: its totals and every row', async () => {
    const { lines } = await service.csv(PROJECT, 'chapters', request({ parents: ['/news/'] }));
    const text = await textOf(lines);
    expect(text).toBe(
      '\uFEFFРаздел сайта / страница;Просмотры;Визиты;Посетители\r\n' +
        'Итого;6;4;3\r\n' +
        '/news/politics/;3;2;2\r\n/news/a.html;2;2;1\r\n/news/;1;1;1\r\n',
    );
  });

  it('the constructor: section then subsection, a page has nothing below; a section then a dimension of its own expands every row', async () => {
    const tree = constructorDefinition(['url_section_1', 'url_section_2']);
    expect(shown(await service.tableOf(PROJECT, tree, request()))).toEqual([
      ['/news/', true, 6, 4, 3],
      ['/', false, 2, 2, 2],
      ['/about', false, 1, 1, 1],
      ['/d1/', true, 1, 1, 1],
    ]);
    expect(planReport(tree, PROJECT, request({ parents: ['/news/'] }), '2026-11-12', 'table').plan.source).toBe('paths');
    expect(shown(await service.tableOf(PROJECT, tree, request({ parents: ['/news/'] }))).map((r) => r[0])).toEqual(['/news/politics/', '/news/a.html', '/news/']);
    const byDay = constructorDefinition(['url_section_1', 'date']);
    expect((await service.tableOf(PROJECT, byDay, request())).data.map((r) => r.can_be_expanded)).toEqual([true, true, true, true]);
  });

  it("the filter dialog's values: a level's values under their parents, the sections expandable", async () => {
    const dialog = new FilterValuesController(engine, service, () => NOW);
    const top = await dialog.dimension(PROJECT, 'url_section_1', { date_start: D1, date_end: D2 });
    expect(top.result.data.map((v) => [v.title, v.visits, v.can_be_expanded])).toEqual([
      ['/news/', 4, true],
      ['/', 2, false],
      ['/about', 1, false],
      ['/d1/', 1, true],
    ]);
    const news = await dialog.dimension(PROJECT, 'url_section_2', { date_start: D1, date_end: D2, parents: ['/news/'] });
    expect(news.result.data.map((v) => [v.title, v.visits, v.can_be_expanded])).toEqual([
      ['/news/a.html', 2, false],
      ['/news/politics/', 2, true],
      ['/news/', 1, false],
    ]);
    const deep = await dialog.dimension(PROJECT, 'url_section_7', { date_start: D1, date_end: D2, parents: ['/d1/', '/d1/d2/', '/d1/d2/d3/', '/d1/d2/d3/d4/', '/d1/d2/d3/d4/d5/', '/d1/d2/d3/d4/d5/d6/'] });
    expect(deep.result.data.map((v) => [v.title, v.can_be_expanded])).toEqual([[DEEP, false]]);
  });
});
