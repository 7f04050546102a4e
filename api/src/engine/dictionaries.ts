import { Inject, Injectable } from '@nestjs/common';
import type { ClickHouseClient } from '@stat/storage';
import type { GeoPlace } from '@stat/schemas';
import { CLICKHOUSE } from '../tokens.js';

/** The report dictionaries in ClickHouse (`ch_geo`, `ch_traffic_systems`, written by the aggregator at its start). */
@Injectable()
export class DictionaryRepository {
  constructor(@Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseClient) {}

  /**
   * How long places read from the dictionary are kept. Places change only when an aggregator
   * starts with another GeoIP names table; a geography report would otherwise pay a second query,
   * one after its rows, for the same few dozen names each time (benchmarks/RESULTS.md, fifth run).
   * Ids the dictionary does not know are asked again each time: its names may not be written yet.
   */
  geoTtlMs = 60_000;
  private geoKept: { at: number; places: Map<number, GeoPlace> } | null = null;

  /** The places of the ids that the dictionary knows, in id order; unknown ids are left out. */
  async geo(ids: readonly number[]): Promise<GeoPlace[]> {
    const now = Date.now();
    if (this.geoKept === null || now - this.geoKept.at >= this.geoTtlMs) this.geoKept = { at: now, places: new Map() };
    const kept = this.geoKept.places;
    const asked = [...new Set(ids)].sort((a, b) => a - b);
    const missing = asked.filter((id) => !kept.has(id));
    if (missing.length > 0) for (const place of await this.readGeo(missing)) kept.set(place.id, place);
    return asked.flatMap((id) => kept.get(id) ?? []);
  }

  private async readGeo(ids: readonly number[]): Promise<GeoPlace[]> {
    const result = await this.clickhouse.query({
      query: `SELECT id, argMax(name, version) AS name, argMax(kind, version) AS kind, argMax(parent_id, version) AS parent_id
              FROM ch_geo WHERE id IN {ids:Array(UInt32)} GROUP BY id ORDER BY id`,
      query_params: { ids },
      format: 'JSONEachRow',
    });
    const rows = await result.json<{ id: number; name: string; kind: GeoPlace['kind']; parent_id: number }>();
    return rows.map((r) => ({ id: Number(r.id), name: r.name, kind: r.kind, parent_id: Number(r.parent_id) }));
  }

  /**
   * How long the traffic systems' names are kept before they are read again. They change when an
   * aggregator starts with other referrer tables; a report of systems would otherwise pay a third
   * query for a hundred names that never change (10 ms of a 60 ms call, benchmarks/RESULTS.md).
   */
  systemNamesTtlMs = 60_000;
  private systemNames: { at: number; names: Promise<Map<string, string>> } | null = null;

  /** The names of the traffic system ids that the dictionary knows (`ch_traffic_systems`), by id. */
  async systems(ids: readonly string[]): Promise<Map<string, string>> {
    const now = Date.now();
    if (this.systemNames === null || now - this.systemNames.at >= this.systemNamesTtlMs) {
      const names = this.allSystemNames();
      this.systemNames = { at: now, names };
      // A failed read is not kept: the next report reads again.
      names.catch(() => {
        if (this.systemNames?.names === names) this.systemNames = null;
      });
    }
    const names = await this.systemNames.names;
    return new Map(ids.flatMap((id) => (names.has(id) ? [[id, names.get(id)!] as const] : [])));
  }

  private async allSystemNames(): Promise<Map<string, string>> {
    const result = await this.clickhouse.query({
      query: 'SELECT id, argMax(name, version) AS name FROM ch_traffic_systems GROUP BY id',
      format: 'JSONEachRow',
    });
    return new Map((await result.json<{ id: string; name: string }>()).map((r) => [r.id, r.name]));
  }
}
