import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Names a host to its addresses; the system resolver by default, a table in tests. */
export type Resolver = (host: string) => Promise<string[]>;

/** Zones reserved never to resolve on the internet (RFC 2606, 6761): not looked up at all. */
const RESERVED_ZONES = /(^|\.)(test|example|invalid|localhost|local|internal|home\.arpa)\.?$/i;

const systemResolver: Resolver = async (host) => {
  if (RESERVED_ZONES.test(host)) throw new FetchRefused(`${host} is in a reserved zone`);
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
};

/**
 * True only for a public unicast address. Loopback, private, link-local, unique-local,
 * carrier-grade NAT, multicast, reserved and documentation addresses are refused. An IPv6
 * address that carries an IPv4 one (IPv4-compatible `::a.b.c.d`, IPv4-mapped, IPv4-translated,
 * NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) is judged by that IPv4 address, so `::127.0.0.1` and
 * `2002:7f00:1::` are loopback; Teredo and local-use NAT64 (`64:ff9b:1::/48`), whose far end
 * cannot be told from the address alone, are refused.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6.toByteArray());
  if (embedded === 'refused') return false;
  if (embedded) return ipaddr.fromByteArray(embedded).range() === 'unicast';
  return v6.range() === 'unicast';
}

/** The IPv4 address an IPv6 address carries (16 bytes in), 'refused' for the forms refused whole. */
function embeddedIPv4(b: number[]): number[] | 'refused' | null {
  const zero = (from: number, to: number): boolean => b.slice(from, to).every((x) => x === 0);
  const last4 = b.slice(12, 16);
  // ::a.b.c.d (IPv4-compatible, :: and ::1 included: 0.0.0.0 and 0.0.0.1 are not public either)
  if (zero(0, 12)) return last4;
  // ::ffff:a.b.c.d (IPv4-mapped)
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return last4;
  // ::ffff:0:a.b.c.d (IPv4-translated, RFC 6145)
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return last4;
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix, RFC 6052); 64:ff9b:1::/48 local use (RFC 8215)
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) {
    if (zero(4, 12)) return last4;
    if (b[4] === 0x00 && b[5] === 0x01) return 'refused';
  }
  // 2002:aabb:ccdd::/48 (6to4)
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6);
  // 2001::/32 (Teredo)
  if (b[0] === 0x20 && b[1] === 0x01 && zero(2, 4)) return 'refused';
  return null;
}

export class FetchRefused extends Error {}

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

export interface Fetched {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

export const PAGE_LIMITS: FetchLimits = { timeoutMs: 3000, maxBytes: 512 * 1024, maxRedirects: 3 };

/**
 * Outbound GET of a user-given address that cannot reach this machine's networks: every
 * address the host resolves to must be public, and the connection goes to the address that was
 * checked (no second lookup a rebinding DNS could answer differently). Redirects are followed
 * by the same rules; the whole fetch has one deadline and a size cap.
 */
export class PageFetcher {
  constructor(
    private readonly resolve: Resolver = systemResolver,
    private readonly allowed: (address: string) => boolean = isPublicAddress,
  ) {}

  async get(address: string, limits: FetchLimits = PAGE_LIMITS): Promise<Fetched> {
    const deadline = Date.now() + limits.timeoutMs;
    let url = new URL(address);
    for (let hop = 0; ; hop++) {
      const response = await this.once(url, deadline, limits.maxBytes);
      const location = response.location;
      if (response.status >= 300 && response.status < 400 && location) {
        if (hop >= limits.maxRedirects) throw new FetchRefused('too many redirects');
        url = new URL(location, url);
        continue;
      }
      return { url: url.toString(), status: response.status, contentType: response.contentType, body: response.body };
    }
  }

  private async once(url: URL, deadline: number, maxBytes: number): Promise<Fetched & { location: string | undefined }> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused(`protocol ${url.protocol} is not fetched`);
    if (url.username || url.password) throw new FetchRefused('addresses with credentials are not fetched');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = ipaddr.isValid(host) ? [host] : await withDeadline(this.resolve(host), deadline);
    if (addresses.length === 0 || !addresses.every((a) => this.allowed(a))) {
      throw new FetchRefused(`${host} resolves to an address that is not public`);
    }
    const pinned = addresses[0] as string;
    const family = ipaddr.parse(pinned).kind() === 'ipv6' ? 6 : 4;
    const pinnedLookup = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      if (options?.all) callback(null, [{ address: pinned, family }]);
      else callback(null, pinned, family);
    }) as unknown as LookupFunction;
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;

    return new Promise((resolve, reject) => {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        reject(new FetchRefused('timed out'));
        return;
      }
      const req = request(url, {
        method: 'GET',
        lookup: pinnedLookup,
        headers: { 'user-agent': 'StatMetadataFetcher/1.0', accept: 'text/html,image/*;q=0.9,*/*;q=0.5', 'accept-encoding': 'identity' },
      });
      const timer = setTimeout(() => req.destroy(new FetchRefused('timed out')), remaining);
      req.on('error', (error) => {
        clearTimeout(timer);
        reject(error instanceof FetchRefused ? error : new FetchRefused(error.message));
      });
      req.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > maxBytes) {
          req.destroy(new FetchRefused('the answer is too large'));
          return;
        }
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) req.destroy(new FetchRefused('the answer is too large'));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({
            url: url.toString(),
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks),
            location: typeof res.headers.location === 'string' ? res.headers.location : undefined,
          });
        });
        res.on('error', (error) => {
          clearTimeout(timer);
          reject(new FetchRefused(error.message));
        });
      });
      req.end();
    });
  }
}

async function withDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FetchRefused('timed out')), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work.catch((error: unknown) => Promise.reject(new FetchRefused(String(error)))), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
