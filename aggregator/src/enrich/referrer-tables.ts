import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Traffic types that come from a classification table in `aggregator/data/referrers/`. */
const TABLE_TRAFFIC_TYPES = ['search', 'social', 'messenger', 'recommend', 'aggrnews', 'exchange', 'ad', 'qr'] as const;
export type TableTrafficType = (typeof TABLE_TRAFFIC_TYPES)[number];

/** A condition on a page-address parameter (name compared lower-case); no values = any value. */
export interface Marker {
  param: string;
  /** lower-case values, or null for "present with any value" */
  values: ReadonlySet<string> | null;
}

export interface SystemDef {
  type: TableTrafficType;
  id: string;
  name: string;
  /** parameters of the referrer's query that carry a search phrase, in order */
  query: readonly string[];
  /** parameters of the page address that name this system by themselves (click ids) */
  markers: readonly Marker[];
  /** utm_source or _openstat service values that name this system, lower-case */
  sources: ReadonlySet<string>;
}

/** A host pattern of a system: `key` is the pattern's host part as written ('vk.com', '*.vk.com', 'google.*', 'android-app:pkg'). */
export interface HostRule {
  system: SystemDef;
  /** '' or a path prefix without a trailing slash ('/news') */
  path: string;
}

interface MarkerClass {
  type: TableTrafficType;
  markers: readonly Marker[];
  systems: readonly SystemDef[];
}

export interface ReferrerTables {
  /** rules by host key; within a key, the longest path first */
  hosts: ReadonlyMap<string, readonly HostRule[]>;
  /** the classes decided by page-address markers, in the order they are tried (ad, then qr, then any other) */
  markerClasses: readonly MarkerClass[];
  systems: readonly SystemDef[];
}

const HOST_PATTERN = /^(?:\*\.)?(?:[a-z0-9-]+\.)*[a-z0-9-]+(?:\.\*)?$/;
const ANDROID_APP = 'android-app://';

function fail(file: string, message: string): never {
  throw new Error(`referrer table ${file}: ${message}`);
}

function strings(file: string, where: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) fail(file, `${where} must be an array of strings`);
  return value as string[];
}

function only(file: string, where: string, value: object, keys: readonly string[]): void {
  for (const key of Object.keys(value)) if (!keys.includes(key)) fail(file, `${where}: unknown field "${key}"`);
}

function markers(file: string, where: string, value: unknown): Marker[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(file, `${where}.markers must be an array`);
  return value.map((m: unknown, i) => {
    if (typeof m !== 'object' || m === null) fail(file, `${where}.markers[${i}] must be an object`);
    only(file, `${where}.markers[${i}]`, m, ['param', 'values']);
    const { param, values } = m as { param?: unknown; values?: unknown };
    if (typeof param !== 'string' || param === '') fail(file, `${where}.markers[${i}].param must be a non-empty string`);
    return {
      param: param.toLowerCase(),
      values: values === undefined ? null : new Set(strings(file, `${where}.markers[${i}].values`, values).map((v) => v.toLowerCase())),
    };
  });
}

/** Splits a host pattern into its index key and path; throws on a malformed one. */
function hostKey(file: string, pattern: string): { key: string; path: string } {
  const p = pattern.trim().toLowerCase();
  if (p.startsWith(ANDROID_APP)) {
    const app = p.slice(ANDROID_APP.length).replace(/\/+$/, '');
    if (!/^[a-z0-9_.]+$/.test(app)) fail(file, `bad app id in "${pattern}"`);
    return { key: `android-app:${app}`, path: '' };
  }
  const slash = p.indexOf('/');
  let host = slash === -1 ? p : p.slice(0, slash);
  const path = slash === -1 ? '' : p.slice(slash).replace(/\/+$/, '');
  if (host.startsWith('www.')) host = host.slice(4);
  if (!HOST_PATTERN.test(host)) fail(file, `bad host pattern "${pattern}"`);
  return { key: host, path };
}

/**
 * Reads every `*.json` in `dir` (one file per traffic type) and indexes it. Any mistake in a file
 * throws, naming the file: a broken table is a deployment error, not something to run with.
 */
export function loadReferrerTables(dir: string): ReferrerTables {
  const hosts = new Map<string, HostRule[]>();
  const classes: MarkerClass[] = [];
  const systems: SystemDef[] = [];
  const seenTypes = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch (error) {
      fail(file, `not JSON: ${String(error)}`);
    }
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) fail(file, 'must be an object');
    only(file, 'top level', doc, ['$comment', 'traffic_type', 'markers', 'systems']);
    const { traffic_type: type, systems: list } = doc as { traffic_type?: unknown; systems?: unknown };
    if (!TABLE_TRAFFIC_TYPES.includes(type as TableTrafficType)) fail(file, `traffic_type must be one of ${TABLE_TRAFFIC_TYPES.join(', ')}`);
    const trafficType = type as TableTrafficType;
    if (seenTypes.has(trafficType)) fail(file, `a second file for traffic_type ${trafficType}`);
    seenTypes.add(trafficType);
    if (!Array.isArray(list)) fail(file, 'systems must be an array');
    const classSystems: SystemDef[] = [];
    const ids = new Set<string>();
    list.forEach((entry: unknown, i) => {
      const where = `systems[${i}]`;
      if (typeof entry !== 'object' || entry === null) fail(file, `${where} must be an object`);
      only(file, where, entry, ['id', 'name', 'hosts', 'query', 'markers', 'sources']);
      const e = entry as Record<string, unknown>;
      if (typeof e.id !== 'string' || !/^[a-z0-9_]+$/.test(e.id)) fail(file, `${where}.id must match [a-z0-9_]+`);
      if (ids.has(e.id)) fail(file, `${where}: id ${e.id} appears twice`);
      ids.add(e.id);
      if (typeof e.name !== 'string' || e.name === '') fail(file, `${where}.name must be a non-empty string`);
      const system: SystemDef = {
        type: trafficType,
        id: e.id,
        name: e.name,
        query: strings(file, `${where}.query`, e.query),
        markers: markers(file, where, e.markers),
        sources: new Set(strings(file, `${where}.sources`, e.sources).map((s) => s.toLowerCase())),
      };
      for (const pattern of strings(file, `${where}.hosts`, e.hosts)) {
        const { key, path } = hostKey(file, pattern);
        const rules = hosts.get(key) ?? [];
        const clash = rules.find((r) => r.path === path);
        if (clash !== undefined) fail(file, `"${pattern}" of ${system.id} is already ${clash.system.type}/${clash.system.id}`);
        rules.push({ system, path });
        rules.sort((a, b) => b.path.length - a.path.length);
        hosts.set(key, rules);
      }
      classSystems.push(system);
    });
    systems.push(...classSystems);
    const classMarkers = markers(file, 'top level', (doc as { markers?: unknown }).markers);
    if (classMarkers.length > 0 || classSystems.some((s) => s.markers.length > 0)) {
      classes.push({ type: trafficType, markers: classMarkers, systems: classSystems });
    }
  }
  // Advertising is decided first (a paid click stays paid whatever the referrer), then QR.
  const order = (t: TableTrafficType): number => (t === 'ad' ? 0 : t === 'qr' ? 1 : 2);
  classes.sort((a, b) => order(a.type) - order(b.type));
  return { hosts, markerClasses: classes, systems };
}
