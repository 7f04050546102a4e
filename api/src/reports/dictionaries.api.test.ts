import { describe, expect, inject, it } from 'vitest';

// Needs: the embedded service of the global setup (its api serves the dictionaries).
const apiUrl = inject('apiUrl');

async function get(path: string): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${apiUrl}/top100/api/report/v1.0/${path}`);
  return { status: response.status, json: await response.json() };
}

const SEGMENT_IDS_MESSAGE = 'segment_ids must be 1 to 500 comma-separated segment ids, each at most 4294967295';
const refused = (message: string) => ({ status: 400, json: { responseStatus: 400, errors: { message } } });

describe('the ch_segments dictionary', () => {
  it('names no segments: the service collects none', async () => {
    expect(await get('ch_segments?segment_ids=1,2,4294967295')).toEqual({ status: 200, json: { responseStatus: 200, result: { data: [] } } });
  });

  it.each([
    ['no segment_ids', 'ch_segments'],
    ['an empty list', 'ch_segments?segment_ids='],
    ['a name', 'ch_segments?segment_ids=sport'],
    ['an empty id', 'ch_segments?segment_ids=1,,2'],
    ['a negative id', 'ch_segments?segment_ids=-1'],
    ['an id over UInt32', 'ch_segments?segment_ids=4294967296'],
    ['501 ids', `ch_segments?segment_ids=${Array.from({ length: 501 }, (_, i) => i + 1).join(',')}`],
  ])('refuses %s with 400 and the ids rule', async (_case, path) => {
    expect(await get(path)).toEqual(refused(SEGMENT_IDS_MESSAGE));
  });

  it('refuses an unknown parameter with 400', async () => {
    expect(await get('ch_segments?segment_ids=1&x=2')).toEqual(refused('property x should not exist'));
  });

  it('keeps the rule of ch_geo, which it shares, word for word', async () => {
    expect(await get('ch_geo?geo_ids=moscow')).toEqual(refused('geo_ids must be 1 to 500 comma-separated place ids, each at most 4294967295'));
  });
});
