import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import type { ClickHouseClient } from '@stat/storage';
import { eventKeyOf, type TableResult } from '@stat/schemas';
import { ReportEngine } from './runner.js';
import type { ReportRequest } from './request.js';
import { ReportAnswers } from './answers.js';
import { MATERIALS_RECHECK_MS, MetricsRepository } from '../projects/metrics.js';
import { answersOver, useChdb } from '../testing/chdb.js';

// Needs: chDB (in-process). The media reports («Материалы», «Авторы») on a small traffic whose
// every number below was counted by hand.
const PROJECT = 43;
const DAY = '2026-11-10';
/** The api's clock: the day after the data, so the day is whole and not "today". */
const NOW = Date.parse('2026-11-11T12:00:00Z');

const CITY = { media_title: 'Как устроен город', author_name: 'Анна Петрова', published_datetime: Date.UTC(2026, 10, 9, 18) / 1000 };
const BRIDGES = { media_title: 'Мосты над рекой', author_name: 'Иван Смирнов', published_datetime: Date.UTC(2026, 10, 9, 19) / 1000 };
const END = { event_class: 'base', event_name: 'scroll' };

/**
 * Visit 1, visitor a: reads «Как устроен город» to its end (a read hit and the end event), then
 * opens «Мосты над рекой» without finishing it.
 * Visit 2, visitor b: opens «Как устроен город» from a newsletter (its address with an argument), does not finish.
 * Visit 3, visitor c: the home page (no material), then «Мосты над рекой» twice (a reload), read to its end once.
 *
 * So «Как устроен город» (Анна Петрова): page views 2 (a, b), visitors 2, visits 2, read-throughs 1, share 50 %.
 *    «Мосты над рекой» (Иван Смирнов): page views 3 (a, c twice), visitors 2 (a, c), visits 2, read-throughs 1, share 33.33 %.
 * The home page is no material and is no row. The read hit and the end events are not page views.
 */
const EVENTS: [type: string, time: string, visitor: string, session: number, n: number, path: string, more: Record<string, unknown>][] = [
  ['pageview', '10:00:00', 'a', 1, 1, '/city', CITY],
  ['read', '10:04:00', 'a', 1, 2, '/city', { ...CITY, scroll_percent: 100, read_percent: 100 }],
  ['event', '10:04:00', 'a', 1, 3, '/city', { ...CITY, ...END }],
  ['pageview', '10:05:00', 'a', 1, 4, '/bridges', BRIDGES],
  ['pageview', '11:00:00', 'b', 2, 1, '/city?from=mail', CITY],
  ['pageview', '12:00:00', 'c', 3, 1, '/', {}],
  ['pageview', '12:01:00', 'c', 3, 2, '/bridges', BRIDGES],
  ['pageview', '12:02:00', 'c', 3, 3, '/bridges', BRIDGES],
  ['event', '12:06:00', 'c', 3, 4, '/bridges', { ...BRIDGES, ...END }],
];

const utc = (moscow: string): string => new Date(Date.parse(`${DAY}T${moscow}+03:00`)).toISOString().replace('T', ' ').replace('Z', '');

function row([type, time, visitor, session, n, path, more]: (typeof EVENTS)[number]): Record<string, unknown> {
  const url = `https://news.example${path}`;
  return {
    event_key: eventKeyOf(crypto.randomUUID()),
    project_id: PROJECT,
    event_type: type,
    ts: utc(time),
    event_date: DAY,
    visitor_id: visitor,
    session_id: session,
    session_start: utc(time),
    event_number: n,
    url,
    url_no_args: url.split('?')[0],
    ...more,
  };
}

let clickhouse: ClickHouseClient;
let service: ReportAnswers;

useChdb('media-engine', () => EVENTS.map(row), (client) => {
  clickhouse = client;
  service = answersOver(clickhouse, NOW);
});

const METRICS = ['page_views', 'visitors', 'visits', 'read_throughs', 'read_through_share'] as const;
const request = (more: Partial<ReportRequest> = {}): ReportRequest =>
  ({ date_start: DAY, date_end: DAY, group: 'hour', metrics: [...METRICS], ...more }) as ReportRequest;

/** Rows as [title, ...metrics]: what a reader of the table sees. */
const shown = (t: TableResult): (string | number | null)[][] => t.data.map((r) => [r.extra.title, ...r.metrics]);

describe('media reports', () => {
  it('materials_summary: a row per material, most viewed first, with its readers and read-throughs; pages without a material are no row', async () => {
    const t = await service.table(PROJECT, 'materials_summary', request());
    expect(shown(t)).toEqual([
      ['Мосты над рекой', 3, 2, 2, 1, 33.33],
      ['Как устроен город', 2, 2, 2, 1, 50],
    ]);
    expect(t.meta.total).toBe(2);
    // The totals are the materials' (the home page's view is none): page views 5, visitors a, b, c,
    // visits 1, 2, 3, read-throughs 2 of 5 page views.
    expect(t.totals).toEqual([5, 3, 3, 2, 40]);
  });

  it('materials_summary graph: a line per material over the day’s hours', async () => {
    const g = await service.graph(PROJECT, 'materials_summary', request({ metrics: ['page_views'], selected_lines: [JSON.stringify(['Как устроен город'])] }));
    const line = g.data.find((l) => l.title === 'Как устроен город');
    // Its page views at 10:00 (visitor a) and 11:00 (visitor b), Moscow time.
    expect(line?.points.filter((p) => (p.metrics[0] ?? 0) !== 0).map((p) => [p.date, p.metrics[0]])).toEqual([
      [`${DAY} 10:00:00`, 1],
      [`${DAY} 11:00:00`, 1],
    ]);
  });

  it('materials_summary: a material expands into its addresses', async () => {
    const t = await service.table(PROJECT, 'materials_summary', request({ metrics: ['page_views', 'read_throughs'], parents: ['Как устроен город'] }));
    // The address without its arguments: the newsletter's visit opened the same page.
    expect(shown(t)).toEqual([['https://news.example/city', 2, 1]]);
  });

  it('authors_summary: a row per author, expanding into the author’s materials', async () => {
    const t = await service.table(PROJECT, 'authors_summary', request());
    expect(shown(t)).toEqual([
      ['Иван Смирнов', 3, 2, 2, 1, 33.33],
      ['Анна Петрова', 2, 2, 2, 1, 50],
    ]);
    const materials = await service.table(PROJECT, 'authors_summary', request({ metrics: ['page_views'], parents: ['Анна Петрова'] }));
    expect(shown(materials)).toEqual([['Как устроен город', 2]]);
  });

  it('a filter by author keeps that author’s materials', async () => {
    const t = await service.table(PROJECT, 'materials_summary', request({ metrics: ['page_views'], dimension_filters: [{ key: 'author_name', op: '=', value: 'Иван Смирнов' }] } as Partial<ReportRequest>));
    expect(shown(t)).toEqual([['Мосты над рекой', 3]]);
  });

  it('a project has media reports (media_totals) once it has stored material hits; one without is asked again after a minute', async () => {
    const metrics = new MetricsRepository(clickhouse, new ReportEngine(clickhouse), () => NOW);
    expect(await metrics.withMaterials(PROJECT)).toBe(true);
    const other = PROJECT + 1;
    await clickhouse.insert({ table: 'events', values: [{ ...row(EVENTS[5]!), project_id: other }], format: 'JSONEachRow' });
    expect(await metrics.withMaterials(other)).toBe(false);
    await clickhouse.insert({ table: 'events', values: [{ ...row(EVENTS[0]!), project_id: other }], format: 'JSONEachRow' });
    expect(await metrics.withMaterials(other, NOW + MATERIALS_RECHECK_MS - 1)).toBe(false);
    expect(await metrics.withMaterials(other, NOW + MATERIALS_RECHECK_MS)).toBe(true);
  });
});
