import { describe, expect, it } from 'vitest';
import { healthOf, readinessOf } from './health.js';

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
      reasons: ['writes to storage failing for 95 s: connect ECONNREFUSED 127.0.0.1:8123', 'hit log holds 60 of 100 hits', 'the oldest unstored hit is 100 s old'],
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

describe('readinessOf: what /ready says of the process', () => {
  const ok = healthOf({ bus: { size: 0, capacity: 100, oldestAt: null }, writer: () => idle }, NOW);

  it('is ready when every server answers and nothing is degraded', () => {
    expect(readinessOf(ok, [{ name: 'ClickHouse', error: null }, { name: 'Postgres', error: null }])).toEqual({ ready: true, reasons: [] });
  });

  it('is ready with no servers to probe (a collector alone on its hit log)', () => {
    expect(readinessOf(ok, [])).toEqual({ ready: true, reasons: [] });
  });

  it('is not ready while a server does not answer, naming each that does not', () => {
    expect(
      readinessOf(ok, [
        { name: 'ClickHouse', error: null },
        { name: 'Kafka', error: 'Connection error: connect ECONNREFUSED 127.0.0.1:9092' },
        { name: 'Redis', error: 'no answer in 2000 ms' },
      ]),
    ).toEqual({ ready: false, reasons: ['Kafka unreachable: Connection error: connect ECONNREFUSED 127.0.0.1:9092', 'Redis unreachable: no answer in 2000 ms'] });
  });

  it('is not ready while writes fail or the backlog grows, with the health report’s reasons', () => {
    const writer = () => ({ failing: 'Code: 243. DB::Exception: Cannot reserve 1.00 MiB, not enough space. (NOT_ENOUGH_SPACE)', failingSince: NOW - 12_000, oldestUnstoredAt: NOW - 13_000 });
    const degraded = healthOf({ bus: { size: 70, capacity: 100, oldestAt: NOW - 13_000 }, writer }, NOW);
    expect(readinessOf(degraded, [{ name: 'ClickHouse', error: null }])).toEqual({
      ready: false,
      reasons: ['writes to storage failing for 12 s: Code: 243. DB::Exception: Cannot reserve 1.00 MiB, not enough space. (NOT_ENOUGH_SPACE)', 'hit log holds 70 of 100 hits'],
    });
  });
});
