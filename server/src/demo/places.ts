import type { DeviceKind } from './devices.js';
import { PLACES, type Place } from './networks.js';
import { Weighted, type Random } from './random.js';

/** An address block: the first address and the number of addresses, as 32-bit numbers. */
interface Block {
  base: number;
  size: number;
  provider: string;
}

/** A place of the audience with its blocks parsed. */
export interface Region {
  place: Place;
  fixed: readonly Block[];
  mobile: readonly Block[];
}

function parseBlock(spec: string): Block {
  const match = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+) (.+)$/.exec(spec);
  if (!match) throw new Error(`networks.ts: bad block ${spec}`);
  const [, a, b, c, d, bits, provider] = match;
  const base = ((Number(a) << 24) >>> 0) + (Number(b) << 16) + (Number(c) << 8) + Number(d);
  return { base, size: 2 ** (32 - Number(bits)), provider: provider as string };
}

/** Every place with its blocks: VPN exits count as fixed lines (a visitor keeps one exit). */
export const REGIONS: readonly Region[] = PLACES.map((place) => ({
  place,
  fixed: [...(place.fixed ?? []), ...(place.vpn ?? [])].map(parseBlock),
  mobile: (place.mobile ?? []).map(parseBlock),
}));

/** Places by their share of visitors. */
const REGION_PICK = new Weighted(REGIONS.map((r) => [r, r.place.weight] as const));

/** Share of phone visits made over the mobile network rather than home or office Wi-Fi. */
const MOBILE_NETWORK_SHARE = 0.55;

/** A host address inside a block, avoiding its first and last address. */
function hostIn(block: Block, random: Random): number {
  return block.size <= 2 ? block.base : block.base + 1 + random.int(block.size - 2);
}

export function ipText(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/**
 * Where a new visitor connects from: a place by its share, then a fixed line (the address is
 * kept from visit to visit) or, for phones, often the mobile network (a new address each visit).
 */
export function connection(random: Random, kind: DeviceKind): { region: Region; mobile: boolean; address: number } {
  const region = REGION_PICK.pick(random);
  const mobile =
    region.mobile.length > 0 && (region.fixed.length === 0 || (kind === 'mobile' && random.chance(MOBILE_NETWORK_SHARE)));
  const blocks = mobile ? region.mobile : region.fixed;
  return { region, mobile, address: hostIn(random.of(blocks), random) };
}

/** The address of a visit: a visitor on a mobile network gets a new one from the same place. */
export function visitAddress(random: Random, region: Region, mobile: boolean, home: number): number {
  if (!mobile) return home;
  return hostIn(random.of(region.mobile), random);
}
