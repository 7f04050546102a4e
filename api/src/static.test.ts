import { request } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { useTestApi, type TestApi } from './testing/harness.js';
import { pickEncoding } from './static.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

// Needs: the build (web/dist, precompressed by web/scripts/compress.mjs).
let api: TestApi;
let mainScript: string;

useTestApi({ file: 'static.test.ts' }, async (started) => {
  api = started;
  // The app's entry script, as index.html names it.
  const html = await readFile(join(repoRoot, 'web/dist/index.html'), 'utf8');
  const src = /<script[^>]+src="(\/stat\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!src) throw new Error('index.html names no script');
  mainScript = src;
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET with exactly these headers, the body as sent (fetch would decode it). */
function get(path: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${api.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const built = (path: string) => readFile(join(repoRoot, 'web/dist/assets', path.replace('/stat/assets/', '')));

describe('compressed static files', () => {
  it('sends the built JS as brotli or gzip by Accept-Encoding, decoding to the very file, cached for a year', async () => {
    const file = await built(mainScript);
    const br = await get(mainScript, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.body.length).toBeLessThan(file.length / 2);
    expect(brotliDecompressSync(br.body).equals(file)).toBe(true);

    const gz = await get(mainScript, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['vary']).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.body).equals(file)).toBe(true);

    const plain = await get(mainScript, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toMatch(/accept-encoding/i);
    expect(plain.body.equals(file)).toBe(true);
  });

  it('sends index.html compressed too, never cached without asking', async () => {
    const file = await readFile(join(repoRoot, 'web/dist/index.html'));
    const br = await get('/stat/projects', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.body).equals(file)).toBe(true);
    const gz = await get('/stat/projects', { 'accept-encoding': 'gzip;q=1, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(file)).toBe(true);
    const plain = await get('/stat/projects', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(file)).toBe(true);
  });

  it('answers 404 for an asset the build did not write (never the app page), and HEAD for one it did', async () => {
    const missing = await get('/stat/assets/index-00000000.js', { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(String(missing.headers['content-type'])).not.toMatch(/html/);
    expect((await get('/stat/assets/', {})).status).toBe(404);
    const file = await built(mainScript);
    const head = await new Promise<number>((resolve, reject) => {
      const req = request(`${api.url}${mainScript}`, { method: 'HEAD' }, (res) => {
        res.resume();
        resolve(Number(res.headers['content-length']));
      });
      req.on('error', reject);
      req.end();
    });
    expect(head).toBe(file.length);
  });

  it('picks brotli, then gzip, by what the client accepts and the build has', () => {
    const both = { br: 1, gzip: 1 };
    expect(pickEncoding('gzip, deflate, br', both)).toBe('br');
    expect(pickEncoding('br;q=0, gzip', both)).toBe('gzip');
    expect(pickEncoding('*', both)).toBe('br');
    expect(pickEncoding('identity', both)).toBe('identity');
    expect(pickEncoding(undefined, both)).toBe('identity');
    expect(pickEncoding('br', { gzip: 1 })).toBe('identity');
  });
});
