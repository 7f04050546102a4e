import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIMENSIONS } from '@stat/schemas';
import { createClickHouse, type ClickHouseClient } from './client.js';
import { migrateClickHouse } from './migrate.js';

// Needs: chDB (in-process), one data directory for the file.
let clickhouse: ClickHouseClient;
beforeAll(async () => {
  clickhouse = createClickHouse({ kind: 'chdb', path: mkdtempSync(join(tmpdir(), 'stat-dimensions-')) });
  await migrateClickHouse(clickhouse);
});
afterAll(async () => {
  await clickhouse.close();
});

async function rows<T>(query: string): Promise<T[]> {
  return (await clickhouse.query({ query, format: 'JSONEachRow' })).json<T>();
}

describe('the dimension catalogue in storage', () => {
  it('names a column that exists for every stored dimension, and a reason for every other', async () => {
    const columns = await rows<{ table: string; name: string }>(
      "SELECT table, name FROM system.columns WHERE database = currentDatabase() AND table IN ('events', 'visits')",
    );
    const present = new Set(columns.map((c) => `${c.table}.${c.name}`));
    // A dimension computed by an expression (the URL tree's levels) names the column it reads (`from`).
    const columnOf = (d: (typeof DIMENSIONS)[keyof typeof DIMENSIONS]): string => ('from' in d && d.from !== undefined ? d.from : d.table === null ? '' : d.column);
    const absent = Object.entries(DIMENSIONS).filter(([, d]) => d.table !== null && !present.has(`${d.table}.${columnOf(d)}`));
    expect(absent).toEqual([]);
    for (const d of Object.values(DIMENSIONS)) if (d.table === null) expect(d.reason.length).toBeGreaterThan(10);
  });

  it('types every dimension stored in a column as its column is (a filter rule is checked by it)', async () => {
    const columns = await rows<{ table: string; name: string; type: string }>(
      "SELECT table, name, type FROM system.columns WHERE database = currentDatabase() AND table IN ('events', 'visits')",
    );
    const typeOf = new Map(columns.map((c) => [`${c.table}.${c.name}`, c.type]));
    // What each catalogue type is in ClickHouse; a dimension computed by the engine (the URL tree,
    // the visits' aggregates of pages and time, a map's keys and values) has no column of its own.
    const kinds: Record<string, RegExp> = { string: /String/, number: /^(UInt|Int)\d+$/, date: /^Date$/, datetime: /^DateTime\('UTC'\)$/ };
    const computed = new Set(['view_depth', 'visit_time', 'entry_page', 'exit_page', 'customer_params_key', 'user_cv_key', 'customer_params_value']);
    const misfits = Object.entries(DIMENSIONS).flatMap(([name, d]) => {
      if (d.table === null || 'from' in d || computed.has(name)) return [];
      const type = typeOf.get(`${d.table}.${d.column}`) ?? '';
      return kinds[d.type]!.test(type) ? [] : [`${name}: ${d.type}, column ${type}`];
    });
    expect(misfits).toEqual([]);
  });

  it("computes the catalogue's derived dimensions from what an event holds", async () => {
    await clickhouse.insert({
      table: 'events',
      format: 'JSONEachRow',
      values: [
        {
          event_key: '1',
          project_id: 1,
          event_type: 'pageview',
          ts: '2026-11-20 10:00:00.000',
          event_date: '2026-11-20',
          visitor_id: 'v1',
          screen_width: 390,
          screen_height: 844,
          device_brand: 'Apple',
          device_model: 'iPhone',
          page_format: 'iOS',
          ad_system: 'yandex_direct',
          utm_campaign: 'autumn',
          referrer: 'https://ya.ru/',
          event_params: { sku: 'A-1', price: '990' },
          user_id: 'u-7',
          link_url: 'https://partner.ru/',
        },
      ],
    });
    const [row] = await rows<Record<string, unknown>>(
      'SELECT screen_size, device_family, native_mobile, ad_campaign, referer, customer_params_key, auth_top100, external_url FROM events WHERE project_id = 1',
    );
    expect(row).toEqual({
      screen_size: '390x844',
      device_family: 'Apple iPhone',
      native_mobile: 1,
      ad_campaign: 'autumn',
      referer: 'https://ya.ru/',
      customer_params_key: ['sku', 'price'],
      auth_top100: 1,
      external_url: 'https://partner.ru/',
    });
  });
});
