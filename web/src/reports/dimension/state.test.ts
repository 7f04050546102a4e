import { describe, expect, it } from 'vitest';
import { reportDefinition, type ReportDefinition } from '@stat/schemas/reports';
import {
  DEFAULT_LINES,
  explicitLines,
  formatSample,
  freeColor,
  nextSort,
  parseDimensionQuery,
  parseSort,
  sampleStep,
  toggleLine,
  graphCount,
  withChartType,
  withGraphCount,
  withGraphMetric,
  withMetrics,
  writeDimensionQuery,
  type LineSelection,
} from './state';

function report(name: string): ReportDefinition {
  const found = reportDefinition(name);
  if (!found) throw new Error(name);
  return found;
}

const geo = report('geo');
const page = (query: string) => parseDimensionQuery(new URLSearchParams(query), geo);

describe('sorting (spec 001 §4)', () => {
  it('starts the title column ascending and metrics descending', () => {
    expect(nextSort({ name: 'visits', order: 'desc' }, 'title')).toEqual({ name: 'title', order: 'asc' });
    expect(nextSort({ name: 'title', order: 'asc' }, 'visitors')).toEqual({ name: 'visitors', order: 'desc' });
  });
  it('flips the direction on a repeated click', () => {
    expect(nextSort({ name: 'visits', order: 'desc' }, 'visits')).toEqual({ name: 'visits', order: 'asc' });
    expect(nextSort({ name: 'visits', order: 'asc' }, 'visits')).toEqual({ name: 'visits', order: 'desc' });
    expect(nextSort({ name: 'title', order: 'asc' }, 'title')).toEqual({ name: 'title', order: 'desc' });
  });
  it('reads orderBy, giving a sort without direction its default one', () => {
    expect(parseSort('visits:asc', ['title', 'visits'])).toEqual({ name: 'visits', order: 'asc' });
    expect(parseSort('visits', ['title', 'visits'])).toEqual({ name: 'visits', order: 'desc' });
    expect(parseSort('title', ['title', 'visits'])).toEqual({ name: 'title', order: 'asc' });
    expect(parseSort('bounces:asc', ['title', 'visits'])).toBeNull();
    expect(parseSort('visits;drop', ['title', 'visits'])).toBeNull();
  });
});

describe('the URL of a dimension report (spec 001 §3, §5)', () => {
  it('takes a plain URL as the defaults, with nothing to correct', () => {
    const { query, corrected } = page('dateStart=7days&dateEnd=today&groupBy=day');
    expect(query).toEqual({ metrics: ['visits', 'visitors', 'page_views'], sort: null, sample: 0.1, limit: 10, offset: 0, graphMetric: 'visits', secondMetric: null, chartType: 'line', percent: false });
    expect(corrected).toBeNull();
  });
  it('keeps valid values', () => {
    const { query, corrected } = page('metrics=bounces,visits&orderBy=bounces:asc&sample=0.01&limit=25&offset=50&graphs=visits:line');
    expect(query).toEqual({ metrics: ['bounces', 'visits'], sort: { name: 'bounces', order: 'asc' }, sample: 0.01, limit: 25, offset: 50, graphMetric: 'visits', secondMetric: null, chartType: 'line', percent: false });
    expect(corrected).toBeNull();
  });
  it('drops unknown metrics, and takes the defaults when none is left', () => {
    expect(page('metrics=visits,popularity,visits').query.metrics).toEqual(['visits']);
    expect(page('metrics=visits,popularity').corrected?.get('metrics')).toBe('visits');
    const none = page('metrics=popularity');
    expect(none.query.metrics).toEqual(['visits', 'visitors', 'page_views']);
    expect(none.corrected?.has('metrics')).toBe(false);
  });
  it('removes a sort by a column that is not shown', () => {
    const { query, corrected } = page('metrics=visits&orderBy=page_views:desc');
    expect(query.sort).toBeNull();
    expect(corrected?.has('orderBy')).toBe(false);
  });
  it('corrects the review\'s pasted URL: limit=500, sample=5 and an unknown orderBy leave the URL, other parameters stay', () => {
    const { query, corrected } = page('dateStart=7days&dateEnd=today&limit=500&sample=5&orderBy=foo:desc&offset=-10');
    expect(query).toMatchObject({ sort: null, sample: 0.1, limit: 10, offset: 0 });
    expect(corrected?.toString()).toBe('dateStart=7days&dateEnd=today');
  });

  it('resets a sample outside (0, 1] to the middle step, and clears it when the report does not sample', () => {
    for (const bad of ['0', '2', '-0.1', 'abc', '1e-3']) {
      const { query, corrected } = page(`sample=${bad}`);
      expect(query.sample).toBe(0.1);
      expect(corrected?.has('sample')).toBe(false);
    }
    const exact: ReportDefinition = { ...geo, sampling: false };
    const parsed = parseDimensionQuery(new URLSearchParams('sample=0.01'), exact);
    expect(parsed.query.sample).toBeNull();
    expect(parsed.corrected?.has('sample')).toBe(false);
  });
  it('accepts page sizes 10, 25, 50, 100 only and offsets that are multiples of the page size', () => {
    expect(page('limit=30').query.limit).toBe(10);
    expect(page('limit=100').query.limit).toBe(100);
    expect(page('limit=25&offset=30').query.offset).toBe(0);
    expect(page('offset=-10').query.offset).toBe(0);
    expect(page('offset=20').query.offset).toBe(20);
  });
  it('draws a shown metric: the graph metric falls back to the first', () => {
    expect(page('graphs=page_views:line').query.graphMetric).toBe('page_views');
    expect(page('metrics=visits,visitors&graphs=page_views:line').query.graphMetric).toBe('visits');
  });
  it('keeps the period and other parameters when writing', () => {
    const search = new URLSearchParams('dateStart=30days&dateEnd=today&groupBy=week&sample=1');
    const next = writeDimensionQuery(search, { ...page('').query, limit: 50, sort: { name: 'title', order: 'asc' } }, geo);
    expect(Object.fromEntries(next)).toEqual({ dateStart: '30days', dateEnd: 'today', groupBy: 'week', orderBy: 'title:asc', limit: '50' });
  });
});

describe('choosing the metrics shown', () => {
  const q = page('orderBy=page_views:asc&graphs=page_views:line&offset=20').query;
  it('keeps a sort and a graph of a metric still shown', () => {
    expect(withMetrics(q, ['page_views', 'bounces'])).toMatchObject({ metrics: ['page_views', 'bounces'], sort: { name: 'page_views', order: 'asc' }, graphMetric: 'page_views', offset: 0 });
  });
  it('drops a sort by a metric no longer shown and draws the first shown', () => {
    expect(withMetrics(q, ['visits', 'bounces'])).toMatchObject({ sort: null, graphMetric: 'visits' });
    const byTitle = { ...q, sort: { name: 'title', order: 'asc' as const } };
    expect(withMetrics(byTitle, ['visits']).sort).toEqual({ name: 'title', order: 'asc' });
  });
});

describe('accuracy (spec 001 §4 "Sampling")', () => {
  it('shows values below 1 % as «меньше 1%»', () => {
    expect(formatSample(0.001)).toBe('меньше 1%');
    expect(formatSample(0.01)).toBe('1%');
    expect(formatSample(0.1)).toBe('10%');
    expect(formatSample(1)).toBe('100%');
  });
  it('puts any sample on the nearest slider step', () => {
    expect(sampleStep(0.001)).toBe(0.01);
    expect(sampleStep(0.05)).toBe(0.1);
    expect(sampleStep(0.5)).toBe(1);
  });
});

describe('row selection and lines (spec 001 §4)', () => {
  const ids = (s: LineSelection) => s.lines.map((l) => `${l.id}:${l.colorIndex}`);

  it('makes the default lines explicit in the order the server drew them', () => {
    const s = explicitLines(DEFAULT_LINES, ['a', 'b', 'c']);
    expect(s.custom).toBe(true);
    expect(ids(s)).toEqual(['a:0', 'b:1', 'c:2']);
    expect(explicitLines(s, ['x'])).toBe(s);
  });
  it('adds a row with the next free colour', () => {
    const s = toggleLine(explicitLines(DEFAULT_LINES, ['a', 'b']), 'c');
    expect(ids(s)).toEqual(['a:0', 'b:1', 'c:2']);
  });
  it('moves a deselected row to the deleted list, keeping its colour for when it comes back', () => {
    let s = explicitLines(DEFAULT_LINES, ['a', 'b', 'c']);
    s = toggleLine(s, 'b');
    expect(ids(s)).toEqual(['a:0', 'c:2']);
    expect(s.deleted).toEqual([{ id: 'b', colorIndex: 1 }]);
    s = toggleLine(s, 'b');
    expect(ids(s)).toEqual(['a:0', 'c:2', 'b:1']);
    expect(s.deleted).toEqual([]);
  });
  it('gives a returning row a new colour when its old one was taken meanwhile', () => {
    let s = explicitLines(DEFAULT_LINES, ['a', 'b']);
    s = toggleLine(s, 'b'); // b keeps 1 in the deleted list
    s = toggleLine(s, 'c'); // c takes the free 1
    s = toggleLine(s, 'b');
    expect(ids(s)).toEqual(['a:0', 'c:1', 'b:2']);
  });
  it('at ten lines replaces the oldest, reusing its colour', () => {
    let s = explicitLines(DEFAULT_LINES, ['r0', 'r1', 'r2', 'r3', 'r4']);
    for (const id of ['r5', 'r6', 'r7', 'r8', 'r9']) s = toggleLine(s, id);
    expect(s.lines).toHaveLength(10);
    s = toggleLine(s, 'r10');
    expect(s.lines).toHaveLength(10);
    expect(s.lines.map((l) => l.id)).not.toContain('r0');
    expect(s.lines.at(-1)).toEqual({ id: 'r10', colorIndex: 0 });
    expect(s.deleted).toEqual([{ id: 'r0', colorIndex: 0 }]);
    expect(new Set(s.lines.map((l) => l.colorIndex)).size).toBe(10);
  });
  it('finds the smallest unused palette index', () => {
    expect(freeColor([])).toBe(0);
    expect(freeColor([{ id: 'a', colorIndex: 0 }, { id: 'b', colorIndex: 2 }])).toBe(1);
  });
});

describe('graphs, chart type and percent in the URL (spec 001 §3 graphs, §4 "Graph count", §5)', () => {
  const graphsOf = (query: string) => {
    const { query: q, corrected } = page(query);
    return { graphMetric: q.graphMetric, secondMetric: q.secondMetric, chartType: q.chartType, percent: q.percent, graphs: corrected?.get('graphs'), url: corrected ? Object.fromEntries(corrected) : null };
  };

  it('reads two graphs of one type, and keeps a valid URL as it is', () => {
    expect(graphsOf('graphs=visitors:bar,page_views:bar&percent=1')).toEqual({
      graphMetric: 'visitors', secondMetric: 'page_views', chartType: 'bar', percent: true, graphs: undefined, url: null,
    });
  });
  it('leaves the default (one line graph of the first metric, no percent) out of the URL', () => {
    expect(graphsOf('graphs=visits:line&percent=0')).toMatchObject({ graphMetric: 'visits', secondMetric: null, chartType: 'line', percent: false, url: {} });
  });
  it('drops a second graph of a metric not shown or equal to the first', () => {
    expect(graphsOf('metrics=visits,visitors&graphs=visits:area,bounces:area')).toMatchObject({ secondMetric: null, graphs: 'visits:area' });
    expect(graphsOf('graphs=visitors:line,visitors:line')).toMatchObject({ graphMetric: 'visitors', secondMetric: null, graphs: 'visitors:line' });
  });
  it('takes the first entry\'s type for both graphs; an unknown type is a line', () => {
    expect(graphsOf('graphs=visits:area,visitors:bar')).toMatchObject({ chartType: 'area', graphs: 'visits:area,visitors:area' });
    expect(graphsOf('graphs=visitors:donut')).toMatchObject({ chartType: 'line', graphs: 'visitors:line' });
  });
  it('falls back from a pie to a line when a graphed metric is not a count (a share of an average means nothing)', () => {
    expect(graphsOf('metrics=visits,bounces&graphs=bounces:pie')).toMatchObject({ chartType: 'line', graphs: 'bounces:line' });
    expect(graphsOf('metrics=visits,bounces&graphs=visits:pie,bounces:pie')).toMatchObject({ chartType: 'line', graphs: 'visits:line,bounces:line' });
    expect(graphsOf('metrics=visits,bounces&graphs=visits:pie')).toMatchObject({ chartType: 'pie', url: null });
  });
  it('keeps percent only when a graphed metric is a count', () => {
    expect(graphsOf('metrics=visits,bounces&graphs=bounces:line&percent=1')).toMatchObject({ percent: false, url: { metrics: 'visits,bounces', graphs: 'bounces:line' } });
    expect(graphsOf('metrics=visits,bounces&graphs=bounces:line,visits:line&percent=1')).toMatchObject({ percent: true, url: null });
  });

  const one = page('').query;
  it('«2 графика» adds the first other shown metric; «1 график» removes it', () => {
    const two = withGraphCount(one, 2);
    expect(two).toMatchObject({ graphMetric: 'visits', secondMetric: 'visitors' });
    expect(graphCount(two)).toBe(2);
    expect(writeDimensionQuery(new URLSearchParams(), two, geo).get('graphs')).toBe('visits:line,visitors:line');
    expect(withGraphCount(two, 1)).toMatchObject({ secondMetric: null });
    expect(graphCount(withGraphCount(two, 1))).toBe(1);
  });
  it('has no second graph when only one metric is shown, and loses it when the metrics shrink to one', () => {
    const single = withMetrics(one, ['visits']);
    expect(withGraphCount(single, 2).secondMetric).toBeNull();
    expect(withMetrics(withGraphCount(one, 2), ['page_views']).secondMetric).toBeNull();
  });
  it('moves the second graph to another shown metric when its own is hidden', () => {
    const two = withGraphCount(one, 2);
    expect(withMetrics(two, ['visits', 'page_views'])).toMatchObject({ graphMetric: 'visits', secondMetric: 'page_views' });
    expect(withMetrics(two, ['visitors', 'page_views'])).toMatchObject({ graphMetric: 'visitors', secondMetric: 'page_views' });
  });
  it('swaps the graphs when one graph takes the other\'s metric', () => {
    const two = withGraphCount(one, 2);
    expect(withGraphMetric(two, 0, 'visitors')).toMatchObject({ graphMetric: 'visitors', secondMetric: 'visits' });
    expect(withGraphMetric(two, 1, 'visits')).toMatchObject({ graphMetric: 'visitors', secondMetric: 'visits' });
    expect(withGraphMetric(two, 1, 'page_views')).toMatchObject({ graphMetric: 'visits', secondMetric: 'page_views' });
    expect(withGraphMetric(one, 1, 'page_views')).toBe(one);
  });
  it('refuses a pie for a non-count metric, and falls back to a line when such a metric is graphed', () => {
    const withBounces = withMetrics(one, ['visits', 'bounces']);
    const pie = withChartType(withBounces, 'pie');
    expect(pie.chartType).toBe('pie');
    expect(withChartType(withGraphMetric(withBounces, 0, 'bounces'), 'pie').chartType).toBe('line');
    expect(withGraphMetric(pie, 0, 'bounces')).toMatchObject({ graphMetric: 'bounces', chartType: 'line' });
    expect(withGraphCount(pie, 2)).toMatchObject({ secondMetric: 'bounces', chartType: 'line' });
  });
  it('turns percent off when the graphs no longer draw a count', () => {
    const withBounces = { ...withMetrics(one, ['visits', 'bounces']), percent: true };
    expect(withGraphMetric(withBounces, 0, 'bounces').percent).toBe(false);
    expect(withGraphCount(withGraphMetric(withBounces, 0, 'bounces'), 2).percent).toBe(false);
  });
});
