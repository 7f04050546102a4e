import { describe, expect, it } from 'vitest';
import { chdbOfFile } from '../testing/chdb.js';
import { sharedGeoLocator } from './geo.js';
import { storeGeoDictionary } from './geo-dictionary.js';

// Needs: chDB (in-process), one data directory for the file.
const chdb = chdbOfFile('geo-dictionary');

describe('the ch_geo dictionary in ClickHouse', () => {
  it('holds every place of the shipped dictionary with its Russian name, written once', async () => {
    const size = sharedGeoLocator().dictionary().entries.size;
    expect(size).toBeGreaterThan(80_000);
    expect(await storeGeoDictionary(chdb.client)).toBe(size);
    // A restart with the same files writes nothing.
    expect(await storeGeoDictionary(chdb.client)).toBe(0);
    const places = await chdb.rows(
      `SELECT id, argMax(name, version) AS name, argMax(kind, version) AS kind, argMax(parent_id, version) AS parent_id
       FROM ch_geo WHERE id IN (2017370, 524894, 524901, 625144) GROUP BY id ORDER BY id`,
    );
    expect(places).toEqual([
      { id: 524894, name: 'Москва', kind: 'area', parent_id: 2017370 },
      { id: 524901, name: 'Москва', kind: 'city', parent_id: 524894 },
      { id: 625144, name: 'Минск', kind: 'city', parent_id: 625143 },
      { id: 2017370, name: 'Россия', kind: 'country', parent_id: 0 },
    ]);
  });
});
