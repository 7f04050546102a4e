import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouse, migrateClickHouse, type ClickHouseClient } from '@stat/storage';
import { referrerCatalog } from './referrer.js';
import { storeSystemDictionary } from './system-dictionary.js';

// Needs: chDB (in-process), one data directory for the file.
let clickhouse: ClickHouseClient;
beforeAll(async () => {
  clickhouse = createClickHouse({ kind: 'chdb', path: mkdtempSync(join(tmpdir(), 'stat-system-dictionary-')) });
  await migrateClickHouse(clickhouse);
});
afterAll(async () => {
  await clickhouse.close();
});

async function names(ids: string[]): Promise<{ traffic_type: string; id: string; name: string }[]> {
  const result = await clickhouse.query({
    query: `SELECT traffic_type, id, argMax(name, version) AS name FROM ch_traffic_systems WHERE id IN {ids:Array(String)}
            GROUP BY traffic_type, id ORDER BY id`,
    query_params: { ids },
    format: 'JSONEachRow',
  });
  return result.json();
}

describe('the ch_traffic_systems dictionary in ClickHouse', () => {
  it('holds every system of the referrer tables with its Russian name, written once', async () => {
    const catalog = referrerCatalog();
    expect(await storeSystemDictionary(clickhouse)).toBe(catalog.length);
    // A restart with the same tables writes nothing.
    expect(await storeSystemDictionary(clickhouse)).toBe(0);
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
    expect(await storeSystemDictionary(clickhouse, changed)).toBe(changed.length);
    expect(await names(['newnet', 'vk'])).toEqual([
      { traffic_type: 'exchange', id: 'newnet', name: 'Новая сеть' },
      { traffic_type: 'social', id: 'vk', name: 'VK' },
    ]);
  });
});
