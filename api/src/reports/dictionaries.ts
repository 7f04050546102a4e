import { Controller, Get, Inject, Injectable, Query } from '@nestjs/common';
import type { ClickHouseClient } from '@stat/storage';
import { Matches, ValidateBy } from 'class-validator';
import { ok, type Envelope } from '../common/envelope.js';
import { validated } from '../common/validated.js';
import { CLICKHOUSE } from '../tokens.js';
import { Public } from '../auth/policy.js';

/** Ids asked for at once: a report page names at most a few hundred places. */
export const MAX_GEO_IDS = 500;

/** Largest place id: the `UInt32` ids of `ch_geo`. */
const GEO_ID_MAX = 4_294_967_295;
const GEO_IDS_MESSAGE = `geo_ids must be 1 to ${MAX_GEO_IDS} comma-separated place ids, each at most ${GEO_ID_MAX}`;

export class GeoIdsQueryDto {
  @Matches(new RegExp(`^\\d{1,10}(,\\d{1,10}){0,${MAX_GEO_IDS - 1}}$`), { message: GEO_IDS_MESSAGE })
  @ValidateBy({ name: 'geoIdsInRange', validator: { validate: (value) => typeof value === 'string' && value.split(',').every((id) => Number(id) <= GEO_ID_MAX) } }, { message: GEO_IDS_MESSAGE })
  geo_ids!: string;
}

/** A place of the `ch_geo` dictionary: its Russian name, its kind and the place it lies in. */
export interface GeoPlace {
  id: number;
  name: string;
  kind: 'country' | 'area' | 'city';
  parent_id: number;
}

/** The report dictionaries in ClickHouse (`ch_geo`, written by the aggregator at its start). */
@Injectable()
export class DictionaryRepository {
  constructor(@Inject(CLICKHOUSE) private readonly clickhouse: ClickHouseClient) {}

  /** The places of the ids that the dictionary knows, in id order; unknown ids are left out. */
  async geo(ids: readonly number[]): Promise<GeoPlace[]> {
    const result = await this.clickhouse.query({
      query: `SELECT id, argMax(name, version) AS name, argMax(kind, version) AS kind, argMax(parent_id, version) AS parent_id
              FROM ch_geo WHERE id IN {ids:Array(UInt32)} GROUP BY id ORDER BY id`,
      query_params: { ids: [...new Set(ids)] },
      format: 'JSONEachRow',
    });
    const rows = await result.json<{ id: number; name: string; kind: GeoPlace['kind']; parent_id: number }>();
    return rows.map((r) => ({ id: Number(r.id), name: r.name, kind: r.kind, parent_id: Number(r.parent_id) }));
  }
}

// Place names are public reference data: no project is touched, anyone may read them.
@Controller('api/report/v1.0')
export class DictionaryController {
  constructor(@Inject(DictionaryRepository) private readonly dictionaries: DictionaryRepository) {}

  /** Names of geo_country, geo_area and geo_city ids (specification 001, §7: ch_geo). */
  @Get('ch_geo')
  @Public()
  async geo(@Query(validated(GeoIdsQueryDto)) query: GeoIdsQueryDto): Promise<Envelope<{ data: GeoPlace[] }>> {
    return ok({ data: await this.dictionaries.geo(query.geo_ids.split(',').map(Number)) });
  }
}
