import { describe, expect, it } from 'vitest';
import type { ClickHouseClient } from '@stat/storage';
import { eventKeyOf, type AttributionModel, type ConversionMetric, type GoalBody } from '@stat/schemas';
import { type Sql } from '../engine/index.js';
import { compileAttributed, compileConversionBreakdown, compileConversionSide, compileConversionTable, compileDenominatorBySource, type ConversionBreakdown, type ConversionTableQuery } from './conversion-sql.js';
import { useChdb } from '../testing/chdb.js';

// Needs: chDB (in-process). A conversion's sides and its attribution, each number counted by hand.
const PROJECT = 78;
const D = '2026-11-20';
const day = (back: number) => new Date(Date.parse(`${D}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10);
const BUY: GoalBody = { dimension_filters: [{ key: 'event_name', op: '=', value: 'buy', extra: { eventClass: 'cv' } }] };
const PERIOD = { projectId: PROJECT, dateStart: D, dateEnd: D, sample: 1 };

interface Visit {
  session: number;
  visitor: string;
  back: number;
  source: string;
  buys: number;
  device: string;
}

/**
 * Visitor a: visit 1 from search 10 days before D, visit 2 from an ad 3 days before, visit 3 direct
 * on D with a purchase. Visitor b: visit 4 from a social network 2 days before, visit 5 from search
 * on D with two purchases. Visitor c: visit 6 direct on D with a purchase. Visitor d: visit 7 from a
 * link on D, no purchase. Each visit is a page view at 12:00 Moscow time, then its purchases.
 * Devices: visits 1, 3 and 6 from a desktop, 2, 4 and 5 from a phone, 7 from a tablet.
 */
const VISITS: Visit[] = [
  { session: 1, visitor: 'a', back: 10, source: 'search', buys: 0, device: 'desktop' },
  { session: 2, visitor: 'a', back: 3, source: 'ad', buys: 0, device: 'mobile' },
  { session: 3, visitor: 'a', back: 0, source: 'direct', buys: 1, device: 'desktop' },
  { session: 4, visitor: 'b', back: 2, source: 'social', buys: 0, device: 'mobile' },
  { session: 5, visitor: 'b', back: 0, source: 'search', buys: 2, device: 'mobile' },
  { session: 6, visitor: 'c', back: 0, source: 'direct', buys: 1, device: 'desktop' },
  { session: 7, visitor: 'd', back: 0, source: 'links', buys: 0, device: 'tablet' },
];

function rows(v: Visit): Record<string, unknown>[] {
  const date = day(v.back);
  const base = { project_id: PROJECT, event_date: date, visitor_id: v.visitor, session_id: v.session, traffic_type: v.source, device_type: v.device, url: 'https://shop.example/' };
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

let clickhouse: ClickHouseClient;

useChdb('conversion-sql', () => VISITS.flatMap(rows), (client) => {
  clickhouse = client;
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

  it('breaks a conversion down by a widget’s dimension: the numerator by the credited visit’s value, the denominator by each visit’s own', async () => {
    const read = async (b: Partial<ConversionBreakdown>, period = PERIOD) => {
      const sql = compileConversionBreakdown(period, { metric: 'visits', numerator: BUY, denominator: null, model: 'last_click', windowDays: 7, dimensions: ['device_type'], ...b });
      const answer = await clickhouse.query({ query: sql.query, query_params: sql.params, format: 'JSONEachRow' });
      const rows = await answer.json<Record<string, string>>();
      return rows.map((r) => `${r.date === '1970-01-01' ? '' : `${r.date} `}${r.value}: ${r.numerator}/${r.denominator}`).sort();
    };
    // Last click: visits 3 and 6 (desktop) and 5 (phone) bought; D's visits 3, 6 desktop, 5 phone, 7 tablet.
    expect(await read({})).toEqual(['desktop: 2/2', 'mobile: 1/1', 'tablet: 0/1']);
    // First click in 7 days: a's visit 2 and b's visit 4 came from a phone: 2 of the one phone visit of D (200 %).
    expect(await read({ model: 'first_click' })).toEqual(['desktop: 1/2', 'mobile: 2/1', 'tablet: 0/1']);
    // Gender is not collected: every visit is the empty value, the whole conversion.
    expect(await read({ dimensions: ['gender'] })).toEqual([': 3/4']);
    // By day over three days: visit 4 (social, two days before) counts in its day's denominator only.
    expect(await read({ dimensions: ['traffic_type'], model: 'first_click', byDay: true }, { ...PERIOD, dateStart: day(2) })).toEqual(
      [`${day(2)} social: 0/1`, `${D} ad: 1/0`, `${D} direct: 1/2`, `${D} links: 0/1`, `${D} search: 0/1`, `${D} social: 1/0`].sort(),
    );
  });

  it('sorts, pages and counts the table in ClickHouse, by a dimension or a metric, ties by the values', async () => {
    const table = async (dimensions: ConversionBreakdown['dimensions'], t: ConversionTableQuery) => {
      const sql = compileConversionTable(PERIOD, { metric: 'visits', numerator: BUY, denominator: null, model: 'last_click', windowDays: 7, dimensions }, t);
      const answer = await clickhouse.query({ query: sql.query, query_params: sql.params, format: 'JSONEachRow' });
      return (await answer.json<Record<string, string | number | null>>()).map((r) => [...dimensions.map((d) => r[d]), Number(r.numerator), Number(r.denominator), r.conversion, Number(r.total_rows ?? -1)]);
    };
    // Last click: direct 2 of 2, search 1 of 1, links 0 of 1.
    expect(await table(['traffic_type'], { sortBy: 'conversion', order: 'desc', limit: 10, offset: 0 })).toEqual([
      ['direct', 2, 2, 100, 3],
      ['search', 1, 1, 100, 3],
      ['links', 0, 1, 0, 3],
    ]);
    expect((await table(['traffic_type'], { sortBy: 'traffic_type', order: 'desc', limit: 10, offset: 0 })).map((r) => r[0])).toEqual(['search', 'links', 'direct']);
    expect((await table(['traffic_type'], { sortBy: 'traffic_type', order: 'asc', limit: 10, offset: 0 })).map((r) => r[0])).toEqual(['direct', 'links', 'search']);
    // The second row of three; the whole table without a limit (the CSV), without a count.
    expect(await table(['traffic_type'], { sortBy: 'numerator', order: 'desc', limit: 1, offset: 1 })).toEqual([['search', 1, 1, 100, 3]]);
    expect(await table(['traffic_type'], { sortBy: 'denominator', order: 'asc', offset: 0 })).toEqual([
      ['links', 0, 1, 0, -1],
      ['search', 1, 1, 100, -1],
      ['direct', 2, 2, 100, -1],
    ]);
    // Two dimensions: the credited visit's pair.
    expect(await table(['traffic_type', 'device_type'], { sortBy: 'numerator', order: 'desc', limit: 10, offset: 0 })).toEqual([
      ['direct', 'desktop', 2, 2, 100, 3],
      ['search', 'mobile', 1, 1, 100, 3],
      ['links', 'tablet', 0, 1, 0, 3],
    ]);
  });

  it('reads the same sample of visitors in every subquery, so a credited unit still meets its visitor’s visits', () => {
    const sampled = { ...PERIOD, sample: 0.1 };
    const b: ConversionBreakdown = { metric: 'visits', numerator: BUY, denominator: null, model: 'last_click', windowDays: 7, dimensions: ['traffic_type'] };
    const queries = [
      compileConversionSide(sampled, 'visits', BUY),
      compileConversionBreakdown(sampled, b),
      compileConversionTable(sampled, b, { sortBy: 'numerator', order: 'desc', limit: 10, offset: 0 }),
    ].map((sql) => sql.query);
    for (const query of queries) {
      const reads = query.match(/FROM events(?: SAMPLE [\d.]+)?/g) ?? [];
      expect(reads.length).toBeGreaterThan(0);
      expect(new Set(reads)).toEqual(new Set(['FROM events SAMPLE 0.100000']));
    }
    // At 1 no SAMPLE at all (the exact figures, as before sampling existed).
    expect(compileConversionTable(PERIOD, b, { sortBy: 'numerator', order: 'desc', offset: 0 }).query).not.toContain('SAMPLE');
  });
});
