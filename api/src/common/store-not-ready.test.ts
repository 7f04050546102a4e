import { describe, expect, it } from 'vitest';
import { ApiClient } from '../testing/client.js';
import { useTestApi, type TestApi } from '../testing/harness.js';
import { STORE_NOT_READY_MESSAGE } from './error.filter.js';

// An api of its own: the test drops a table of its chDB, which no other file may see.
let api: TestApi;

useTestApi({ file: 'store-not-ready.test.ts' }, (started) => {
  api = started;
});

describe('a ClickHouse table missing', () => {
  it('makes ch_geo answer 503 with what to do, never 500; with the table back it answers again', async () => {
    const client = new ApiClient(api.url);
    const path = '/api/report/v1.0/ch_geo?geo_ids=2017370,524901';
    // Migrated, and no aggregator has written names yet: no place is known.
    expect((await client.get(path)).json).toEqual({ responseStatus: 200, result: { data: [] } });

    // Before the geo dictionary's migration ran, its table is not there.
    const [{ statement } = { statement: '' }] = await (await api.clickhouse.query({ query: 'SHOW CREATE TABLE ch_geo', format: 'JSONEachRow' })).json<{ statement: string }>();
    await api.clickhouse.command({ query: 'DROP TABLE ch_geo' });
    const missing = await client.get(path);
    expect(missing.status).toBe(503);
    expect(missing.json).toEqual({ responseStatus: 503, errors: { message: STORE_NOT_READY_MESSAGE, request_id: expect.any(String) } });

    await api.clickhouse.command({ query: statement });
    expect((await client.get(path)).json).toEqual({ responseStatus: 200, result: { data: [] } });
  });
});
