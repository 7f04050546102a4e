import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import type { ClickHouseClient } from '@stat/storage';
import { DictionaryRepository } from './dictionaries.js';
import { DISTINCT, DISTINCT_MERGE, scaledCount } from './sql/metrics.js';
import { ReportEngine } from './runner.js';
import type { ReportRequest } from './request.js';
import { ReportAnswers } from './answers.js';
import { Sampling } from './sampling.js';
import { eventKeyOf } from '@stat/schemas';
import { answersOver, useChdb } from '../testing/chdb.js';

// Needs: chDB (in-process). 40 000 visitors of one day: sampling and distinct counts against the exact figures
// (drilldown_sources: a report of sources that no day rollup holds, so it reads the raw events).
const PROJECT = 43;
const DAY = '2026-11-10';
const NOW = Date.parse('2026-11-12T12:00:00Z');
const VISITORS = 40_000;

let clickhouse: ClickHouseClient;
let service: ReportAnswers;

/** Visitor i comes once from search (i even) or social (i odd), with one page view, a second for every third visitor. */
function events(): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < VISITORS; i++) {
    const second = i % 3 === 0;
    const at = `2026-11-10 ${String(7 + (i % 12)).padStart(2, '0')}:00:00.000`;
    const base = { project_id: PROJECT, event_date: DAY, visitor_id: `visitor-${i}`, session_id: i + 1, session_start: at, traffic_type: i % 2 === 0 ? 'search' : 'social' };
    rows.push({ ...base, event_key: eventKeyOf(crypto.randomUUID()), event_type: 'pageview', ts: at, event_number: 1, bounce_delta: second ? 0 : 1 });
    if (second) rows.push({ ...base, event_key: eventKeyOf(crypto.randomUUID()), event_type: 'pageview', ts: at.replace(':00:00', ':01:00'), event_number: 2, duration_delta: 60_000 });
  }
  return rows;
}

useChdb('report-sampling', () => events(), (client) => {
  clickhouse = client;
  service = answersOver(clickhouse, NOW);
});

const request = (sample: number): ReportRequest =>
  ({ date_start: DAY, date_end: DAY, group: 'hour', metrics: ['visits', 'visitors', 'page_views', 'avg_view_depth'], sample }) as ReportRequest;

describe('sampling', () => {
  it('reads the exact figures at sample 1; distinct visitors within the sketch\'s error', async () => {
    const t = await service.table(PROJECT, 'drilldown_sources', request(1));
    // All was asked: no reason to give.
    expect(t.meta.whole).toBeUndefined();
    // 20 000 visitors a type; every third visitor (13 334 of 40 000) viewed two pages.
    const [visits, visitors, pageViews, depth] = t.totals as [number, number, number, number];
    expect([visits, pageViews, depth]).toEqual([40_000, 53_334, 1.33]);
    // Above 8 192 the count is a HyperLogLog's estimate (README: under 1 %).
    expect(Math.abs(visitors / 40_000 - 1)).toBeLessThan(0.01);
    expect(t.meta.sample).toBe(1);
  });

  it('at sample 0.1 scales the counts back, within three standard errors of the exact ones', async () => {
    const t = await service.table(PROJECT, 'drilldown_sources', request(0.1));
    expect(t.meta.sample).toBe(0.1);
    // A sample of visitors by hash is a draw of each visitor with p = 0.1: the scaled count of N
    // visitors has a relative standard error of sqrt((1 - p) / (N p)), 2.1 % for a row of 20 000;
    // three of them is the bound.
    const bound = (n: number): number => 3 * Math.sqrt(0.9 / (n * 0.1));
    const [visits, visitors, pageViews, depth] = t.totals as [number, number, number, number];
    expect(Math.abs(visits / 40_000 - 1)).toBeLessThan(bound(40_000));
    expect(Math.abs(visitors / 40_000 - 1)).toBeLessThan(bound(40_000));
    expect(Math.abs(pageViews / 53_334 - 1)).toBeLessThan(bound(40_000));
    expect(Math.abs(depth - 1.33)).toBeLessThan(0.05);
    for (const row of t.data) expect(Math.abs((row.metrics[0] as number) / 20_000 - 1)).toBeLessThan(bound(20_000));
    // Counts are scaled: whole numbers near the total, not the sample's own (about 4 000).
    expect(visits).toBeGreaterThan(30_000);
    expect(Number.isInteger(visits)).toBe(true);
  });

  it('scales a count of any sample as the conversions and funnels scale theirs: times 1 / sample, a half rounded up', async () => {
    const t = await service.table(PROJECT, 'drilldown_sources', request(0.4));
    const [row] = await (
      await clickhouse.query({ query: `SELECT countIf(event_number = 1) AS visits FROM events SAMPLE 0.4 WHERE project_id = ${PROJECT}`, format: 'JSONEachRow' })
    ).json<{ visits: string }>();
    const read = Number(row!.visits);
    // Read as 4j + 1, × 2.5 is 10j + 2.5: rounded up by both to 10j + 3, where ClickHouse's round()
    // (a half to even) gave 10j + 2 and the conversions' Math.round 10j + 3.
    expect(read % 4).toBe(1);
    expect(t.totals[0]).toBe(scaledCount(read, 0.4));
    expect(t.totals[0]).toBe((read * 5 + 1) / 2);
  });

  it('is exact for a period of today only, whatever sample is asked', async () => {
    const today = new ReportAnswers(new ReportEngine(clickhouse), new DictionaryRepository(clickhouse), () => Date.parse(`${DAY}T20:00:00Z`), new Sampling(new ReportEngine(clickhouse), 0));
    const t = await today.table(PROJECT, 'drilldown_sources', request(0.01));
    expect([t.meta.sample, t.meta.whole]).toEqual([1, 'today']);
    expect(t.totals[0]).toBe(40_000);
  });

  it('answers exactly where a day rollup holds the report, whatever sample is asked', async () => {
    const t = await service.table(PROJECT, 'traffic_sources', request(0.1));
    // The answer says why, so the «Точность» button does not blame the period.
    expect([t.meta.sample, t.meta.whole]).toEqual([1, 'exact']);
    expect(t.totals.slice(0, 1)).toEqual([40_000]);
  });

  // The day holds 53 334 events (40 000 first page views, 13 334 second ones), as the day rollup counts them.
  const withFloor = (minEvents: number): ReportAnswers => {
    const engine = new ReportEngine(clickhouse);
    return new ReportAnswers(engine, new DictionaryRepository(clickhouse), () => NOW, new Sampling(engine, minEvents));
  };

  it('reads a period of no more events than REPORT_SAMPLE_MIN_EVENTS whole at any sample asked, table and graph, and says so', async () => {
    for (const sample of [0.01, 0.1]) {
      const t = await withFloor(53_334).table(PROJECT, 'drilldown_sources', request(sample));
      expect([t.meta.sample, t.meta.whole]).toEqual([1, 'period']);
      expect(t.totals.slice(0, 1)).toEqual([40_000]);
      expect(t.totals[2]).toBe(53_334);
      expect(t.data.map((row) => row.metrics[0])).toEqual([20_000, 20_000]);
      const g = await withFloor(53_334).graph(PROJECT, 'drilldown_sources', { ...request(sample), need_all_total: true } as ReportRequest);
      expect([g.sample, g.whole]).toEqual([1, 'period']);
      expect(g.data[0]!.points.reduce((sum, p) => sum + (p.metrics[2] ?? 0), 0)).toBe(53_334);
    }
  });

  it('reads the sample asked once the period holds more events than REPORT_SAMPLE_MIN_EVENTS', async () => {
    const t = await withFloor(53_333).table(PROJECT, 'drilldown_sources', request(0.1));
    expect([t.meta.sample, t.meta.whole]).toEqual([0.1, undefined]);
    expect(t.totals).toEqual((await service.table(PROJECT, 'drilldown_sources', request(0.1))).totals);
  });

  it('keeps a period\'s size a minute: a site that grows past REPORT_SAMPLE_MIN_EVENTS is sampled from the next minute', async () => {
    const own = PROJECT + 1;
    const view = (i: number) => ({ project_id: own, event_date: DAY, visitor_id: `small-${i}`, session_id: 900 + i, event_key: eventKeyOf(crypto.randomUUID()), event_type: 'pageview', ts: `${DAY} 10:00:0${i}.000`, event_number: 1 });
    await clickhouse.insert({ table: 'events', values: [view(1), view(2)], format: 'JSONEachRow' });
    let now = NOW;
    const sampling = new Sampling(new ReportEngine(clickhouse), 2, () => now);
    const period = { dateStart: DAY, dateEnd: DAY };
    expect(await sampling.sampleOf(own, period, 0.1)).toBe(1);
    await clickhouse.insert({ table: 'events', values: [view(3)], format: 'JSONEachRow' });
    expect(await sampling.sampleOf(own, period, 0.1)).toBe(1);
    now += 60_000;
    expect(await sampling.sampleOf(own, period, 0.1)).toBe(0.1);
    // Asked whole, it reads whole without counting.
    expect(await sampling.sampleOf(own, { dateStart: '2026-11-01', dateEnd: DAY }, 1)).toBe(1);
  });

  it('states the error of uniq (logged-in visitors, uid) on larger sets: under 1 %', async () => {
    for (const n of [100_000, 1_000_000]) {
      const [row] = await (await clickhouse.query({ query: `SELECT uniq(toString(number)) AS u FROM numbers(${n})`, format: 'JSONEachRow' })).json<{ u: string }>();
      expect(Math.abs(Number(row!.u) / n - 1)).toBeLessThan(0.01);
    }
  });

  // The rollups' states (migrations 0018 and 0019), merged as the engine merges them, over random
  // 32-bit hashes such as visitor_hash: README «exact up to 8 192 distinct, under 1 % above», and
  // the raw rows' count of the same hashes is the same number.
  it('states the error of visitors\' uniqCombined(17): exact up to 8 192, under 1 % above, the same from states and from rows', async () => {
    // The hashes split into 30 states (the days of a month), then merged.
    const merged = async (n: number, seed: number): Promise<{ exact: number; counted: number; raw: number }> => {
      const hashes = `SELECT number, toUInt32(cityHash64(number, ${seed}) % 4294967296) AS h FROM numbers(${n})`;
      const [row] = await (
        await clickhouse.query({
          query: `SELECT (SELECT uniqExact(h) FROM (${hashes})) AS exact, (SELECT ${DISTINCT}(h) FROM (${hashes})) AS raw, ${DISTINCT_MERGE}(s) AS counted
                  FROM (SELECT number % 30 AS day, ${DISTINCT_MERGE.replace('Merge', 'State')}(h) AS s FROM (${hashes}) GROUP BY day)`,
          format: 'JSONEachRow',
        })
      ).json<{ exact: string; counted: string; raw: string }>();
      return { exact: Number(row!.exact), counted: Number(row!.counted), raw: Number(row!.raw) };
    };
    for (const seed of [1, 2, 3]) {
      for (const n of [1, 16, 1_000, 8_192]) {
        const { exact, counted, raw } = await merged(n, seed);
        expect([counted, raw]).toEqual([exact, exact]);
      }
      for (const n of [8_193, 20_000, 100_000, 1_000_000]) {
        const { exact, counted, raw } = await merged(n, seed);
        expect(Math.abs(counted / exact - 1)).toBeLessThan(0.01);
        expect(raw).toBe(counted);
      }
    }
  });
});
