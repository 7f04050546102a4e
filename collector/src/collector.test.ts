import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HIT_LIMITS, MAX_HIT_BYTES, PROJECT_ID_MAX, type AcceptedHit, type HitPublisher } from '@stat/schemas';
import { readSamples } from '@stat/telemetry';
import { HitBuffer } from './buffer.js';
import { startCollector, type RunningCollector } from './server.js';

/**
 * A bus whose acknowledgements the test releases by hand, to watch the collector hold its
 * answers while the bus is slow or refusing.
 */
class GatedBus implements HitPublisher {
  readonly received: AcceptedHit[] = [];
  /** the size of each group handed over */
  readonly groups: number[] = [];
  refusing = false;
  private gate: Promise<void> = Promise.resolve();
  private open: () => void = () => {};

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }
  release(): void {
    this.open();
  }
  async publish(hits: readonly AcceptedHit[]): Promise<void> {
    this.groups.push(hits.length);
    await this.gate;
    if (this.refusing) throw new Error('bus down');
    this.received.push(...hits);
  }
  async close(): Promise<void> {}
}

const hit = { p: 7, u: 'https://site.ru/page', v: 'visitor-0001', ti: 'Страница' };
let running: RunningCollector | null = null;
afterEach(() => {
  running?.close();
  running = null;
});

/** Posts the test's hit, with the fields given, as a beacon; resolves with the answer's status. */
const sendHit = (url: string, fields: Record<string, unknown> = {}): Promise<number> =>
  fetch(`${url}/hit`, { method: 'POST', body: JSON.stringify({ ...hit, ...fields }) }).then((r) => r.status);

/** Resolves once the check holds (polled; the answers here come from other requests' timing). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function start(bus: HitPublisher, capacity = 100, group: { maxBatch: number; flushMs: number } = { maxBatch: 10, flushMs: 5 }): Promise<{ url: string; buffer: HitBuffer }> {
  const buffer = new HitBuffer(bus, { capacity, ...group });
  // Port 0: the system picks a free one (a random choice could meet another test's port).
  running = await startCollector({ host: '127.0.0.1', port: 0, trustProxy: false }, buffer);
  return { url: `http://127.0.0.1:${running.port}`, buffer };
}

describe('collector', () => {
  it('counts on /metrics the hits it accepted and refused, by reason, and is not ready while its buffer is full', async () => {
    const bus = new GatedBus();
    bus.hold();
    const { url, buffer } = await start(bus, 5);
    const beacon = (body: string | Uint8Array<ArrayBuffer>) => fetch(`${url}/hit`, { method: 'POST', body }).then((r) => r.status);
    // Five valid hits wait for their group's write: the buffer holds 5.
    const waiting = [
      ...[1, 2, 3, 4].map((i) => beacon(JSON.stringify({ ...hit, v: `visitor-000${i}` }))),
      fetch(`${url}/hit?p=7&u=${encodeURIComponent(hit.u)}&v=${hit.v}`).then((r) => r.status),
    ];
    await until(() => buffer.size === 5);
    const refusals = [
      await beacon(JSON.stringify(hit)), // the sixth valid hit
      await beacon(JSON.stringify({ ...hit, p: -1 })),
      await beacon('{"p":'),
      await beacon(new Uint8Array([0x7b, 0xff, 0x7d])),
      await beacon('x'.repeat(MAX_HIT_BYTES + 1)),
    ];
    expect(refusals).toEqual([503, 400, 400, 400, 413]);

    const scrape = await fetch(`${url}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = readSamples(await scrape.text());
    // Not acknowledged yet: their write has not returned.
    expect(samples.get('stat_hits_accepted_total')).toBe(0);
    expect(
      Object.fromEntries(['invalid', 'not_utf8', 'too_large', 'ambiguous_length', 'busy', 'not_durable'].map((r) => [r, samples.get(`stat_hits_refused_total{reason="${r}"}`)])),
    ).toEqual({ invalid: 2, not_utf8: 1, too_large: 1, ambiguous_length: 0, busy: 1, not_durable: 0 });
    expect(samples.get('stat_collector_buffer_hits')).toBe(5);
    expect(samples.has('process_resident_memory_bytes')).toBe(true);
    expect(samples.has('nodejs_eventloop_lag_seconds')).toBe(true);

    expect(await (await fetch(`${url}/live`)).json()).toEqual({ status: 'ok' });
    const full = await fetch(`${url}/ready`);
    expect(full.status).toBe(503);
    expect(await full.json()).toEqual({ ready: false, reasons: ['collector buffer holds 5 of 5 hits'] });
    bus.release();
    expect(await Promise.all(waiting)).toEqual([204, 204, 204, 204, 200]);
    expect(readSamples(await (await fetch(`${url}/metrics`)).text()).get('stat_hits_accepted_total')).toBe(5);
    await buffer.drain();
    const ready = await fetch(`${url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, reasons: [] });
  });

  it('answers a hit only once the bus holds it durably, not before', async () => {
    const bus = new GatedBus();
    bus.hold();
    const { url } = await start(bus);
    let status: number | null = null;
    const answered = fetch(`${url}/hit`, { method: 'POST', body: JSON.stringify(hit) }).then((r) => (status = r.status));
    await until(() => bus.groups.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(status).toBe(null);
    bus.release();
    expect(await answered).toBe(204);
    expect(bus.received).toHaveLength(1);
  });

  it('writes an idle collector’s hit at once, and gathers the hits that arrive within one flush window, while it is busy, into one group', async () => {
    const bus = new GatedBus();
    bus.hold();
    const { url, buffer } = await start(bus, 100, { maxBatch: 100, flushMs: 300 });
    const send = (i: number) => sendHit(url, { v: `visitor-${1000 + i}` });
    const first = send(0);
    await until(() => bus.groups.length === 1);
    const rest = Array.from({ length: 19 }, (_, i) => send(i + 1));
    await until(() => buffer.size === 20);
    expect(bus.groups).toEqual([1]);
    bus.release();
    expect(await Promise.all([first, ...rest])).toEqual(new Array(20).fill(204));
    expect(bus.groups).toEqual([1, 19]);
  });

  it('writes a full group at once, and a group that gathered for a flush window beside a write still running', async () => {
    const bus = new GatedBus();
    bus.hold();
    const { url, buffer } = await start(bus, 100, { maxBatch: 5, flushMs: 20 });
    const send = (i: number) => sendHit(url, { v: `visitor-${2000 + i}` });
    const first = send(0);
    await until(() => bus.groups.length === 1);
    const full = Array.from({ length: 5 }, (_, i) => send(i + 1));
    await until(() => bus.groups.length === 2);
    expect(bus.groups).toEqual([1, 5]);
    const late = send(6);
    await until(() => bus.groups.length === 3);
    expect(buffer.size).toBe(7);
    bus.release();
    expect(await Promise.all([first, ...full, late])).toEqual(new Array(7).fill(204));
    expect(bus.groups).toEqual([1, 5, 1]);
  });

  it('costs nothing when a client goes away while its group is written', async () => {
    const bus = new GatedBus();
    bus.hold();
    const { url, buffer } = await start(bus);
    const gone = new AbortController();
    const abandoned = fetch(`${url}/hit`, { method: 'POST', body: JSON.stringify(hit), signal: gone.signal }).catch((error: unknown) => error);
    const kept = sendHit(url, { v: 'visitor-0002' });
    await until(() => buffer.size === 2);
    gone.abort();
    expect(await abandoned).toBeInstanceOf(Error);
    bus.release();
    expect(await kept).toBe(204);
    await buffer.drain();
    expect(bus.received).toHaveLength(2);
    expect((await fetch(`${url}/health`)).status).toBe(200);
  });

  it('answers a beacon 204 and hands the hit to the bus with server time and user agent', async () => {
    const bus = new GatedBus();
    const { url, buffer } = await start(bus);
    const before = Date.now();
    const response = await fetch(`${url}/hit`, { method: 'POST', body: JSON.stringify(hit), headers: { 'user-agent': 'TestAgent/1' } });
    expect(response.status).toBe(204);
    await buffer.drain();
    expect(bus.received).toHaveLength(1);
    const accepted = bus.received[0]!;
    expect(accepted.hit).toEqual({ ...hit, t: 'pageview', r: '', sw: 0, sh: 0 });
    expect(accepted.ua).toBe('TestAgent/1');
    expect(accepted.ip).toMatch(/127\.0\.0\.1|::1|0000:0000/);
    expect(accepted.at).toBeGreaterThanOrEqual(before);
    expect(accepted.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a pixel with a 1×1 GIF', async () => {
    const bus = new GatedBus();
    const { url, buffer } = await start(bus);
    const response = await fetch(`${url}/hit?p=7&u=${encodeURIComponent(hit.u)}&v=${hit.v}&sw=390&sh=844`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/gif');
    expect(Buffer.from(await response.arrayBuffer()).subarray(0, 6).toString()).toBe('GIF89a');
    await buffer.drain();
    expect(bus.received[0]!.hit.sw).toBe(390);
  });

  it('answers 400 with the reason for a malformed hit and passes nothing on', async () => {
    const bus = new GatedBus();
    const { url, buffer } = await start(bus);
    const bad = await fetch(`${url}/hit`, { method: 'POST', body: JSON.stringify({ ...hit, p: -1 }) });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^p: /);
    const notJson = await fetch(`${url}/hit`, { method: 'POST', body: '{"p":' });
    expect(notJson.status).toBe(400);
    expect(await notJson.text()).toBe('body: not valid JSON');
    await buffer.drain();
    expect(bus.received).toEqual([]);
  });

  it('answers 413 for a body over the limit', async () => {
    const { url } = await start(new GatedBus());
    const response = await fetch(`${url}/hit`, { method: 'POST', body: 'x'.repeat(MAX_HIT_BYTES + 1) });
    expect(response.status).toBe(413);
  });

  it('answers 503 when its bounded buffer is full, instead of taking a hit it may lose', async () => {
    const bus = new GatedBus();
    bus.hold();
    const { url, buffer } = await start(bus, 3);
    const first = [1, 2, 3].map(() => sendHit(url));
    await until(() => buffer.size === 3);
    const refused: number[] = [];
    for (let i = 0; i < 2; i++) refused.push(await sendHit(url));
    expect(refused).toEqual([503, 503]);
    bus.release();
    expect(await Promise.all(first)).toEqual([204, 204, 204]);
    expect(bus.received).toHaveLength(3);
  });

  it('answers 503, never 204, to every hit of a group the bus could not make durable, and holds none of them', async () => {
    const bus = new GatedBus();
    bus.refusing = true;
    const { url, buffer } = await start(bus);
    const statuses = await Promise.all([1, 2, 3, 4].map(() => fetch(`${url}/hit`, { method: 'POST', body: JSON.stringify(hit) })));
    expect(statuses.map((r) => r.status)).toEqual([503, 503, 503, 503]);
    expect(statuses[0]!.headers.get('retry-after')).toBe('5');
    expect(buffer.size).toBe(0);
    expect(buffer.error).toBeInstanceOf(Error);
    bus.refusing = false;
    expect(await sendHit(url)).toBe(204);
    expect(bus.received).toHaveLength(1);
    const samples = readSamples(await (await fetch(`${url}/metrics`)).text());
    expect(samples.get('stat_hits_refused_total{reason="not_durable"}')).toBe(4);
    expect(samples.get('stat_hits_accepted_total')).toBe(1);
  });

  it('answers 404 elsewhere and reports health', async () => {
    const { url } = await start(new GatedBus());
    expect((await fetch(`${url}/other`)).status).toBe(404);
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok', reasons: [], unstored: 0, oldest_unstored_ms: null });
  });

  it('reports itself degraded, with the reason, while the bus refuses hits', async () => {
    const bus = new GatedBus();
    bus.refusing = true;
    const { url } = await start(bus);
    expect(await sendHit(url)).toBe(503);
    const health = (await (await fetch(`${url}/health`)).json()) as Record<string, unknown>;
    expect(health).toEqual({ status: 'degraded', reasons: ['the bus refuses hits: Error: bus down'], unstored: 0, oldest_unstored_ms: null });
  });
});

describe('collector: no hit it acknowledges can fail to be stored', () => {
  const post = (url: string, body: string | Uint8Array<ArrayBuffer>): Promise<Response> => fetch(`${url}/hit`, { method: 'POST', body });

  it('refuses project id 2147483648, the first that Postgres’ integer cannot hold (it once stopped all storage)', async () => {
    const bus = new GatedBus();
    const { url, buffer } = await start(bus);
    const response = await post(url, '{"p":2147483648,"u":"https://a.ru/","v":"abcdefgh"}');
    expect([response.status, await response.text()]).toEqual([400, 'p: must be at most 2147483647']);
    await buffer.drain();
    expect(bus.received).toEqual([]);
  });

  it.each([
    ['a title', '{"p":7,"u":"https://a.ru/","v":"abcdefgh","ti":"x\\ud800y"}', 'ti: must be well-formed Unicode (a lone surrogate)'],
    ['the url', '{"p":7,"u":"https://a.ru/\\udc00","v":"abcdefgh"}', 'u: must be well-formed Unicode (a lone surrogate)'],
    ['a parameter', '{"p":7,"t":"event","en":"e","ep":{"k":"\\ud83d"},"u":"https://a.ru/","v":"abcdefgh"}', 'ep.k: must be well-formed Unicode (a lone surrogate)'],
    ['the referrer (NUL)', '{"p":7,"u":"https://a.ru/","r":"a\\u0000b","v":"abcdefgh"}', 'r: must not contain NUL characters'],
  ])('refuses a lone surrogate or NUL in %s (ClickHouse or Postgres would refuse it)', async (_, body, reason) => {
    const bus = new GatedBus();
    const { url, buffer } = await start(bus);
    const response = await post(url, body);
    expect([response.status, await response.text()]).toEqual([400, reason]);
    await buffer.drain();
    expect(bus.received).toEqual([]);
  });

  it.each([
    ['an array', '[7]'],
    ['a hex string', '"0x7"'],
    ['true', 'true'],
    ['a fraction', '7.5'],
    ['an exponent string', '"7e0"'],
  ])('refuses a project id that is %s', async (_, p) => {
    const { url } = await start(new GatedBus());
    const response = await post(url, `{"p":${p},"u":"https://a.ru/","v":"abcdefgh"}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/^p: /);
  });

  it('refuses screens wider than the UInt16 column instead of wrapping them', async () => {
    const { url } = await start(new GatedBus());
    const response = await post(url, JSON.stringify({ ...hit, sw: 65_536 }));
    expect([response.status, await response.text()]).toEqual([400, 'sw: must be 0 to 65535']);
    expect((await post(url, JSON.stringify({ ...hit, sw: 65_535, sh: 65_535 }))).status).toBe(204);
  });

  it('refuses a body that is not UTF-8 instead of storing replacement characters', async () => {
    const { url } = await start(new GatedBus());
    const body = Buffer.concat([Buffer.from('{"p":7,"u":"https://a.ru/","v":"abcdefgh","ti":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const response = await post(url, body);
    expect([response.status, await response.text()]).toEqual([400, 'body: not valid UTF-8']);
  });

  it('refuses a pixel whose query is not percent-encoded UTF-8', async () => {
    const { url } = await start(new GatedBus());
    const response = await fetch(`${url}/hit?p=7&u=https%3A%2F%2Fa.ru%2F&v=abcdefgh&ti=%ED%A0%80`);
    expect([response.status, await response.text()]).toEqual([400, 'query: not valid percent-encoded UTF-8']);
  });

  it('refuses a pixel whose query carries a raw byte that is not ASCII (\\xff)', async () => {
    const bus = new GatedBus();
    const { url } = await start(bus);
    const request = Buffer.concat([Buffer.from('GET /hit?p=7&u=https%3A%2F%2Fa.ru%2F&v=abcdefgh&ti='), Buffer.from([0xff]), Buffer.from(' HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')]);
    const answer = await rawRequest(url, request);
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toContain('query: not valid percent-encoded UTF-8');
    expect(bus.received).toEqual([]);
  });

  it('answers a refusal as plain text that no browser sniffs as markup, though it quotes the input', async () => {
    const { url } = await start(new GatedBus());
    const response = await post(url, '{"p":7,"u":"<script>alert(1)</script>","v":"abcdefgh"}');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a request with two different Content-Length headers', async () => {
    const { url } = await start(new GatedBus());
    const body = JSON.stringify(hit);
    const answer = await rawRequest(
      url,
      `POST /hit HTTP/1.1\r\nHost: a\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Length: ${Buffer.byteLength(body) + 3}\r\n\r\n${body}abc`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toContain('Content-Length: given twice with different values');
  });
});

describe('collector: the HTTP/1.0 door for proxies (nginx’s default proxy_http_version)', () => {
  async function startWithCompat(bus: HitPublisher): Promise<{ url: string; compatUrl: string; buffer: HitBuffer }> {
    const buffer = new HitBuffer(bus, { capacity: 100, maxBatch: 10, flushMs: 5 });
    running = await startCollector({ host: '127.0.0.1', port: 0, trustProxy: false, compatPort: 0 }, buffer);
    return { url: `http://127.0.0.1:${running.port}`, compatUrl: `http://127.0.0.1:${running.compatPort ?? 0}`, buffer };
  }

  it('refuses HTTP/1.0 on the main port (uWebSockets.js) and takes it on the compat port', async () => {
    const bus = new GatedBus();
    const { url, compatUrl, buffer } = await startWithCompat(bus);
    const body = JSON.stringify(hit);
    const request = `POST /hit HTTP/1.0\r\nContent-Type: text/plain\r\nUser-Agent: nginx-proxied/1\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    expect(await rawRequest(url, request)).toMatch(/^HTTP\/1\.1 505 /);
    expect(await rawRequest(compatUrl, request)).toMatch(/^HTTP\/1\.[01] 204 No Content\r\n/);
    await buffer.drain();
    expect(bus.received.map((accepted) => [accepted.hit, accepted.ua])).toEqual([[{ ...hit, t: 'pageview', r: '', sw: 0, sh: 0 }, 'nginx-proxied/1']]);
  });

  it('answers /live, /ready and /metrics on the compat port too, counting its hits with the main port’s', async () => {
    const bus = new GatedBus();
    const { url, compatUrl, buffer } = await startWithCompat(bus);
    const request = (u: string) => fetch(`${u}/hit`, { method: 'POST', body: JSON.stringify(hit) }).then((r) => r.status);
    expect([await request(url), await request(compatUrl)]).toEqual([204, 204]);
    await buffer.drain();
    expect(await (await fetch(`${compatUrl}/live`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${compatUrl}/ready`);
    expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: { ready: true, reasons: [] } });
    const metrics = await fetch(`${compatUrl}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(readSamples(await metrics.text()).get('stat_hits_accepted_total')).toBe(2);
  });

  it('answers the compat port exactly as the main one: pixel, 400 with the reason, 413, health', async () => {
    const bus = new GatedBus();
    const { compatUrl, buffer } = await startWithCompat(bus);
    const pixel = await rawRequest(compatUrl, `GET /hit?p=7&u=${encodeURIComponent(hit.u)}&v=${hit.v} HTTP/1.0\r\n\r\n`);
    expect(pixel).toMatch(/^HTTP\/1\.[01] 200 OK\r\n/);
    expect(pixel).toContain('image/gif');
    const bad = await fetch(`${compatUrl}/hit`, { method: 'POST', body: '{"p":2147483648,"u":"https://a.ru/","v":"abcdefgh"}' });
    expect([bad.status, await bad.text()]).toEqual([400, 'p: must be at most 2147483647']);
    expect((await fetch(`${compatUrl}/hit`, { method: 'POST', body: 'x'.repeat(MAX_HIT_BYTES + 1) })).status).toBe(413);
    expect(await (await fetch(`${compatUrl}/health`)).json()).toMatchObject({ status: 'ok' });
    await buffer.drain();
    expect(bus.received).toHaveLength(1);
  });
});

/** Sends bytes as they are over a socket and returns what came back before the server closed or 1 s passed. */
function rawRequest(url: string, request: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let answer = '';
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const timer = setTimeout(() => socket.destroy(), 1_000);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
  });
}

describe('collector: the hit types beyond page views', () => {
  const page = { p: 7, u: 'https://site.ru/article', v: 'visitor-0001' };
  const defaults = { r: '', ti: '', sw: 0, sh: 0 };
  const beacons = [
    { ...page, t: 'event', ec: 'ec', en: 'purchase', ep: { sku: 'A-1', price: 990 }, uid: 'user-42' },
    { ...page, t: 'click', bl: 'header-menu' },
    { ...page, t: 'show', bl: 'header-menu' },
    { ...page, t: 'outbound', l: 'https://partner.ru/offer' },
    { ...page, t: 'engagement', d: 12_500 },
    { ...page, t: 'read', sp: 64, rp: 100 },
  ];

  it('answers each new type 204 and hands it to the bus as sent', async () => {
    const bus = new GatedBus();
    const { url, buffer } = await start(bus);
    for (const beacon of beacons) {
      const response = await fetch(`${url}/hit`, { method: 'POST', body: JSON.stringify(beacon), headers: { 'content-type': 'text/plain;charset=UTF-8' } });
      expect(response.status).toBe(204);
    }
    await buffer.drain();
    expect(bus.received.map((accepted) => accepted.hit)).toEqual(beacons.map((beacon) => ({ ...beacon, ...defaults })));
  });

  it('takes a custom event from a pixel, its parameters as JSON in one query key', async () => {
    const bus = new GatedBus();
    const { url, buffer } = await start(bus);
    const query = new URLSearchParams({ ...page, p: '7', t: 'event', en: 'signup', ep: JSON.stringify({ plan: 'pro', seats: 3 }) });
    const response = await fetch(`${url}/hit?${query}`);
    expect(response.status).toBe(200);
    await buffer.drain();
    expect(bus.received[0]!.hit).toEqual({ ...page, ...defaults, t: 'event', ec: 'cv', en: 'signup', ep: { plan: 'pro', seats: 3 } });
  });

  it('takes engagement and reading numbers from a pixel', async () => {
    const bus = new GatedBus();
    const { url, buffer } = await start(bus);
    await fetch(`${url}/hit?${new URLSearchParams({ ...page, p: '7', t: 'engagement', d: '3000' })}`);
    await fetch(`${url}/hit?${new URLSearchParams({ ...page, p: '7', t: 'read', sp: '40', rp: '55' })}`);
    await buffer.drain();
    expect(bus.received.map((accepted) => accepted.hit)).toEqual([
      { ...page, ...defaults, t: 'engagement', d: 3000 },
      { ...page, ...defaults, t: 'read', sp: 40, rp: 55 },
    ]);
  });

  it('answers 400 with the reason when a field is missing for its type or belongs to another', async () => {
    const bus = new GatedBus();
    const { url, buffer } = await start(bus);
    const missing = await fetch(`${url}/hit`, { method: 'POST', body: JSON.stringify({ ...page, t: 'click' }) });
    expect([missing.status, await missing.text()]).toEqual([400, 'bl: required on click hits']);
    const foreign = await fetch(`${url}/hit`, { method: 'POST', body: JSON.stringify({ ...page, t: 'engagement', d: 5, en: 'x' }) });
    expect([foreign.status, await foreign.text()]).toEqual([400, 'en: not allowed on engagement hits']);
    await buffer.drain();
    expect(bus.received).toEqual([]);
  });

  it('fits a maximal hit of every new type under the body cap', async () => {
    const bus = new GatedBus();
    const { url, buffer } = await start(bus);
    const common = { p: PROJECT_ID_MAX, u: 'https://site.ru/' + 'a'.repeat(HIT_LIMITS.url - 16), v: 'v'.repeat(64), uid: 'u'.repeat(HIT_LIMITS.userId) };
    const ep = Object.fromEntries(
      Array.from({ length: HIT_LIMITS.params }, (_, i) => [`${i}`.padStart(HIT_LIMITS.paramKey, 'k'), 'x'.repeat(HIT_LIMITS.paramValue)]),
    );
    const maximal = [
      { ...common, t: 'event', ec: 'media', en: 'e'.repeat(HIT_LIMITS.eventName), ep },
      { ...common, t: 'click', bl: 'b'.repeat(HIT_LIMITS.blockName) },
      { ...common, t: 'outbound', l: common.u },
      { ...common, t: 'engagement', d: HIT_LIMITS.engagedMs },
      { ...common, t: 'read', sp: 100, rp: 100 },
    ];
    for (const hit of maximal) {
      const body = JSON.stringify(hit);
      expect(Buffer.byteLength(body)).toBeLessThan(MAX_HIT_BYTES);
      expect((await fetch(`${url}/hit`, { method: 'POST', body })).status).toBe(204);
    }
    await buffer.drain();
    expect(bus.received).toHaveLength(maximal.length);
  });

  it('refuses a pixel whose query is over the HTTP header limit (431): large hits travel as beacons', async () => {
    // uWebSockets.js caps the request line and headers at 4 KB; the counter's pixel is its last
    // fallback, after sendBeacon and fetch, which carry the body up to MAX_HIT_BYTES.
    const { url } = await start(new GatedBus());
    const ep = JSON.stringify(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'x'.repeat(200)])));
    const response = await fetch(`${url}/hit?${new URLSearchParams({ ...page, p: '7', t: 'event', en: 'big', ep })}`);
    expect(response.status).toBe(431);
  });
});
