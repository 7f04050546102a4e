import { afterEach, describe, expect, it, vi } from 'vitest';
import { moscowDayStart, moscowDate, type AcceptedHit, type HitPublisher } from '@stat/schemas';
import { HitBuffer, startCollector, type RunningCollector } from '@stat/collector';
import { LIVE_WINDOW_MS, localCollector, startDemoLive, type DemoLive } from './live.js';
import { DEMO_PROJECT_ID, demoTraffic } from './seed.js';
import { generateTraffic } from './traffic.js';

// Needs: the real collector (uWebSockets.js) on a free port; the bus behind it records.
class RecordingBus implements HitPublisher {
  readonly received: AcceptedHit[] = [];
  async publish(hits: readonly AcceptedHit[]): Promise<void> {
    this.received.push(...hits);
  }
  async close(): Promise<void> {}
}

let collector: RunningCollector | null = null;
let live: DemoLive | null = null;
afterEach(() => {
  vi.useRealTimers();
  live?.stop();
  collector?.close();
  collector = null;
  live = null;
});

describe('the demo’s live visits', () => {
  it('sends the demo’s traffic of each half hour to the collector when its time comes, as beacons of its visitors’ browsers', async () => {
    const bus = new RecordingBus();
    const buffer = new HitBuffer(bus, { capacity: 100_000, maxBatch: 500, flushMs: 5 });
    collector = await startCollector({ host: '127.0.0.1', port: 0, trustProxy: true }, buffer);
    const port = collector.port;
    // 10:00 Moscow time today: the generator's daily rhythm is in its morning rise.
    const start = moscowDayStart(moscowDate(Date.now())) + 10 * 3_600_000;
    const expected: AcceptedHit[] = [];
    const traffic = generateTraffic(demoTraffic(start, start + LIVE_WINDOW_MS, 5_000));
    let slice = traffic.next();
    for (; !slice.done; slice = traffic.next()) expected.push(...slice.value);
    const stats = slice.value;

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: start });
    live = startDemoLive({ collectorUrl: `http://127.0.0.1:${port}`, visitsPerDay: 5_000 }, () => {});
    // Nothing is sent before its time.
    expect(bus.received).toHaveLength(0);
    // The first half hour passes: every hit of it is sent.
    vi.advanceTimersByTime(LIVE_WINDOW_MS - 1);
    vi.useRealTimers();
    for (let i = 0; i < 100 && live.accepted() < expected.length; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    await buffer.drain();

    expect(live.accepted()).toBe(expected.length);
    expect(bus.received.map((h) => [h.hit.p, h.hit.t, h.hit.u, h.ua, h.ip])).toEqual(expected.map((h) => [DEMO_PROJECT_ID, h.hit.t, h.hit.u, h.ua, h.ip]));
    // A site of 5 000 visits an ordinary day has a few visits a minute in its morning (more on a news day).
    expect(stats.visits / 30).toBeGreaterThanOrEqual(1);
    expect(stats.visits / 30).toBeLessThanOrEqual(20);
  });

  it('reaches the collector on loopback when it listens on every address', () => {
    expect([localCollector('0.0.0.0', 8081), localCollector('::', 8081), localCollector('127.0.0.1', 8081), localCollector('::1', 8081)]).toEqual([
      'http://127.0.0.1:8081',
      'http://127.0.0.1:8081',
      'http://127.0.0.1:8081',
      'http://[::1]:8081',
    ]);
  });
});
