import { describe, expect, it } from 'vitest';
import { READY_TEMPLATES } from '@stat/schemas/reports';
import { chooseItem, moveItem, parseSelection, parseStartRow, readyTemplateSearch, templateBody, templateSearch, toGraph, writeSelection, type Selection } from './query';

const table = (metrics: Selection['metrics'], dimensions: Selection['dimensions']): Selection => ({ metrics, dimensions, viewType: 'table' });

describe('the constructor’s selection in the URL', () => {
  it('reads the metrics and dimensions it offers, unknown and repeated ones dropped, at most 10 dimensions', () => {
    const twelve = 'traffic_type,gender,device_type,browser_family,os_family,geo_country,geo_area,geo_city,screen_size,page_format,url,title,referer';
    expect(parseSelection(new URLSearchParams(`metrics=visits,bounces,visits,uid&dimensions=${twelve}`))).toEqual(
      table(['visits', 'uid'], ['traffic_type', 'device_type', 'browser_family', 'os_family', 'geo_country', 'geo_area', 'geo_city', 'screen_size', 'page_format', 'url']),
    );
  });

  it('without metrics: the defaults; with an empty list: none chosen', () => {
    expect(parseSelection(new URLSearchParams('dimensions=url')).metrics).toEqual(['page_views', 'visits', 'visitors']);
    expect(parseSelection(new URLSearchParams('metrics=&dimensions=url')).metrics).toEqual([]);
  });

  it('a graph keeps the first metric and the first dimension', () => {
    expect(parseSelection(new URLSearchParams('viewType=graph&metrics=visits,uid&dimensions=url,title'))).toEqual({ viewType: 'graph', metrics: ['visits'], dimensions: ['url'] });
    expect(toGraph(table(['uid', 'visits'], ['title', 'url']))).toEqual({ viewType: 'graph', metrics: ['uid'], dimensions: ['title'] });
  });

  it('writes the selection back and starts the table at its first row', () => {
    const next = writeSelection(new URLSearchParams('dateStart=today&offset=20'), { viewType: 'graph', metrics: ['visits'], dimensions: ['url'] });
    expect(next.toString()).toBe('dateStart=today&metrics=visits&dimensions=url&viewType=graph');
  });
});

describe('choosing in the tree', () => {
  it('adds at the end and removes in the table', () => {
    const one = chooseItem(table(['visits'], ['url']), 'dimension', 'title', true);
    expect(one.dimensions).toEqual(['url', 'title']);
    expect(chooseItem(one, 'dimension', 'url', false).dimensions).toEqual(['title']);
    expect(chooseItem(one, 'metric', 'uid', true).metrics).toEqual(['visits', 'uid']);
  });

  it('takes no 11th dimension', () => {
    const ten = table(['visits'], ['traffic_type', 'device_type', 'browser_family', 'os_family', 'geo_country', 'geo_area', 'geo_city', 'screen_size', 'page_format', 'url']);
    expect(chooseItem(ten, 'dimension', 'title', true)).toBe(ten);
  });

  it('replaces the choice in the graph', () => {
    const graph: Selection = { viewType: 'graph', metrics: ['visits'], dimensions: ['url'] };
    expect(chooseItem(graph, 'dimension', 'title', true).dimensions).toEqual(['title']);
    expect(chooseItem(graph, 'metric', 'uid', true).metrics).toEqual(['uid']);
  });

  it('drops the depth per visit when rows of pages are chosen, and does not take it beside them', () => {
    const withDepth = table(['visits', 'avg_view_depth'], ['traffic_type']);
    expect(chooseItem(withDepth, 'dimension', 'url', true)).toEqual(table(['visits'], ['traffic_type', 'url']));
    const pages = table(['visits'], ['url']);
    expect(chooseItem(pages, 'metric', 'avg_view_depth', true)).toBe(pages);
  });

  it('moves a dragged item', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
  });
});

describe('«Начальная строка» (§5: digits only, not 0; shown as offset + 1)', () => {
  it.each([
    ['1', 0],
    ['12', 11],
    ['0', null],
    ['', null],
    ['1a', null],
    ['-3', null],
  ] as const)('%j → %j', (text, offset) => {
    expect(parseStartRow(text)).toBe(offset);
  });
});

describe('templates and the URL', () => {
  const template = {
    id: 5,
    days_in_range: 6,
    body: {
      metrics: ['page_views', 'visits'],
      dimensions: ['traffic_type', 'device_type'],
      viewType: 'table' as const,
      group: 'day' as const,
      sort: { name: 'visits', order: 'asc' as const },
      limit: 25,
      offset: 3,
      dimension_filters: [{ key: 'device_type', op: '=' as const, value: 'desktop' }],
    },
  };

  it('opens a saved template: its query, a period of its length ending today, its id', () => {
    const search = templateSearch(template);
    expect(Object.fromEntries(search)).toEqual({
      dateStart: '7days',
      dateEnd: 'today',
      groupBy: 'day',
      metrics: 'page_views,visits',
      dimensions: 'traffic_type,device_type',
      orderBy: 'visits:asc',
      limit: '25',
      offset: '3',
      globalFilters: '[{"key":"device_type","op":"=","value":"desktop"}]',
      template: '5',
    });
  });

  it('saves what it opened', () => {
    const search = templateSearch(template);
    expect(templateBody(search, parseSelection(search))).toEqual(template.body);
  });

  it('opens DAU as the exact visitors of the last three days by day, the first day at the top', () => {
    const dau = READY_TEMPLATES.find((t) => t.id === 'dau')!;
    expect(Object.fromEntries(readyTemplateSearch(dau, '2026-11-24'))).toEqual({
      dateStart: '2026-11-22',
      dateEnd: '2026-11-24',
      groupBy: 'day',
      metrics: 'visitors',
      dimensions: 'date',
      orderBy: 'title:asc',
      sample: '1',
    });
  });

  it.each([
    // Tuesday 24 November 2026: this week from Monday the 23rd, two weeks before it from the 9th.
    ['wau', '2026-11-09', 'week'],
    // November, October and September.
    ['mau', '2026-09-01', 'month'],
  ])('opens %s by date ascending and exact too', (id, dateStart, groupBy) => {
    const template = READY_TEMPLATES.find((t) => t.id === id)!;
    const search = readyTemplateSearch(template, '2026-11-24');
    expect([search.get('dateStart'), search.get('groupBy'), search.get('orderBy'), search.get('sample')]).toEqual([dateStart, groupBy, 'title:asc', '1']);
  });

  it('opens the other ready templates at the constructor\'s default order and sample', () => {
    const geo = READY_TEMPLATES.find((t) => t.id === 'geo')!;
    const search = readyTemplateSearch(geo, '2026-11-24');
    expect([search.get('orderBy'), search.get('sample')]).toEqual([null, null]);
  });
});
