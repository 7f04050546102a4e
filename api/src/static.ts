import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WEB_APP_CSP } from './http/security.js';

export interface StaticConfig {
  /** The built web app (web/dist): index.html and assets/. */
  webDir: string;
  /** The built counter snippet (counter-snippet/dist) with its manifest.json. */
  snippetDir: string;
  /** The api's own prefix, never answered with the web app. */
  apiPrefix: string;
}

interface SnippetManifest {
  /** file name of the current build, its version in the name */
  file: string;
  /** every build (counter, counter-full, …) by name, each with its versioned file */
  builds?: Record<string, { file: string }>;
}

const YEAR = 365 * 24 * 3600;

/** What the app's pages answer while web/dist has no index.html: a clear 503, never a blank page. */
export const WEB_NOT_BUILT_TEXT =
  'Веб-интерфейс ещё не собран: выполните npm run build и обновите страницу.\nThe web interface is not built yet: run npm run build, then reload the page.\n';

/**
 * Serves the web app under /stat (every route of the app answers its index.html, the router
 * decides) and the counter snippet: its versioned file is cached for a year, and
 * /counter/counter.js names the current version for an hour. The web app may be built after the
 * start, or again: its pages answer 503 until index.html exists and are served as soon as it does.
 */
export async function registerStatic(fastify: FastifyInstance, config: StaticConfig): Promise<void> {
  const manifest = JSON.parse(await readBuilt(join(config.snippetDir, 'manifest.json'), 'utf8')) as SnippetManifest;
  const snippet = await readBuilt(join(config.snippetDir, manifest.file));
  const web = new WebBuild(config.webDir);
  await web.now();

  // Every file under assets/ has its content hash in its name: cached for a year, never asked
  // again. The build wrote a .br and a .gz beside each text file (web/scripts/compress.mjs):
  // sent as they are by Accept-Encoding, with Content-Encoding and Vary: Accept-Encoding.
  await fastify.register(fastifyStatic, {
    root: join(config.webDir, 'assets'),
    prefix: '/stat/assets/',
    immutable: true,
    maxAge: YEAR * 1000,
    preCompressed: true,
    // One route for each file the build wrote, listed once at start: a request is sent without
    // reading the directory again (the wildcard route checks each name's spelling against a
    // readdir of assets/ on every request). A name the build did not write answers 404 below,
    // never the app's index.html.
    wildcard: false,
  });
  // A file of a build made after the start: sent when the build's listing has it (re-listed when
  // index.html changed), else 404.
  fastify.get('/stat/assets/*', async (req, reply) => {
    const name = (req.params as { '*': string })['*'];
    if ((await web.now())?.assets.has(name) === true) return reply.sendFile(name);
    return reply.callNotFound();
  });

  const sendSnippet = (cacheSeconds: number, immutable: boolean) => ({
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': `public, max-age=${cacheSeconds}${immutable ? ', immutable' : ''}`,
      'access-control-allow-origin': '*',
    },
  });
  fastify.get(`/counter/${manifest.file}`, async (_req, reply) => reply.headers(sendSnippet(YEAR, true).headers).send(snippet));
  fastify.get('/counter/counter.js', async (_req, reply) => reply.headers(sendSnippet(3600, false).headers).send(snippet));
  // The other builds (counter-full.js with block analytics and reading depth) the same way.
  for (const [name, build] of Object.entries(manifest.builds ?? {})) {
    if (build.file === manifest.file || !/^[\w.-]+\.js$/.test(build.file) || !/^[\w-]+$/.test(name)) continue;
    const body = await readBuilt(join(config.snippetDir, build.file));
    fastify.get(`/counter/${build.file}`, async (_req, reply) => reply.headers(sendSnippet(YEAR, true).headers).send(body));
    fastify.get(`/counter/${name}.js`, async (_req, reply) => reply.headers(sendSnippet(3600, false).headers).send(body));
  }

  // index.html names the current assets: asked again on every load (no-cache revalidates).
  const sendIndex = async (req: FastifyRequest, reply: FastifyReply) => {
    const index = (await web.now())?.index;
    if (index === undefined) return reply.code(503).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(WEB_NOT_BUILT_TEXT);
    const encoding = pickEncoding(req.headers['accept-encoding'], index);
    void reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', WEB_APP_CSP)
      .header('cache-control', 'no-cache')
      .header('vary', 'Accept-Encoding');
    if (encoding === 'identity') return reply.send(index.identity);
    return reply.header('content-encoding', encoding).send(index[encoding]);
  };
  for (const path of ['/', '/stat', '/stat/*', '/create', '/login', '/projects', '/projects/*']) {
    fastify.get(path, sendIndex);
  }
}

/** index.html as built, and its compressed copies when the build wrote them. */
interface BuiltIndex {
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/** The web app as last read: its index.html, that file's mtime, and the names under assets/ beside it. */
interface BuiltWeb {
  index: BuiltIndex;
  mtimeMs: number;
  assets: ReadonlySet<string>;
}

/**
 * The web build as it is on disk now. Each call costs one stat of index.html; the page and the
 * list of assets are read again only when index.html appeared or its mtime changed (a new build).
 */
class WebBuild {
  private current: BuiltWeb | null = null;
  private reading: Promise<BuiltWeb> | null = null;
  private readonly indexPath: string;

  constructor(private readonly webDir: string) {
    this.indexPath = join(webDir, 'index.html');
  }

  /** The build, or null while there is no index.html. */
  async now(): Promise<BuiltWeb | null> {
    const mtimeMs = await mtimeOf(this.indexPath);
    if (mtimeMs === null) return null;
    if (this.current?.mtimeMs === mtimeMs) return this.current;
    // Requests that find the same new build wait for one reading of it.
    this.reading ??= this.read(mtimeMs).finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private async read(mtimeMs: number): Promise<BuiltWeb> {
    const path = this.indexPath;
    // A compressed copy counts when it was written after the page (web/scripts/compress.mjs), never one left by an older build.
    const copy = async (file: string): Promise<Buffer | undefined> => ((await mtimeOf(file)) ?? -1) >= mtimeMs ? readFile(file).catch(() => undefined) : undefined;
    const [identity, br, gzip, assets] = await Promise.all([
      readFile(path),
      copy(`${path}.br`),
      copy(`${path}.gz`),
      readdir(join(this.webDir, 'assets'), { recursive: true }).catch(() => [] as string[]),
    ]);
    this.current = { index: { identity, ...(br ? { br } : {}), ...(gzip ? { gzip } : {}) }, mtimeMs, assets: new Set(assets) };
    return this.current;
  }
}

/** A file's mtime, or null when it does not exist. */
async function mtimeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The encoding to send: brotli, else gzip, when the client accepts it (q above 0) and the copy
 * exists; else the file as it is.
 */
export function pickEncoding(header: string | string[] | undefined, has: { br?: unknown; gzip?: unknown }): 'br' | 'gzip' | 'identity' {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (has.br && ok('br')) return 'br';
  if (has.gzip && ok('gzip')) return 'gzip';
  return 'identity';
}

/** Reads a build output; a missing one is a start-up error that says how to make it. */
async function readBuilt(path: string): Promise<Buffer>;
async function readBuilt(path: string, encoding: 'utf8'): Promise<string>;
async function readBuilt(path: string, encoding?: 'utf8'): Promise<Buffer | string> {
  try {
    return encoding ? await readFile(path, encoding) : await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`${path} is missing: run \`npm run build\` first`);
    throw error;
  }
}
