import { isIPv4, isIPv6 } from 'node:net';

/** IPv4 blocks that never locate: this network, private, shared (CGNAT), loopback, link-local, documentation, benchmarking, multicast, reserved. */
const IPV4_NOT_PUBLIC: ReadonlyArray<readonly [number, number]> = [
  [0x00000000, 8], // 0.0.0.0/8
  [0x0a000000, 8], // 10.0.0.0/8
  [0x64400000, 10], // 100.64.0.0/10
  [0x7f000000, 8], // 127.0.0.0/8
  [0xa9fe0000, 16], // 169.254.0.0/16
  [0xac100000, 12], // 172.16.0.0/12
  [0xc0000000, 24], // 192.0.0.0/24
  [0xc0000200, 24], // 192.0.2.0/24
  [0xc0a80000, 16], // 192.168.0.0/16
  [0xc6120000, 15], // 198.18.0.0/15
  [0xc6336400, 24], // 198.51.100.0/24
  [0xcb007100, 24], // 203.0.113.0/24
  [0xe0000000, 4], // 224.0.0.0/4
  [0xf0000000, 4], // 240.0.0.0/4, with 255.255.255.255
];

function ipv4Number(text: string): number {
  let n = 0;
  for (const part of text.split('.')) n = n * 256 + Number(part);
  return n;
}

function isPublicIpv4(text: string): boolean {
  const n = ipv4Number(text);
  return !IPV4_NOT_PUBLIC.some(([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)));
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

function isPublicIpv6(bytes: readonly number[]): boolean {
  const b0 = bytes[0] ?? 0;
  const b1 = bytes[1] ?? 0;
  if (bytes.every((b) => b === 0)) return false; // ::
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return false; // ::1
  if ((b0 & 0xfe) === 0xfc) return false; // fc00::/7 unique local
  if (b0 === 0xfe && (b1 & 0xc0) === 0x80) return false; // fe80::/10 link-local
  if (b0 === 0xff) return false; // multicast
  if (b0 === 0x20 && b1 === 0x01 && bytes[2] === 0x0d && bytes[3] === 0xb8) return false; // 2001:db8::/32 documentation
  if (b0 === 0x01 && b1 === 0x00 && bytes.slice(2, 8).every((b) => b === 0)) return false; // 100::/64 discard
  return true;
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
