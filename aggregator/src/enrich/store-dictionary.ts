import type { ClickHouseClient } from '@stat/storage';

/** One version of a dictionary for a table of names that the api reads for report rows. */
export interface Dictionary {
  table: 'ch_geo' | 'ch_traffic_systems';
  /** the digest of the files or tables the entries come from */
  digest: string;
  /** how many entries this version holds */
  size: number;
  /** the columns of an entry, before `digest` and `version` */
  columns: readonly [string, ...string[]];
  /** the entries, each with a value for every column; made only when the table is not current */
  entries: () => unknown[][];
}

/**
 * Writes a dictionary into its table unless the table holds all of this digest's entries already:
 * each entry carries the digest and the time of writing as its version, so a restart with the
 * same files writes nothing, and a newer version wins for every id it holds. Returns the number
 * of entries written, 0 when the table was current.
 */
export async function storeDictionary(clickhouse: ClickHouseClient, { table, digest, size, columns, entries }: Dictionary): Promise<number> {
  const result = await clickhouse.query({
    query: `SELECT count() AS n FROM ${table} WHERE digest = {digest:String}`,
    query_params: { digest },
    format: 'JSONEachRow',
  });
  const [row] = await result.json<{ n: string | number }>();
  if (Number(row?.n ?? 0) === size) return 0;
  const version = Date.now();
  const values = entries().map((entry) => [...entry, digest, version]);
  await clickhouse.insert({ table, values, format: 'JSONCompactEachRow', columns: [...columns, 'digest', 'version'] });
  return values.length;
}
