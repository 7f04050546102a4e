import { describe, expect, it } from 'vitest';
import { chdbOfFile } from '../testing/chdb.js';
import { referrerCatalog } from './referrer.js';
import { storeSystemDictionary } from './system-dictionary.js';

// Needs: chDB (in-process), one data directory for the file.
const chdb = chdbOfFile('system-dictionary');

function names(ids: string[]): Promise<{ traffic_type: string; id: string; name: string }[]> {
  return chdb.rows(
    `SELECT traffic_type, id, argMax(name, version) AS name FROM ch_traffic_systems WHERE id IN {ids:Array(String)}
     GROUP BY traffic_type, id ORDER BY id`,
    { ids },
  );
}

describe('the ch_traffic_systems dictionary in ClickHouse', () => {
  it('holds every system of the referrer tables with its Russian name, written once', async () => {
    const catalog = referrerCatalog();
    expect(await storeSystemDictionary(chdb.client)).toBe(catalog.length);
    // A restart with the same tables writes nothing.
    expect(await storeSystemDictionary(chdb.client)).toBe(0);
    expect(await names(['telegram', 'vk', 'yandex', 'yandex_direct'])).toEqual([
      { traffic_type: 'messenger', id: 'telegram', name: 'Telegram' },
      { traffic_type: 'social', id: 'vk', name: 'ВКонтакте' },
      { traffic_type: 'search', id: 'yandex', name: 'Яндекс' },
      { traffic_type: 'ad', id: 'yandex_direct', name: 'Яндекс Директ' },
    ]);
  });

  it('takes an operator’s changed tables at the next start: a renamed and an added system', async () => {
    const changed = referrerCatalog().map((s) => (s.id === 'vk' ? { ...s, name: 'VK' } : s));
    changed.push({ traffic_type: 'exchange', id: 'newnet', name: 'Новая сеть' });
    expect(await storeSystemDictionary(chdb.client, changed)).toBe(changed.length);
    expect(await names(['newnet', 'vk'])).toEqual([
      { traffic_type: 'exchange', id: 'newnet', name: 'Новая сеть' },
      { traffic_type: 'social', id: 'vk', name: 'VK' },
    ]);
  });
});
