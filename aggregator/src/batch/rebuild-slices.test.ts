import { describe, expect, it } from 'vitest';
import type { AcceptedHit } from '@stat/schemas';
import { createAggregator } from '../aggregator.js';
import { chdbOfFile } from '../testing/chdb.js';
import { pageViewMaker } from '../testing/hits.js';
import { mondayOf, SliceRebuilder, VIEW_TABLES } from './rebuild-slices.js';

// Needs: chDB (in-process), one data directory for the file. Each test has a project of its own.
const chdb = chdbOfFile('rebuild');

const start = Date.now() - 3 * 86_400_000;
const pageView = pageViewMaker('a000');

/** A page view of a project: three visitors, hours apart, so that the hits span days and visits. */
const hit = (project: number, i: number): AcceptedHit => pageView({ project, visitor: `rebuild-${i % 3}`, at: start + i * 5 * 3_600_000, url: `https://shop.ru/${i % 3}` });

/** A project's page views as the events and each table the views write hold them. */
async function pageViews(project: number): Promise<Record<string, number>> {
  const where = 'WHERE project_id = {project:UInt32}';
  const counts: Record<string, number> = { events: await chdb.count(`SELECT countIf(event_type = 'pageview') AS n FROM events ${where}`, { project }) };
  for (const table of Object.keys(VIEW_TABLES).filter((t) => VIEW_TABLES[t] !== 'idempotent')) {
    counts[table] = await chdb.count(`SELECT sum(page_views) AS n FROM ${table} ${where}`, { project });
  }
  counts.visitor_visits = await chdb.count(`SELECT max(visits) AS n FROM visitor_visits ${where}`, { project });
  return counts;
}

/** Stores the hits as one batch with some views detached: what a crash between the parts leaves. */
async function storeHalfDone(hits: AcceptedHit[], detached: string[]): Promise<void> {
  for (const view of detached) await chdb.client.command({ query: `DETACH TABLE ${view}` });
  try {
    await createAggregator(chdb.client).handle(hits);
  } finally {
    for (const view of detached) await chdb.client.command({ query: `ATTACH TABLE ${view}` });
  }
}

async function tokensOf(project: number): Promise<string[]> {
  const tokens = await chdb.rows<{ t: string }>('SELECT DISTINCT insert_token AS t FROM events WHERE project_id = {project:UInt32}', { project });
  return tokens.map((r) => r.t);
}

describe('SliceRebuilder on chDB', () => {
  it('knows how to slice every table the views of events write', async () => {
    const views = await chdb.rows<{ q: string }>("SELECT create_table_query AS q FROM system.tables WHERE database = currentDatabase() AND engine = 'MaterializedView'");
    const targets = views.map(({ q }) => /\bTO\s+(?:\w+\.)?(\w+)/.exec(q)?.[1]).sort();
    expect(targets).toEqual(Object.keys(VIEW_TABLES).sort());
  });

  it('makes every view table agree with the events after an insert whose rollups, visits and week tables were half written', async () => {
    const earlier = [0, 1, 2, 3].map((i) => hit(81, i));
    await createAggregator(chdb.client).handle(earlier);
    const later = [4, 5, 6, 7, 8].map((i) => hit(81, i));
    await storeHalfDone(later, ['rollup_5m_mv', 'rollup_hour_mv', 'visits_mv', 'rollup_pages_day_mv', 'rollup_geo_week_mv']);
    const half = await pageViews(81);
    const tokens = await tokensOf(81);
    const rebuilder = new SliceRebuilder(chdb.client);
    await rebuilder.rebuild(tokens);
    const whole = Object.fromEntries(Object.keys(half).map((k) => [k, k === 'visitor_visits' ? half.visitor_visits : 9]));
    expect({ half: half.rollup_5m, after: await pageViews(81) }).toEqual({ half: 4, after: whole });
    // Done again (a crash during the rebuild, or a second restart), it changes nothing.
    await rebuilder.rebuild(tokens);
    expect(await pageViews(81)).toEqual(whole);
  });

  it('a whole insert rebuilt is counted once, and a project beside it untouched', async () => {
    await createAggregator(chdb.client).handle([0, 1, 2].map((i) => hit(82, i)));
    await createAggregator(chdb.client).handle([0, 1].map((i) => hit(83, i)));
    const [before82, before83] = [await pageViews(82), await pageViews(83)];
    await new SliceRebuilder(chdb.client).rebuild(await tokensOf(82));
    expect({ p82: await pageViews(82), p83: await pageViews(83) }).toEqual({ p82: before82, p83: before83 });
    expect(before82.rollup_day).toBe(3);
  });

  it('mondayOf: the Monday of a day', () => {
    expect(['2026-12-07', '2026-12-09', '2026-12-13', '2026-12-14', '2027-01-01'].map(mondayOf)).toEqual(['2026-12-07', '2026-12-07', '2026-12-07', '2026-12-14', '2026-12-28']);
  });
});
