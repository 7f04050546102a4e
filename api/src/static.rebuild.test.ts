import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerStatic, WEB_NOT_BUILT_TEXT } from './static.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

// The static routes alone, on a web directory this file builds by hand: empty at the start,
// then built, then built again, all while the server runs.
let webDir: string;
let fastify: FastifyInstance;

beforeAll(async () => {
  webDir = mkdtempSync(join(tmpdir(), 'stat-web-build-'));
  fastify = Fastify();
  await registerStatic(fastify, { webDir, snippetDir: join(repoRoot, 'counter-snippet/dist'), apiPrefix: 'top100' });
  await fastify.ready();
});
afterAll(async () => {
  await fastify?.close();
  rmSync(webDir, { recursive: true, force: true });
});

/** Writes a build: index.html naming its script, and the script under assets/; index.html's mtime is `at`. */
function build(script: string, body: string, at: Date): void {
  mkdirSync(join(webDir, 'assets'), { recursive: true });
  writeFileSync(join(webDir, 'assets', script), body);
  writeFileSync(join(webDir, 'index.html'), `<!doctype html><script type="module" src="/stat/assets/${script}"></script>`);
  utimesSync(join(webDir, 'index.html'), at, at);
}

describe('the web app built after the service started', () => {
  it('answers its pages with a clear 503 while there is no build, then serves each new build without a restart', async () => {
    const before = await fastify.inject({ method: 'GET', url: '/stat/projects' });
    expect(before.statusCode).toBe(503);
    expect(before.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(before.body).toBe(WEB_NOT_BUILT_TEXT);
    expect(before.body).toContain('Веб-интерфейс ещё не собран: выполните npm run build');
    expect(before.body).toContain('The web interface is not built yet');
    expect((await fastify.inject({ method: 'GET', url: '/stat/assets/index-aaaa.js' })).statusCode).toBe(404);

    build('index-aaaa.js', 'console.log("first")', new Date('2026-11-01T10:00:00Z'));
    const first = await fastify.inject({ method: 'GET', url: '/stat/projects' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(first.body).toContain('/stat/assets/index-aaaa.js');
    const script = await fastify.inject({ method: 'GET', url: '/stat/assets/index-aaaa.js' });
    expect([script.statusCode, script.body, script.headers['cache-control']]).toEqual([200, 'console.log("first")', 'public, max-age=31536000, immutable']);

    // Built again (a new mtime): the page names the new script, which is served; an unknown name is 404.
    build('index-bbbb.js', 'console.log("second")', new Date('2026-11-02T10:00:00Z'));
    expect((await fastify.inject({ method: 'GET', url: '/stat' })).body).toContain('/stat/assets/index-bbbb.js');
    expect((await fastify.inject({ method: 'GET', url: '/stat/assets/index-bbbb.js' })).body).toBe('console.log("second")');
    expect((await fastify.inject({ method: 'GET', url: '/stat/assets/index-cccc.js' })).statusCode).toBe(404);

    // The build removed (a rebuild in progress): the clear text again, not a page naming lost files.
    rmSync(join(webDir, 'index.html'));
    expect((await fastify.inject({ method: 'GET', url: '/' })).statusCode).toBe(503);
  });
});
