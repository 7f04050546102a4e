// The browser tests' harness: a recording collector, a site serving the HTML fixtures with the
// counter's tag, and a page in headless Chromium with the visitor's user agent. Each test makes
// its own, so no beacon of one test can reach another's recorder.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { inject } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { VISITOR_USER_AGENT } from '../../server/src/testing/browser.js';
import { eventually } from '../../server/src/testing/api-client.js';

const DIST = new URL('../dist/', import.meta.url);
const FIXTURES = new URL('./fixtures/', import.meta.url);

/** A hit as the recorder received it: the JSON of a beacon, or the query keys of a pixel. */
export type RecordedHit = Record<string, unknown>;

interface RecordedRequest {
  method: string;
  contentType: string;
  hit: RecordedHit;
}

export interface Recorder {
  /** base URL: point data-collector here */
  url: string;
  /** the same server under another host name (localhost), for outbound links: /landing */
  otherHost: string;
  /** hits in the order they arrived */
  hits: RecordedHit[];
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A stand-in collector: records every hit sent to /hit (POST body as JSON, GET query as its
 * keys) and answers 204, as the collector does; /landing is a page to leave to.
 */
async function startRecorder(): Promise<Recorder> {
  const hits: RecordedHit[] = [];
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/landing') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Партнёр</title><p>landing</p>');
      return;
    }
    if (path !== '/hit') {
      res.writeHead(404).end();
      return;
    }
    void readBody(req).then((body) => {
      const hit: RecordedHit =
        req.method === 'GET' ? Object.fromEntries(new URL(req.url ?? '', 'http://x').searchParams) : (JSON.parse(body) as RecordedHit);
      hits.push(hit);
      requests.push({ method: req.method ?? '', contentType: req.headers['content-type'] ?? '', hit });
      res.writeHead(204, { 'access-control-allow-origin': '*' }).end();
    });
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    otherHost: `http://localhost:${port}`,
    hits,
    requests,
    close: () => close(server),
  };
}

/** The builds of the counter, as the manifest names them. */
type Build = 'counter' | 'counter-full';

export interface OpenOptions {
  /** which build; `counter` comes from the running service, as sites load it */
  build?: Build;
  /** data- attributes of the tag beyond project and collector, e.g. { 'data-track-hashes': 'on' } */
  attributes?: Record<string, string>;
  /** where hits go; the test's recorder unless given */
  collector?: string;
  /** project id; 1 unless given */
  project?: number;
  /** a path after the fixture's, e.g. '#start' or '?q=1' */
  suffix?: string;
  /** runs before the page loads, e.g. to install a fake clock or break an API */
  before?: (page: Page) => Promise<unknown>;
}

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  recorder: Recorder;
  /** the site's base URL; the fixture is at `${site}/${fixture}` */
  site: string;
  /** page errors and console errors, in order */
  problems: string[];
  /** the visitor id the counter keeps in localStorage */
  visitor(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Opens `fixture` (a file of test/fixtures) with the counter's tag in place of its
 * `<!--counter-->`, in a fresh browser context, and waits until the counter has run.
 * `{{outbound}}` in a fixture becomes the recorder's landing page under another host.
 */
export async function openFixture(browser: Browser, fixture: string, options: OpenOptions = {}): Promise<OpenedPage> {
  const recorder = await startRecorder();
  const build = options.build ?? 'counter';
  const attributes = {
    'data-project': String(options.project ?? 1),
    'data-collector': options.collector ?? recorder.url,
    ...options.attributes,
  };
  const site = await startSite(build, attributes, `${recorder.otherHost}/landing`);
  const context = await browser.newContext({
    userAgent: VISITOR_USER_AGENT,
    viewport: { width: 1280, height: 720 },
    screen: { width: 1280, height: 720 },
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  if (options.before) await options.before(page);
  await page.goto(`${site.url}/${fixture}${options.suffix ?? ''}`);
  await page.waitForFunction('typeof window.stat === "function" && !Array.isArray(window._statq)');
  return {
    page,
    context,
    recorder,
    site: site.url,
    problems,
    visitor: async () => (await page.evaluate(() => localStorage.getItem('_stat_v'))) ?? '',
    close: async () => {
      await context.close();
      await site.close();
      await recorder.close();
    },
  };
}

/** Waits until the recorder holds `count` hits matching `match` (all hits by default); returns them. */
export async function hitsOf(recorder: Recorder, count: number, match: (hit: RecordedHit) => boolean = () => true): Promise<RecordedHit[]> {
  const found = await eventually(
    async () => recorder.hits.filter(match),
    (hits) => hits.length >= count,
    30_000,
  );
  if (found.length < count) throw new Error(`expected ${count} hits, got ${found.length}: ${JSON.stringify(recorder.hits)}`);
  return found;
}

/** Hits in a canonical order, for comparing what arrived (beacons may overtake each other). */
export function sorted(hits: RecordedHit[]): RecordedHit[] {
  const key = (hit: RecordedHit): string => JSON.stringify(Object.keys(hit).sort().map((k) => [k, hit[k]]));
  return [...hits].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Runs `stat(...command)` in the page, as the page's own code would. */
export async function stat(page: Page, ...command: unknown[]): Promise<void> {
  await page.evaluate((args) => window.stat!(...args), command);
}

/**
 * Hides or shows the page. Headless Chromium keeps every page visible (bringToFront and
 * minimizing do not change it), so this sets what the browser would report and fires the
 * same event; the counter reads document.visibilityState.
 */
export async function setVisible(page: Page, visible: boolean): Promise<void> {
  await page.evaluate((on) => {
    Object.defineProperty(document, 'visibilityState', { value: on ? 'visible' : 'hidden', configurable: true });
    Object.defineProperty(document, 'hidden', { value: !on, configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  }, visible);
}

/** The file of a build, from the manifest the build wrote. */
function buildFile(build: Build): string {
  const manifest = JSON.parse(readFileSync(new URL('manifest.json', DIST), 'utf8')) as { builds: Record<Build, { file: string }> };
  return manifest.builds[build].file;
}

interface Site {
  url: string;
  close(): Promise<void>;
}

/** Serves the fixtures with the tag, and the full build's file from dist/ (the api serves only the default build). */
async function startSite(build: Build, attributes: Record<string, string>, landing: string): Promise<Site> {
  const file = buildFile(build);
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split(/[?#]/)[0] ?? '';
    if (path === `/counter/${file}`) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(readFileSync(new URL(file, DIST)));
      return;
    }
    const name = path.slice(1);
    if (!/^[\w-]+\.html$/.test(name)) {
      res.writeHead(name === 'favicon.ico' ? 204 : 404).end();
      return;
    }
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const src = build === 'counter' ? `${inject('apiUrl')}/counter/counter.js` : `http://127.0.0.1:${port}/counter/${file}`;
    const tag = `<script async src="${src}" ${Object.entries(attributes)
      .map(([key, value]) => `${key}="${value}"`)
      .join(' ')}></script>`;
    const html = readFileSync(new URL(name, FIXTURES), 'utf8').replace('<!--counter-->', tag).replaceAll('{{outbound}}', landing);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, close: () => close(server) };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
