import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { eventKeyOf } from '@stat/schemas';
import { CLICKHOUSE_MIGRATIONS_DIR } from '@stat/schemas/migrations';
import { createClickHouse } from './client.js';
import { loadMigrations, migrateClickHouse, splitStatements } from './migrate.js';

describe('splitStatements', () => {
  it('splits on semicolons ending a line and drops comment lines', () => {
    expect(splitStatements('-- a comment; with a semicolon\nCREATE TABLE a (x UInt8) ENGINE = Memory;\n\nSELECT 1;\n')).toEqual([
      'CREATE TABLE a (x UInt8) ENGINE = Memory',
      'SELECT 1',
    ]);
  });

  it('keeps a semicolon inside a line', () => {
    expect(splitStatements("SELECT ';' AS s")).toEqual(["SELECT ';' AS s"]);
  });
});

describe('migrations on chDB', () => {
  it('are numbered from 1 without gaps', async () => {
    const versions = (await loadMigrations()).map((m) => m.version);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
  });

  // Needs: chDB (in-process). One data directory per process, so this is the only chDB test here.
  it('apply once, are recorded, upgrade an older install keeping its events, and create the events table with SAMPLE BY', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stat-migrate-'));
    const client = createClickHouse({ kind: 'chdb', path: dir });
    try {
      // An install of before the events' key (migrations 1 to 14) with one stored event, upgraded.
      const all = (await loadMigrations()).map((m) => m.version);
      const before = mkdtempSync(join(tmpdir(), 'stat-migrations-14-'));
      for (const file of readdirSync(CLICKHOUSE_MIGRATIONS_DIR).filter((f) => /^00(0\d|1[0-4])_/.test(f))) copyFileSync(new URL(file, CLICKHOUSE_MIGRATIONS_DIR), join(before, file));
      expect(await migrateClickHouse(client, pathToFileURL(before + '/'))).toEqual(all.filter((v) => v <= 14));
      const uuid = '0f1e2d3c-4b5a-4987-a6b5-c4d3e2f10123';
      // Its visit: a page view, then an action 40 s later (what the visit's duration sums).
      await client.insert({
        table: 'events',
        format: 'JSONEachRow',
        values: [
          { event_id: uuid, project_id: 1, event_type: 'pageview', ts: '2026-11-20 10:00:00.000', event_date: '2026-11-20', visitor_id: 'v1' },
          { event_id: '1f1e2d3c-4b5a-4987-a6b5-c4d3e2f10124', project_id: 1, event_type: 'event', ts: '2026-11-20 10:00:40.000', event_date: '2026-11-20', visitor_id: 'v1', duration_delta: 40_000 },
        ],
      });
      // A visit brought by a link, whose second page view has the site's own page as its referrer.
      const link = { project_id: 2, event_type: 'pageview', event_date: '2026-11-20', visitor_id: 'v3', session_id: 5, traffic_type: 'link', traffic_system: 'rbc.ru' };
      await client.insert({
        table: 'events',
        format: 'JSONEachRow',
        values: [
          { ...link, event_id: '2f1e2d3c-4b5a-4987-a6b5-c4d3e2f10125', ts: '2026-11-20 12:00:00.000', event_number: 1, referer_domain: 'rbc.ru', referer_path: '/economics/1', screen_width: 1920, screen_height: 1080 },
          { ...link, event_id: '3f1e2d3c-4b5a-4987-a6b5-c4d3e2f10126', ts: '2026-11-20 12:01:00.000', event_number: 2, referer_domain: 'site.example', referer_path: '/' },
        ],
      });
      expect(await migrateClickHouse(client)).toEqual(all.filter((v) => v > 14));
      expect(await migrateClickHouse(client)).toEqual([]);
      // 0023: a hit without a screen has no screen size (not «0x0»). 0024: every event of the visit
      // has the visit's referring site and page, its first event's.
      const linked = await client.query({ query: 'SELECT event_number, referer_domain, referer_path, screen_size FROM events WHERE project_id = 2 ORDER BY event_number', format: 'JSONEachRow' });
      expect(await linked.json()).toEqual([
        { event_number: 1, referer_domain: 'rbc.ru', referer_path: '/economics/1', screen_size: '1920x1080' },
        { event_number: 2, referer_domain: 'rbc.ru', referer_path: '/economics/1', screen_size: '' },
      ]);
      // 0025: the material columns, empty on the events stored before them.
      const materials = await client.query({ query: 'SELECT media_title, author_name, toString(published_datetime) AS published FROM events WHERE project_id = 2 ORDER BY event_number', format: 'JSONEachRow' });
      expect(await materials.json()).toEqual([
        { media_title: '', author_name: '', published: '1970-01-01 00:00:00' },
        { media_title: '', author_name: '', published: '1970-01-01 00:00:00' },
      ]);
      const helpers = await client.query({ query: "SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name LIKE 'visit_referrers%'", format: 'JSONEachRow' });
      expect(await helpers.json()).toEqual([{ n: 0 }]);
      // The old row's key is the one the aggregator gives a new row of the same UUID: a6b5c4d3e2f10123 as one number.
      const keys = await client.query({ query: "SELECT toString(event_key) AS event_key FROM events WHERE project_id = 1 AND event_type = 'pageview'", format: 'JSONEachRow' });
      expect(await keys.json()).toEqual([{ event_key: eventKeyOf(uuid) }]);
      expect(eventKeyOf(uuid)).toBe(BigInt('0xa6b5c4d3e2f10123').toString());
      const columns = await client.query({ query: "SELECT name FROM system.columns WHERE database = currentDatabase() AND table = 'events' AND name LIKE 'event\\_%' ORDER BY name", format: 'JSONEachRow' });
      expect(await columns.json()).toEqual([{ name: 'event_class' }, { name: 'event_date' }, { name: 'event_key' }, { name: 'event_name' }, { name: 'event_number' }, { name: 'event_params' }, { name: 'event_type' }]);
      // 0018 rebuilt the path rollups with uniqCombined(17) states (0019 the time rollups), back-filled from the events: the
      // old event is counted, and a new one goes through the rebuilt materialized views.
      await client.insert({ table: 'events', format: 'JSONEachRow', values: [{ event_key: '7', project_id: 1, event_type: 'pageview', ts: '2026-11-20 11:00:00.000', event_date: '2026-11-20', visitor_id: 'v2', session_id: 2, url_no_args: 'https://site.example/' }] });
      // 0019 did the same for the time rollups.
      // 0020 copied the path rollups into tables of small granules and filled their week twins, which
      // a new event reaches through the day rollups' views.
      for (const rollup of ['rollup_sources_day', 'rollup_geo_day', 'rollup_pages_day', 'rollup_sources_week', 'rollup_geo_week', 'rollup_pages_week', 'rollup_5m', 'rollup_hour', 'rollup_day']) {
        const counted = await client.query({ query: `SELECT toString(sum(page_views)) AS views, toString(uniqCombinedMerge(17)(visitors)) AS distinct_visitors, toTypeName(any(visitors)) AS state FROM ${rollup} WHERE project_id = 1`, format: 'JSONEachRow' });
        expect(await counted.json()).toEqual([{ views: '2', distinct_visitors: '2', state: 'AggregateFunction(uniqCombined(17), UInt32)' }]);
      }
      // 0021 rebuilt the day rollup with the distinct visits, engaged time and logged-in users the path rollups keep.
      const days = await client.query({ query: 'SELECT toString(uniqCombinedMerge(17)(sessions)) AS visits, toString(sum(engaged_ms)) AS engaged, toString(uniqIfMerge(uid)) AS uid FROM rollup_day WHERE project_id = 1', format: 'JSONEachRow' });
      expect(await days.json()).toEqual([{ visits: '2', engaged: '0', uid: '0' }]);
      // 0022 gave the visits their duration, summed from the events' deltas: the visit stored before
      // it has its 40 s, its other columns unchanged; the back-fill run again adds nothing.
      const visit = async (): Promise<unknown> =>
        (await client.query({ query: 'SELECT toString(sum(duration_ms)) AS duration, toString(sum(page_views)) AS views, toString(sum(events)) AS events, toString(min(start_ts)) AS start, argMinMerge(entry_url) AS entry FROM visits WHERE session_id = 0', format: 'JSONEachRow' })).json();
      expect(await visit()).toEqual([{ duration: '40000', views: '1', events: '2', start: '2026-11-20 10:00:00.000', entry: '' }]);
      const backfill = (await loadMigrations()).find((m) => m.name === 'visit_duration')!.statements.at(-1)!;
      await client.command({ query: backfill });
      expect(await visit()).toEqual([{ duration: '40000', views: '1', events: '2', start: '2026-11-20 10:00:00.000', entry: '' }]);
      const granules = await client.query({ query: "SELECT name FROM system.tables WHERE database = currentDatabase() AND engine_full LIKE '%index_granularity_bytes = 16384%' ORDER BY name", format: 'JSONEachRow' });
      expect(await granules.json()).toEqual(['rollup_geo_day', 'rollup_geo_week', 'rollup_pages_day', 'rollup_pages_week', 'rollup_sources_day', 'rollup_sources_week'].map((name) => ({ name })));
      const table = await client.query({ query: "SELECT sampling_key, sorting_key FROM system.tables WHERE database = currentDatabase() AND name = 'events'", format: 'JSONEachRow' });
      expect(await table.json()).toEqual([{ sampling_key: 'visitor_hash', sorting_key: 'project_id, event_date, visitor_hash, ts' }]);
      // A build whose migration 1 has another name than the one applied here refuses, running nothing of it.
      const other = mkdtempSync(join(tmpdir(), 'stat-migrations-other-'));
      writeFileSync(join(other, '0001_other.sql'), 'CREATE TABLE IF NOT EXISTS m_other (x UInt8) ENGINE = Memory;\n');
      await expect(migrateClickHouse(client, pathToFileURL(other + '/'))).rejects.toThrow('ClickHouse migration 1 was applied here as "events", but this build\'s 1 is "other"');
      const made = await client.query({ query: "SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = 'm_other'", format: 'JSONEachRow' });
      expect(await made.json()).toEqual([{ n: 0 }]);
    } finally {
      await client.close();
    }
  });

  it('a folder of new migrations applies only those', async () => {
    const migrations = mkdtempSync(join(tmpdir(), 'stat-migrations-'));
    writeFileSync(join(migrations, '0001_a.sql'), 'CREATE TABLE IF NOT EXISTS m_a (x UInt8) ENGINE = Memory;\n');
    writeFileSync(join(migrations, 'notes.txt'), 'not a migration');
    const loaded = await loadMigrations(pathToFileURL(migrations + '/'));
    expect(loaded).toEqual([{ version: 1, name: 'a', statements: ['CREATE TABLE IF NOT EXISTS m_a (x UInt8) ENGINE = Memory'] }]);
  });
});
