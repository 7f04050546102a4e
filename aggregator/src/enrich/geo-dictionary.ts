import type { ClickHouseClient } from '@stat/storage';
import { sharedGeoLocator, type GeoLocator } from './geo.js';

/**
 * Writes the geo dictionary (every place id the geo database can give, with its Russian name)
 * into ClickHouse's `ch_geo`, where the api reads the names of report rows. Each write carries
 * the digest of the files it came from, so a restart with the same files writes nothing, and
 * a newer version (the time of writing) wins for every id it holds. Returns the number of
 * places written, 0 when the table was current.
 */
export async function storeGeoDictionary(clickhouse: ClickHouseClient, locator: GeoLocator = sharedGeoLocator()): Promise<number> {
  const { digest, entries } = locator.dictionary();
  const result = await clickhouse.query({
    query: 'SELECT count() AS n FROM ch_geo WHERE digest = {digest:String}',
    query_params: { digest },
    format: 'JSONEachRow',
  });
  const [row] = await result.json<{ n: string | number }>();
  if (Number(row?.n ?? 0) === entries.size) return 0;
  const version = Date.now();
  const values = [...entries].map(([id, e]) => [id, e.name_ru, e.kind, e.parent_id, digest, version]);
  await clickhouse.insert({
    table: 'ch_geo',
    values,
    format: 'JSONCompactEachRow',
    columns: ['id', 'name', 'kind', 'parent_id', 'digest', 'version'],
  });
  return values.length;
}
