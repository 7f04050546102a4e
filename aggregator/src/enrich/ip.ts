import { isIPv4, isIPv6 } from 'node:net';

/** A block of addresses: its first bytes and the length of its prefix in bits. */
interface Block {
  bytes: readonly number[];
  bits: number;
}

/** '10.0.0.0/8' → the block, by the bytes of its address. */
function block(cidr: string, bytesOf: (address: string) => number[]): Block {
  const [address = '', bits = ''] = cidr.split('/');
  return { bytes: bytesOf(address), bits: Number(bits) };
}

/** Whether the address (its bytes) lies in the block. */
function inBlock(bytes: readonly number[], { bytes: base, bits }: Block): boolean {
  for (let i = 0; i * 8 < bits; i++) {
    const mask = bits - i * 8 >= 8 ? 0xff : (0xff << (8 - (bits - i * 8))) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((base[i] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Bytes(text: string): number[] {
  return text.split('.').map(Number);
}

function ipv4Number(text: string): number {
  let n = 0;
  for (const part of ipv4Bytes(text)) n = n * 256 + part;
  return n;
}

/** The 16 bytes of a valid IPv6 address (as `isIPv6` accepts it, without a zone). */
function ipv6Bytes(text: string): number[] {
  let hex = text;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    // An embedded IPv4 tail (`::ffff:1.2.3.4`) is two more 16-bit groups.
    const n = ipv4Number(tail);
    hex = `${text.slice(0, lastColon + 1)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const groups = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const [left = '', right] = hex.split('::');
  const l = groups(left);
  const r = right === undefined ? [] : groups(right);
  const words = right === undefined ? l : [...l, ...new Array<number>(8 - l.length - r.length).fill(0), ...r];
  const bytes: number[] = [];
  for (const w of words) bytes.push(w >> 8, w & 0xff);
  return bytes;
}

/** Blocks by kind, from their CIDR notation. */
function blocks(bytesOf: (address: string) => number[], byKind: Readonly<Record<string, readonly string[]>>): readonly Block[] {
  return Object.values(byKind).flatMap((cidrs) => cidrs.map((cidr) => block(cidr, bytesOf)));
}

/** IPv4 blocks that never locate. */
const IPV4_NOT_PUBLIC = blocks(ipv4Bytes, {
  'this network': ['0.0.0.0/8'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'],
  'shared (CGNAT)': ['100.64.0.0/10'],
  loopback: ['127.0.0.0/8'],
  'link-local': ['169.254.0.0/16'],
  'IETF protocol assignments': ['192.0.0.0/24'],
  documentation: ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'],
  benchmarking: ['198.18.0.0/15'],
  multicast: ['224.0.0.0/4'],
  'reserved, with 255.255.255.255': ['240.0.0.0/4'],
});

/** IPv6 blocks that never locate. */
const IPV6_NOT_PUBLIC = blocks(ipv6Bytes, {
  unspecified: ['::/128'],
  loopback: ['::1/128'],
  'unique local': ['fc00::/7'],
  'link-local': ['fe80::/10'],
  multicast: ['ff00::/8'],
  documentation: ['2001:db8::/32'],
  discard: ['100::/64'],
});

function isPublicIpv4(text: string): boolean {
  const bytes = ipv4Bytes(text);
  return !IPV4_NOT_PUBLIC.some((b) => inBlock(bytes, b));
}

function isPublicIpv6(bytes: readonly number[]): boolean {
  return !IPV6_NOT_PUBLIC.some((b) => inBlock(bytes, b));
}

/**
 * The address to look up for a client address as the collector stamps it, or null when it is not
 * a valid public address. Accepts IPv4, IPv6 in any spelling (uWebSockets.js writes the full
 * form `0000:…:ffff:4d58:3758` for IPv4 clients), IPv4-mapped IPv6 (answered as the IPv4 address),
 * brackets, a zone and an IPv4 port. Loopback, private, link-local, CGNAT, documentation,
 * multicast and reserved blocks give null: they say nothing about where a person is.
 */
export function publicAddress(raw: string): string | null {
  let text = raw.trim();
  if (text.startsWith('[')) text = text.slice(1, text.indexOf(']') === -1 ? undefined : text.indexOf(']'));
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  if (isIPv4(text)) return isPublicIpv4(text) ? text : null;
  if (!isIPv6(text)) return null;
  const bytes = ipv6Bytes(text.toLowerCase());
  if (bytes.length !== 16) return null;
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) {
    const v4 = bytes.slice(12).join('.');
    return isPublicIpv4(v4) ? v4 : null;
  }
  return isPublicIpv6(bytes) ? text.toLowerCase() : null;
}
