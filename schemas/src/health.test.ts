import { describe, expect, it } from 'vitest';
import { healthOf } from './health.js';

const NOW = 1_800_000_000_000;
const idle = { failing: null, failingSince: null, oldestUnstoredAt: null };

describe('healthOf: what /health says of the process', () => {
  it('is ok with nothing held and writes going through', () => {
    expect(healthOf({ buffer: { size: 0, capacity: 100, oldestAt: null, error: null }, bus: { size: 0, capacity: 100, oldestAt: null }, writer: () => idle }, NOW)).toEqual({
      status: 'ok',
      reasons: [],
      unstored: 0,
      oldest_unstored_ms: null,
    });
  });

  it('is ok with a small fresh backlog, and says how old its oldest hit is', () => {
    expect(healthOf({ buffer: { size: 3, capacity: 100, oldestAt: NOW - 40, error: null }, bus: { size: 10, capacity: 100, oldestAt: NOW - 900 } }, NOW)).toEqual({
      status: 'ok',
      reasons: [],
      unstored: 13,
      oldest_unstored_ms: 900,
    });
  });

  it('is degraded while writes fail, with the reason, for how long, and the oldest unstored hit', () => {
    const writer = () => ({ failing: 'connect ECONNREFUSED 127.0.0.1:8123', failingSince: NOW - 95_000, oldestUnstoredAt: NOW - 100_000 });
    expect(healthOf({ bus: { size: 60, capacity: 100, oldestAt: NOW - 99_000 }, writer }, NOW)).toEqual({
      status: 'degraded',
      reasons: ['writes to storage failing for 95 s: connect ECONNREFUSED 127.0.0.1:8123', 'in-process bus holds 60 of 100 hits', 'the oldest unstored hit is 100 s old'],
      unstored: 60,
      oldest_unstored_ms: 100_000,
    });
  });

  it('is degraded when the bus refuses the collector’s hits', () => {
    expect(healthOf({ buffer: { size: 1, capacity: 100, oldestAt: NOW - 5, error: new Error('kafka down') } }, NOW)).toMatchObject({
      status: 'degraded',
      reasons: ['the bus refuses hits: Error: kafka down'],
    });
  });
});
