import { createHash } from 'node:crypto';
import type { ClickHouseClient } from '@stat/storage';
import { referrerCatalog, type CatalogEntry } from './referrer.js';
import { storeDictionary } from './store-dictionary.js';

/**
 * Writes the names of the traffic systems of the referrer tables into `ch_traffic_systems`, where
 * the api reads the titles of report rows (`yandex` → «Яндекс»). Like the geo dictionary: each write
 * carries the digest of the catalogue, so a restart with the same tables writes nothing, and the
 * newer version wins for every id. Returns the number of systems written, 0 when the table was current.
 */
export async function storeSystemDictionary(clickhouse: ClickHouseClient, catalog: readonly CatalogEntry[] = referrerCatalog()): Promise<number> {
  return storeDictionary(clickhouse, {
    table: 'ch_traffic_systems',
    digest: createHash('sha256').update(JSON.stringify(catalog)).digest('hex').slice(0, 16),
    size: catalog.length,
    columns: ['traffic_type', 'id', 'name'],
    entries: () => catalog.map((s) => [s.traffic_type, s.id, s.name]),
  });
}
