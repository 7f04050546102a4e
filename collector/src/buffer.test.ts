import { describe, expect, it } from 'vitest';
import type { AcceptedHit, HitPublisher } from '@stat/schemas';
import { HitBuffer } from './buffer.js';

// Needs: nothing; the publisher's writes are settled by the test, one by one, in any order.

/** A publisher whose every write waits until the test settles it. */
class HandSettledBus implements HitPublisher {
  readonly writes: { hits: readonly AcceptedHit[]; settle: (ok: boolean) => void }[] = [];
  publish(hits: readonly AcceptedHit[]): Promise<void> {
    return new Promise((resolve, reject) => this.writes.push({ hits, settle: (ok) => (ok ? resolve() : reject(new Error('refused'))) }));
  }
  async close(): Promise<void> {}
}

const hitAt = (at: number): AcceptedHit => ({ id: `event-${at}`, at, ip: '127.0.0.1', ua: 'test', hit: { p: 7, t: 'pageview', u: 'https://site.ru/', r: '', ti: '', sw: 0, sh: 0, v: `visitor-${at}` } });
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('HitBuffer', () => {
  it('tells the oldest unanswered hit while writes settle out of order', async () => {
    const bus = new HandSettledBus();
    const buffer = new HitBuffer(bus, { capacity: 100, maxBatch: 1, flushMs: 5 });
    buffer.offer(hitAt(1_000), () => {});
    buffer.offer(hitAt(2_000), () => {});
    buffer.offer(hitAt(3_000), () => {});
    expect(bus.writes).toHaveLength(3);
    expect(buffer.oldestAt).toBe(1_000);
    bus.writes[1]!.settle(true);
    await turn();
    expect(buffer.oldestAt).toBe(1_000);
    bus.writes[0]!.settle(true);
    await turn();
    expect(buffer.oldestAt).toBe(3_000);
    bus.writes[2]!.settle(true);
    await turn();
    expect(buffer.oldestAt).toBe(null);
    expect(buffer.size).toBe(0);
  });

  it('answers every hit of a group even when one answer throws', async () => {
    const bus = new HandSettledBus();
    const buffer = new HitBuffer(bus, { capacity: 100, maxBatch: 3, flushMs: 5 });
    const answers: boolean[] = [];
    buffer.offer(hitAt(1), (durable) => answers.push(durable));
    buffer.offer(hitAt(2), () => {
      throw new Error('a socket in a state nobody foresaw');
    });
    buffer.offer(hitAt(3), (durable) => answers.push(durable));
    bus.writes[0]!.settle(true);
    await buffer.drain();
    expect(answers).toEqual([true, true]);
    expect(buffer.size).toBe(0);
  });

  it('writes the group that gathered during a write as soon as that write settles, not after its window', async () => {
    const bus = new HandSettledBus();
    const buffer = new HitBuffer(bus, { capacity: 100, maxBatch: 100, flushMs: 60_000 });
    const answered: number[] = [];
    buffer.offer(hitAt(1), () => answered.push(1));
    await turn();
    // Idle: the first hit went at once, alone.
    expect(bus.writes.map((w) => w.hits.length)).toEqual([1]);
    for (const at of [2, 3, 4]) buffer.offer(hitAt(at), () => answered.push(at));
    await turn();
    expect(bus.writes).toHaveLength(1);
    bus.writes[0]!.settle(true);
    await turn();
    // The three that came meanwhile, in one write, long before the minute's window.
    expect(bus.writes.map((w) => w.hits.map((h) => h.at))).toEqual([[1], [2, 3, 4]]);
    expect(answered).toEqual([1]);
    bus.writes[1]!.settle(true);
    await buffer.drain();
    expect(answered).toEqual([1, 2, 3, 4]);
  });
});
