import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moscowDate, moscowDayStart, type AcceptedHit } from '@stat/schemas';
import { createClickHouse, migrateClickHouse, type ClickHouseClient } from '@stat/storage';
import { createAggregator, loadGeo } from '@stat/aggregator';
import { ipText, REGIONS } from './places.js';
import { DEMO_PROJECT_ID, TOP_UP_MIN_MS, demoTraffic, seedDemo } from './seed.js';
import { generateTraffic, type TrafficStats } from './traffic.js';

// Needs: chDB (in-process) in a data directory of its own, and the aggregator's GeoLite2 database.
// The generated traffic goes through the aggregator's own handler, as --bulk and the demo seed do,
// and what ClickHouse then holds is checked: the enrichment sees what the generator meant.
let dir: string;
let clickhouse: ClickHouseClient;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stat-demo-'));
  clickhouse = createClickHouse({ kind: 'chdb', path: dir });
  await migrateClickHouse(clickhouse);
  await loadGeo();
});
afterAll(async () => {
  await clickhouse.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a generation to its end; its stats. */
function run(options: Parameters<typeof generateTraffic>[0]): TrafficStats {
  const traffic = generateTraffic(options);
  for (;;) {
    const next = traffic.next();
    if (next.done) return next.value;
  }
}

async function rows<T>(query: string, params: Record<string, unknown>): Promise<T[]> {
  const result = await clickhouse.query({ query, query_params: params, format: 'JSONEachRow' });
  return result.json<T>();
}

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

describe('generated traffic through the aggregator, on chDB', () => {
  it('every address block of networks.ts locates where it says, as GeoLite2-City puts it', async () => {
    const hits: AcceptedHit[] = [];
    const expected = new Map<string, readonly [number, number, number]>();
    const at = Date.now() - 3_600_000;
    REGIONS.forEach((region, r) => {
      [...region.fixed, ...region.mobile].forEach((block, b) => {
        // The first host, one in the middle and the last of each block.
        for (const offset of [1, block.size >> 1, block.size - 2]) {
          const v = `net${r}x${b}x${offset}`;
          expected.set(v, region.place.geo);
          const hit = { p: 501, t: 'pageview' as const, u: 'https://demo.stat.example/', r: '', ti: '', sw: 0, sh: 0, v };
          hits.push({ id: randomUUID(), at, ip: ipText(block.base + offset), ua: CHROME, hit });
        }
      });
    });
    await createAggregator(clickhouse, { restoreVisits: false }).handle(hits);
    const found = await rows<{ visitor_id: string; geo_country: number; geo_area: number; geo_city: number }>(
      'SELECT visitor_id, geo_country, geo_area, geo_city FROM events WHERE project_id = {p:UInt32}',
      { p: 501 },
    );
    expect(found).toHaveLength(hits.length);
    let sameCity = 0;
    for (const row of found) {
      const [country, area, city] = expected.get(row.visitor_id)!;
      expect(row.geo_country, row.visitor_id).toBe(country);
      if (row.geo_area === area && row.geo_city === city) sameCity += 1;
    }
    // The table was built from the same database; a newer database may move a few blocks.
    expect(sameCity / found.length).toBeGreaterThan(0.97);
  });

  it('20 000 events arrive whole, with no bots, and spread over countries, cities, sources and devices', async () => {
    const until = Date.now();
    const traffic = generateTraffic({
      projectId: 502,
      siteUrl: 'https://demo.stat.example',
      events: 20_000,
      fromMs: until - 14 * 86_400_000,
      untilMs: until,
      seed: 9,
    });
    const aggregator = createAggregator(clickhouse, { restoreVisits: false });
    let stats: TrafficStats;
    // In batches, as --bulk writes: an insert runs every materialized view once.
    let batch: AcceptedHit[] = [];
    for (;;) {
      const next = traffic.next();
      if (next.done) {
        stats = next.value;
        break;
      }
      batch.push(...next.value);
      if (batch.length >= 10_000) {
        await aggregator.handle(batch);
        batch = [];
      }
    }
    await aggregator.handle(batch);
    expect(aggregator.stats).toEqual({ stored: 20_000, droppedBots: 0, droppedByRules: 0, droppedNoProject: 0, skippedReplays: 0, deadLettered: 0 });

    const p = { p: 502 };
    const count = async (column: string) =>
      new Map(
        (await rows<{ k: string; n: string }>(`SELECT toString(${column}) AS k, uniqExact(session_id) AS n FROM events WHERE project_id = {p:UInt32} GROUP BY k`, p)).map(
          (r) => [r.k, Number(r.n)],
        ),
      );
    const [visits] = await rows<{ n: string }>('SELECT uniqExact(session_id) AS n FROM events WHERE project_id = {p:UInt32}', p);
    // The aggregator cuts the same visits the generator made (30 minutes apart at least).
    expect(Number(visits!.n)).toBe(stats.visits);

    const countries = await count('geo_country');
    expect(countries.size).toBeGreaterThanOrEqual(6);
    expect(countries.get('2017370')! / stats.visits).toBeGreaterThan(0.8); // Russia
    for (const id of ['630336', '1522867', '2921044']) expect(countries.get(id), id).toBeGreaterThan(0); // Belarus, Kazakhstan, Germany
    expect((await count('geo_city')).size).toBeGreaterThan(40);
    expect((await count('geo_area')).size).toBeGreaterThan(30);

    const types = await count('traffic_type');
    for (const type of ['search', 'direct', 'recommend', 'social', 'messenger', 'ad', 'aggrnews', 'internal', 'link', 'exchange']) {
      expect(types.get(type), type).toBeGreaterThan(0);
    }
    const engines = await count('search_system');
    expect(engines.get('yandex')!).toBeGreaterThan(engines.get('google')!);
    const ads = await count('ad_system');
    for (const system of ['yandex_direct', 'vk_ads', 'google_ads', 'telegram_ads']) expect(ads.get(system), system).toBeGreaterThan(0);
    const phrases = await count('search_phrase');
    expect(phrases.size).toBeGreaterThan(20);

    const devices = await count('device_type');
    expect(devices.get('mobile')!).toBeGreaterThan(devices.get('desktop')!);
    expect(devices.get('desktop')!).toBeGreaterThan(devices.get('tablet')!);
    const browsers = await count('browser_family');
    for (const family of ['Chrome', 'Yandex', 'Mobile Safari', 'Samsung Internet', 'Edge', 'Firefox']) expect(browsers.get(family), family).toBeGreaterThan(0);
  });

  it('the demo seed writes the traffic of its generator once, then only the time that passed, with every kind of data', async () => {
    const handle = createAggregator(clickhouse, { restoreVisits: false }).handle;
    const p = { p: DEMO_PROJECT_ID };
    const stored = async () => Number((await rows<{ n: string }>('SELECT count() AS n FROM events WHERE project_id = {p:UInt32}', p))[0]!.n);
    // A Saturday, 17:00 in Moscow: the same hits on every run.
    const now = Date.UTC(2026, 10, 21, 14, 0);
    const options = { days: 7, visitsPerDay: 600, now, batch: 5_000 };
    const expected = run(demoTraffic(moscowDayStart(moscowDate(now - 6 * 86_400_000)), now, 600));

    const first = await seedDemo(clickhouse, handle, options);
    expect(first.events).toBe(expected.events);
    expect(first.stats).toEqual(expected);
    expect(await stored()).toBe(expected.events);
    const [visits] = await rows<{ n: string }>('SELECT uniqExact(session_id) AS n FROM events WHERE project_id = {p:UInt32}', p);
    expect(Number(visits!.n)).toBe(expected.visits);
    const days = await rows<{ d: string }>('SELECT DISTINCT toString(event_date) AS d FROM events WHERE project_id = {p:UInt32} ORDER BY d', p);
    expect(days.map((d) => d.d)).toEqual(Object.keys(expected.byDate).sort());

    // A second start at the same time adds nothing; one later adds only the time since the
    // latest event, from another stream (no event id twice).
    expect((await seedDemo(clickhouse, handle, options)).events).toBe(0);
    expect(await stored()).toBe(expected.events);
    const later = await seedDemo(clickhouse, handle, { ...options, now: now + 3 * 3_600_000 });
    expect(later.fromMs).toBeGreaterThan(now - TOP_UP_MIN_MS);
    expect(later.events).toBe(run(demoTraffic(later.fromMs!, now + 3 * 3_600_000, 600)).events);
    expect(later.events).toBeLessThan(expected.events / 10);
    expect(await stored()).toBe(expected.events + later.events);
    const [ids] = await rows<{ n: string }>('SELECT uniqExact(event_key) AS n FROM events WHERE project_id = {p:UInt32}', p);
    expect(Number(ids!.n)).toBe(expected.events + later.events);

    // What the enrichment made of it: every kind of data the reports show.
    const kinds = await rows<Record<string, string>>(
      `SELECT uniqExactIf(session_id, openstat_service != '') AS openstat, uniqExactIf(session_id, search_phrase != '') AS phrases,
              uniqExact(utm_campaign) - 1 AS campaigns, uniqExactIf(block_name, event_type = 'show') AS shown_blocks,
              uniqExactIf(block_name, event_type = 'click') AS clicked_blocks, uniqExact(event_class) - 1 AS event_classes,
              uniqExact(event_name) - 1 AS event_names, countIf(length(event_params) > 0) AS with_params,
              countIf(event_type = 'read' AND read_percent > 0) AS reads, countIf(link_url != '') AS outbound,
              uniqExact(user_id) - 1 AS users, uniqExact(browser_family) AS browsers, uniqExact(os_family) AS systems,
              uniqExact(device_type) AS devices, uniqExact(screen_width, screen_height) AS screens,
              uniqExact(geo_country) AS countries, uniqExactIf(geo_area, geo_country = 2017370) AS russian_areas,
              uniqExactIf(session_id, session_number > 1) AS returning
       FROM events WHERE project_id = {p:UInt32}`,
      p,
    );
    const k = Object.fromEntries(Object.entries(kinds[0]!).map(([key, v]) => [key, Number(v)]));
    for (const [kind, least] of Object.entries({
      openstat: 1, phrases: 1, campaigns: 5, shown_blocks: 5, clicked_blocks: 5, event_classes: 2, event_names: 5, with_params: 1,
      reads: 1, outbound: 1, users: 1, browsers: 6, systems: 4, devices: 3, screens: 10, countries: 6, russian_areas: 20, returning: 1,
    })) {
      expect(k[kind], kind).toBeGreaterThanOrEqual(least);
    }
    const types = await rows<{ t: string; n: string }>(
      'SELECT toString(traffic_type) AS t, uniqExact(session_id) AS n FROM events WHERE project_id = {p:UInt32} GROUP BY t',
      p,
    );
    expect(types.map((t) => t.t).sort()).toEqual(['ad', 'aggrnews', 'direct', 'exchange', 'internal', 'link', 'messenger', 'qr', 'recommend', 'search', 'social']);
  });
});
