import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouse, migrateClickHouse, type ClickHouseClient } from '@stat/storage';
import { eventKeyOf, type AttributionModel, type ConversionMetric, type GoalBody } from '@stat/schemas';
import type { Sql } from '../reports/compile.js';
import { compileAttributed, compileConversionSide, compileDenominatorBySource } from './conversion-sql.js';

// Needs: chDB (in-process). A conversion's sides and its attribution, each number counted by hand.
const PROJECT = 78;
const D = '2026-11-20';
const day = (back: number) => new Date(Date.parse(`${D}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10);
const BUY: GoalBody = { dimension_filters: [{ key: 'event_name', op: '=', value: 'buy', extra: { eventClass: 'cv' } }] };
const PERIOD = { projectId: PROJECT, dateStart: D, dateEnd: D };

interface Visit {
  session: number;
  visitor: string;
  back: number;
  source: string;
  buys: number;
}

/**
 * Visitor a: visit 1 from search 10 days before D, visit 2 from an ad 3 days before, visit 3 direct
 * on D with a purchase. Visitor b: visit 4 from a social network 2 days before, visit 5 from search
 * on D with two purchases. Visitor c: visit 6 direct on D with a purchase. Visitor d: visit 7 from a
 * link on D, no purchase. Each visit is a page view at 12:00 Moscow time, then its purchases.
 */
const VISITS: Visit[] = [
  { session: 1, visitor: 'a', back: 10, source: 'search', buys: 0 },
  { session: 2, visitor: 'a', back: 3, source: 'ad', buys: 0 },
  { session: 3, visitor: 'a', back: 0, source: 'direct', buys: 1 },
  { session: 4, visitor: 'b', back: 2, source: 'social', buys: 0 },
  { session: 5, visitor: 'b', back: 0, source: 'search', buys: 2 },
  { session: 6, visitor: 'c', back: 0, source: 'direct', buys: 1 },
  { session: 7, visitor: 'd', back: 0, source: 'links', buys: 0 },
];

function rows(v: Visit): Record<string, unknown>[] {
  const date = day(v.back);
  const base = { project_id: PROJECT, event_date: date, visitor_id: v.visitor, session_id: v.session, traffic_type: v.source, url: 'https://shop.example/' };
  return [
    { ...base, event_key: eventKeyOf(crypto.randomUUID()), event_type: 'pageview', ts: `${date} 09:00:00`, event_number: 1 },
    ...Array.from({ length: v.buys }, (_, i) => ({
      ...base,
      event_key: eventKeyOf(crypto.randomUUID()),
      event_type: 'event',
      event_class: 'cv',
      event_name: 'buy',
      ts: `${date} 09:0${i + 1}:00`,
      event_number: i + 2,
    })),
  ];
}

let dir: string;
let clickhouse: ClickHouseClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stat-conversion-sql-'));
  clickhouse = createClickHouse({ kind: 'chdb', path: join(dir, 'clickhouse') });
  await migrateClickHouse(clickhouse);
  await clickhouse.insert({ table: 'events', values: VISITS.flatMap(rows), format: 'JSONEachRow' });
});

afterAll(async () => {
  await clickhouse.close();
  rmSync(dir, { recursive: true, force: true });
});

async function read(sql: Sql, key: string, value: string): Promise<Record<string, number>> {
  const answer = await clickhouse.query({ query: sql.query, query_params: sql.params, format: 'JSONEachRow' });
  const out: Record<string, number> = {};
  for (const r of await answer.json<Record<string, string>>()) out[r[key] ?? ''] = Number(r[value]);
  return out;
}

const attributed = (metric: ConversionMetric, model: AttributionModel, window: number) => read(compileAttributed(PERIOD, metric, BUY, model, window), 'traffic_type', 'numerator');

describe('a conversion in ClickHouse', () => {
  it('counts its sides by day and in total: visits, visitors or events that reached the goal, and all visits without a goal', async () => {
    expect(await read(compileConversionSide(PERIOD, 'visits', BUY), 'day', 'value')).toEqual({ [D]: 3, '': 3 });
    expect(await read(compileConversionSide(PERIOD, 'visitors', BUY), 'day', 'value')).toEqual({ [D]: 3, '': 3 });
    expect(await read(compileConversionSide(PERIOD, 'events_count', BUY), 'day', 'value')).toEqual({ [D]: 4, '': 4 });
    // All visits of D: 3, 5, 6, 7.
    expect(await read(compileConversionSide(PERIOD, 'visits', null), 'day', 'value')).toEqual({ [D]: 4, '': 4 });
    // Over three days, visits 4 (two days before) and 2 (three days before: outside) count.
    expect(await read(compileConversionSide({ ...PERIOD, dateStart: day(2) }, 'visits', null), 'day', 'value')).toEqual({ [day(2)]: 1, [D]: 4, '': 5 });
  });

  it('credits each converted visit to a source by the model, within the window', async () => {
    // a: visits 2 (ad) and 3 (direct) in 7 days, also 1 (search) in 14; b: 4 (social), 5 (search); c: 6 (direct).
    expect(await attributed('visits', 'last_click', 7)).toEqual({ direct: 2, search: 1 });
    expect(await attributed('visits', 'first_click', 7)).toEqual({ ad: 1, social: 1, direct: 1 });
    expect(await attributed('visits', 'first_click', 14)).toEqual({ search: 1, social: 1, direct: 1 });
    expect(await attributed('visits', 'last_valuable', 7)).toEqual({ ad: 1, search: 1, direct: 1 });
    expect(await attributed('visits', 'last_valuable', 14)).toEqual({ ad: 1, search: 1, direct: 1 });
    // b saw no ad: its last click.
    expect(await attributed('visits', 'sberads', 7)).toEqual({ ad: 1, search: 1, direct: 1 });
  });

  it('credits visitors and events the same way: b’s two purchases are two events of one visitor', async () => {
    expect(await attributed('visitors', 'first_click', 14)).toEqual({ search: 1, social: 1, direct: 1 });
    expect(await attributed('events_count', 'last_click', 7)).toEqual({ direct: 2, search: 2 });
    expect(await attributed('events_count', 'first_click', 7)).toEqual({ ad: 1, social: 2, direct: 1 });
  });

  it('counts the denominator by each visit’s own source', async () => {
    expect(await read(compileDenominatorBySource(PERIOD, 'visits', null), 'traffic_type', 'denominator')).toEqual({ direct: 2, search: 1, links: 1 });
    expect(await read(compileDenominatorBySource(PERIOD, 'events_count', BUY), 'traffic_type', 'denominator')).toEqual({ direct: 2, search: 2 });
  });
});
