import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { stopOnSignals } from './signals.js';

/** A process stand-in: signals are events, exits and lines are recorded. */
function host(): EventEmitter & { exits: number[]; lines: string[]; exit(code: number): void; log(line: string): void } {
  const emitter = new EventEmitter() as EventEmitter & { exits: number[]; lines: string[]; exit(code: number): void; log(line: string): void };
  emitter.exits = [];
  emitter.lines = [];
  emitter.exit = (code) => void emitter.exits.push(code);
  emitter.log = (line) => void emitter.lines.push(line);
  return emitter;
}

const tick = (ms = 5): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('stopOnSignals', () => {
  it('stops gracefully on SIGTERM, with the deadline, and exits 0 when the stop is done', async () => {
    const process = host();
    const deadlines: number[] = [];
    const before = Date.now();
    stopOnSignals(process, async (deadline) => void deadlines.push(deadline), 15_000);
    process.emit('SIGTERM');
    await tick();
    expect(process.exits).toEqual([0]);
    expect(deadlines[0]! - before).toBeGreaterThanOrEqual(15_000);
    expect(process.lines).toEqual(['SIGTERM: stopping (at most 15 s)']);
  });

  it('exits at once (130) on a second signal while the first stop still runs', async () => {
    const process = host();
    stopOnSignals(process, () => new Promise<void>(() => {}), 15_000);
    process.emit('SIGTERM');
    await tick();
    expect(process.exits).toEqual([]);
    process.emit('SIGINT');
    expect(process.exits).toEqual([130]);
    expect(process.lines).toEqual(['SIGTERM: stopping (at most 15 s)', 'SIGINT again: exiting at once']);
  });

  it('exits 1 when the stop hangs past its deadline', async () => {
    const process = host();
    stopOnSignals(process, () => new Promise<void>(() => {}), 20);
    process.emit('SIGINT');
    await tick(1_100);
    expect(process.exits).toEqual([1]);
  });

  it('exits 1 and says why when the stop fails', async () => {
    const process = host();
    stopOnSignals(process, async () => Promise.reject(new Error('disk gone')), 15_000);
    process.emit('SIGTERM');
    await tick();
    expect(process.exits).toEqual([1]);
    expect(process.lines[1]).toMatch(/^stop failed: Error: disk gone/);
  });
});
