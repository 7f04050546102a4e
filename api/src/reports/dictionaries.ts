import { Controller, Get, Inject, Query } from '@nestjs/common';
import type { GeoPlace } from '@stat/schemas';
import { ApiOkResponse } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { ok, type Envelope } from '../common/envelope.js';
import { validated } from '../common/validated.js';
import { DictionaryRepository } from '../engine/index.js';
import { Public } from '../auth/policy.js';
import { answer, ApiStoreNotReady, envelope } from '../openapi/answers.js';

/** Ids asked for at once: a report page names at most a few hundred places (or segments). */
const MAX_DICTIONARY_IDS = 500;

/** Largest dictionary id: the `UInt32` ids of `ch_geo`. */
const DICTIONARY_ID_MAX = 4_294_967_295;

const DICTIONARY_IDS_RE = new RegExp(`^\\d{1,10}(,\\d{1,10}){0,${MAX_DICTIONARY_IDS - 1}}$`);

/**
 * The rule of a dictionary's ids in the query string: 1 to {@link MAX_DICTIONARY_IDS}
 * comma-separated ids, each at most {@link DICTIONARY_ID_MAX}. One rule for every dictionary
 * (`ch_geo`, `ch_segments`), each naming its own field and ids in the message; one check, so a
 * bad value gets the message once.
 */
function DictionaryIds(field: string, what: string): PropertyDecorator {
  return ValidateBy(
    {
      name: 'dictionaryIds',
      validator: {
        validate: (value) => typeof value === 'string' && DICTIONARY_IDS_RE.test(value) && value.split(',').every((id) => Number(id) <= DICTIONARY_ID_MAX),
      },
    },
    { message: `${field} must be 1 to ${MAX_DICTIONARY_IDS} comma-separated ${what} ids, each at most ${DICTIONARY_ID_MAX}` },
  );
}

export class GeoIdsQueryDto {
  @DictionaryIds('geo_ids', 'place')
  geo_ids!: string;
}

export class SegmentIdsQueryDto {
  @DictionaryIds('segment_ids', 'segment')
  segment_ids!: string;
}

// Place names are public reference data: no project is touched, anyone may read them.
@Controller('api/report/v1.0')
export class DictionaryController {
  constructor(@Inject(DictionaryRepository) private readonly dictionaries: DictionaryRepository) {}

  /** Names of geo_country, geo_area and geo_city ids (specification 001, §7: ch_geo). */
  @Get('ch_geo')
  @Public()
  @ApiStoreNotReady()
  @ApiOkResponse({ schema: envelope({ type: 'object', properties: { data: { type: 'array', items: answer('GeoPlace') } } }) })
  async geo(@Query(validated(GeoIdsQueryDto)) query: GeoIdsQueryDto): Promise<Envelope<{ data: GeoPlace[] }>> {
    return ok({ data: await this.dictionaries.geo(query.geo_ids.split(',').map(Number)) });
  }

  /**
   * Names of audience segments (specification 001, §7: ch_segments): always none. Segments are
   * audiences bought from a panel or an ad network's profiles (the interests and demographics of
   * `DIMENSIONS` in schemas/src/dimensions.ts, stored as `missing`); a self-hosted counter has
   * neither, so no event names a segment and there is nothing to name. The ids are still
   * validated as `ch_geo`'s are, so a malformed call fails the same way here as there.
   */
  @Get('ch_segments')
  @Public()
  @ApiOkResponse({ schema: envelope({ type: 'object', properties: { data: { type: 'array', maxItems: 0 } } }) })
  segments(@Query(validated(SegmentIdsQueryDto)) _query: SegmentIdsQueryDto): Envelope<{ data: never[] }> {
    return ok({ data: [] });
  }
}
