import type { ClickHouseClient } from '@stat/storage';
import { sharedGeoLocator, type GeoLocator } from './geo.js';
import { storeDictionary } from './store-dictionary.js';

/**
 * Writes the geo dictionary (every place id the geo database can give, with its Russian name)
 * into ClickHouse's `ch_geo`, where the api reads the names of report rows. Each write carries
 * the digest of the files it came from, so a restart with the same files writes nothing, and
 * a newer version (the time of writing) wins for every id it holds. Returns the number of
 * places written, 0 when the table was current.
 */
export async function storeGeoDictionary(clickhouse: ClickHouseClient, locator: GeoLocator = sharedGeoLocator()): Promise<number> {
  const { digest, entries } = locator.dictionary();
  return storeDictionary(clickhouse, {
    table: 'ch_geo',
    digest,
    size: entries.size,
    columns: ['id', 'name', 'kind', 'parent_id'],
    entries: () => [...entries].map(([id, e]) => [id, e.name_ru, e.kind, e.parent_id]),
  });
}
