import { afterEach, describe, expect, it } from 'vitest';
import { MAX_HIT_BYTES, type AcceptedHit, type HitPublisher } from '@stat/schemas';
import { HitBuffer } from './buffer.js';
import { startCollector, type RunningCollector } from './server.js';

/**
 * A bus whose acknowledgements the test releases by hand, to watch the buffer hold hits
 * while the bus is slow or refusing.
 */
class GatedBus implements HitPublisher {
  readonly received: AcceptedHit[] = [];
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

async function start(bus: HitPublisher, capacity = 100): Promise<{ url: string; buffer: HitBuffer }> {
  const buffer = new HitBuffer(bus, { capacity, maxBatch: 10, flushMs: 5, retryMs: 10 });
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  running = await startCollector({ host: '127.0.0.1', port, trustProxy: false }, buffer);
  return { url: `http://127.0.0.1:${port}`, buffer };
}

describe('collector', () => {
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

  it('answers 503 when its bounded buffer is full, instead of accepting a hit it may lose', async () => {
    const bus = new GatedBus();
    bus.hold();
    const { url, buffer } = await start(bus, 3);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await fetch(`${url}/hit`, { method: 'POST', body: JSON.stringify(hit) })).status);
    }
    expect(statuses).toEqual([204, 204, 204, 503, 503]);
    bus.release();
    await buffer.drain();
    expect(bus.received).toHaveLength(3);
  });

  it('keeps hits the bus refused and delivers them once it is back', async () => {
    const bus = new GatedBus();
    bus.refusing = true;
    const { url, buffer } = await start(bus);
    for (let i = 0; i < 4; i++) await fetch(`${url}/hit`, { method: 'POST', body: JSON.stringify(hit) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(buffer.size).toBe(4);
    expect(buffer.error).toBeInstanceOf(Error);
    bus.refusing = false;
    await buffer.drain();
    expect(bus.received).toHaveLength(4);
    expect(new Set(bus.received.map((h) => h.id)).size).toBe(4);
  });

  it('answers 404 elsewhere and reports health', async () => {
    const { url } = await start(new GatedBus());
    expect((await fetch(`${url}/other`)).status).toBe(404);
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ ok: true, buffered: 0 });
  });
});
