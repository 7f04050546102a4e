import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchRefused, isPublicAddress, PageFetcher, type Resolver } from './safe-fetch.js';
import { iconPng, iconUrl, pageTitle, decodePage } from './page.js';

// Needs: nothing; a small server on 127.0.0.1 plays the site. Names resolve through a table, so
// no test asks a real DNS server or leaves this machine.
let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/big') return void res.end(Buffer.alloc(2 * 1024 * 1024, 'a'));
    if (req.url === '/hang') return; // never answers
    if (req.url === '/to-v6-loopback') return void res.writeHead(302, { location: `http://[::1]:${port}/` }).end();
    if (req.url === '/to-home') return void res.writeHead(301, { location: '/' }).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<html><head><title> Мой &laquo;сайт&raquo;\n &amp; блог </title><link rel="icon" href="/i.png"></head></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const table: Record<string, string[]> = {
  'intranet.test': ['127.0.0.1'],
  'mixed.test': ['93.184.216.34', '10.0.0.7'],
  'metadata.test': ['169.254.169.254'],
  'site.test': ['127.0.0.1'],
};
const resolver: Resolver = async (host) => {
  const found = table[host];
  if (!found) throw new Error(`ENOTFOUND ${host}`);
  return found;
};

describe('isPublicAddress', () => {
  it.each([
    '93.184.216.34', '8.8.8.8', '2606:2800:220:1:248:1893:25c8:1946',
    // IPv6 forms that carry a public IPv4 address are as public as it is.
    '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1', '::8.8.8.8',
  ])('%s is public', (a) => {
    expect(isPublicAddress(a)).toBe(true);
  });
  it.each([
    '127.0.0.1', '127.8.9.10', '0.0.0.0', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1',
    '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1',
    '2002:7f00:1::1', 'not an address',
    // IPv4-compatible, mapped, translated, NAT64 and 6to4 forms of private IPv4 addresses.
    '::127.0.0.1', '::7f00:1', '::a00:1', '::169.254.169.254', '::ffff:7f00:1', '::ffff:0:127.0.0.1', '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe', '2002:a00:1::', '2002:c0a8:101::1',
    // Teredo and local-use NAT64: the far end is not in the address.
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', '64:ff9b:1::808:808',
  ])('%s is not', (a) => {
    expect(isPublicAddress(a)).toBe(false);
  });
});

describe('PageFetcher with the production policy', () => {
  const fetcher = new PageFetcher(resolver);
  it.each([
    () => `http://127.0.0.1:${port}/`,
    () => `http://[::1]:${port}/`,
    () => `http://[::ffff:127.0.0.1]:${port}/`,
    () => `http://intranet.test:${port}/`,
    () => `http://mixed.test:${port}/`,
    () => 'http://metadata.test/latest/meta-data/',
    () => 'http://0.0.0.0/',
    () => 'file:///etc/passwd',
    () => `http://user:pass@site.test:${port}/`,
  ])('refuses %s', async (address) => {
    await expect(fetcher.get(address())).rejects.toBeInstanceOf(FetchRefused);
  });
});

describe('PageFetcher where the test server counts as public', () => {
  // The same server the production policy refuses above answers here: the refusal is the policy's.
  const fetcher = new PageFetcher(resolver, (a) => a === '127.0.0.1');
  it('reads the page and its title', async () => {
    const page = await fetcher.get(`http://site.test:${port}/`);
    expect(page.status).toBe(200);
    const html = decodePage(page.body, page.contentType);
    expect(pageTitle(html)).toBe('Мой «сайт» & блог');
    expect(iconUrl(html, page.url)).toBe(`http://site.test:${port}/i.png`);
  });
  it('follows a redirect, and checks the address of the next hop too', async () => {
    expect((await fetcher.get(`http://site.test:${port}/to-home`)).status).toBe(200);
    await expect(fetcher.get(`http://site.test:${port}/to-v6-loopback`)).rejects.toThrow(/not public/);
  });
  it('stops at the size cap and at the deadline', async () => {
    await expect(fetcher.get(`http://site.test:${port}/big`)).rejects.toThrow(/too large/);
    await expect(fetcher.get(`http://site.test:${port}/hang`, { timeoutMs: 300, maxBytes: 1000, maxRedirects: 0 })).rejects.toThrow(/timed out/);
  });
});

describe('page helpers', () => {
  it('decode a windows-1251 page by its meta charset', () => {
    const body = Buffer.concat([Buffer.from('<meta charset="windows-1251"><title>'), Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]), Buffer.from('</title>')]);
    expect(pageTitle(decodePage(body, 'text/html'))).toBe('Привет');
  });
  it('fall back to /favicon.ico and give an empty title when there is none', () => {
    expect(iconUrl('<p>', 'https://a.ru/x/y')).toBe('https://a.ru/favicon.ico');
    expect(pageTitle('<p>no title</p>')).toBe('');
  });
});

describe('the system resolver', () => {
  it.each(['site.test', 'a.example', 'x.invalid', 'localhost', 'db.internal', 'printer.local'])('does not look up %s', async (host) => {
    await expect(new PageFetcher().get(`http://${host}/`)).rejects.toThrow(/reserved zone/);
  });
});

describe('iconPng', () => {
  const png = (tag: number) => Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from([tag, tag, tag])]);
  function ico(images: { size: number; body: Buffer }[]): Buffer {
    const header = Buffer.alloc(6 + images.length * 16);
    header.writeUInt16LE(1, 2);
    header.writeUInt16LE(images.length, 4);
    let offset = header.length;
    images.forEach((image, i) => {
      header[6 + i * 16] = image.size % 256;
      header[6 + i * 16 + 1] = image.size % 256;
      header.writeUInt32LE(image.body.length, 6 + i * 16 + 8);
      header.writeUInt32LE(offset, 6 + i * 16 + 12);
      offset += image.body.length;
    });
    return Buffer.concat([header, ...images.map((i) => i.body)]);
  }
  it('keeps a PNG, takes the largest PNG out of an ICO, and refuses the rest', () => {
    expect(iconPng(png(1))).toEqual(png(1));
    expect(iconPng(ico([{ size: 16, body: png(1) }, { size: 32, body: png(2) }, { size: 24, body: png(3) }]))).toEqual(png(2));
    expect(iconPng(ico([{ size: 16, body: Buffer.from('BMP data, not a png') }]))).toBeNull();
    expect(iconPng(Buffer.from('GIF89a....'))).toBeNull();
    expect(iconPng(Buffer.alloc(3))).toBeNull();
  });
});
