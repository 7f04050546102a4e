import { createHash } from 'node:crypto';
import type { ClickHouseClient } from '@stat/storage';
import { referrerCatalog, type CatalogEntry } from './referrer.js';

/**
 * Writes the names of the traffic systems of the referrer tables into `ch_traffic_systems`, where
 * the api reads the titles of report rows (`yandex` → «Яндекс»). Like the geo dictionary: each write
 * carries the digest of the catalogue, so a restart with the same tables writes nothing, and the
 * newer version wins for every id. Returns the number of systems written, 0 when the table was current.
 */
export async function storeSystemDictionary(clickhouse: ClickHouseClient, catalog: readonly CatalogEntry[] = referrerCatalog()): Promise<number> {
  const digest = createHash('sha256').update(JSON.stringify(catalog)).digest('hex').slice(0, 16);
  const result = await clickhouse.query({
    query: 'SELECT count() AS n FROM ch_traffic_systems WHERE digest = {digest:String}',
    query_params: { digest },
    format: 'JSONEachRow',
  });
  const [row] = await result.json<{ n: string | number }>();
  if (Number(row?.n ?? 0) === catalog.length) return 0;
  const version = Date.now();
  await clickhouse.insert({
    table: 'ch_traffic_systems',
    values: catalog.map((s) => [s.traffic_type, s.id, s.name, digest, version]),
    format: 'JSONCompactEachRow',
    columns: ['traffic_type', 'id', 'name', 'digest', 'version'],
  });
  return catalog.length;
}
