import { describe, expect, it } from 'vitest';
import type { HealthReport } from '@stat/schemas';
import { opsAnswer, readinessFrom, PROBE_TIMEOUT_MS } from './endpoints.js';
import { createMetrics } from './metrics.js';

// Needs: nothing; the probes are functions standing for the servers.

const ok: HealthReport = { status: 'ok', reasons: [], unstored: 0, oldest_unstored_ms: null };

describe('readinessFrom: /ready from the health and the probes', () => {
  it('is ready when every probe answers', async () => {
    const ready = readinessFrom(() => ok, [
      { name: 'ClickHouse', check: async () => undefined },
      { name: 'Postgres', check: async () => [{ '?column?': 1 }] },
    ]);
    expect(await ready()).toEqual({ ready: true, reasons: [] });
  });

  it('names a server whose probe fails, with its error, and one that does not answer in time', async () => {
    const ready = readinessFrom(() => ok, [
      { name: 'ClickHouse', check: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:8123')) },
      { name: 'Redis', check: () => new Promise(() => undefined) },
      { name: 'Postgres', check: async () => undefined },
    ]);
    expect(await ready()).toEqual({
      ready: false,
      reasons: ['ClickHouse unreachable: connect ECONNREFUSED 127.0.0.1:8123', `Redis unreachable: no answer in ${PROBE_TIMEOUT_MS} ms`],
    });
  });

  it('reads the probes given after it was made (the api adds its own once it runs)', async () => {
    const probes = [{ name: 'Kafka' as const, check: async () => undefined }];
    const ready = readinessFrom(() => ok, probes);
    probes.push({ name: 'Kafka', check: () => Promise.reject(new Error('broker down')) });
    expect(await ready()).toEqual({ ready: false, reasons: ['Kafka unreachable: broker down'] });
  });
});

describe('opsAnswer: GET /live, /ready and /metrics', () => {
  const metrics = createMetrics();
  const degraded: HealthReport = { status: 'degraded', reasons: ['hit log holds 60 of 100 hits'], unstored: 60, oldest_unstored_ms: 900 };

  it('answers /live 200 whatever the health', async () => {
    expect(await opsAnswer('/live', { metrics, ready: readinessFrom(() => degraded, []) })).toEqual({ status: 200, contentType: 'application/json', body: '{"status":"ok"}' });
  });

  it('answers /ready 503 with the reasons while not ready', async () => {
    const answer = await opsAnswer('/ready', { metrics, ready: readinessFrom(() => degraded, []) });
    expect(answer).toEqual({ status: 503, contentType: 'application/json', body: JSON.stringify({ ready: false, reasons: ['hit log holds 60 of 100 hits'] }) });
  });

  it('answers /metrics in the Prometheus text format, and nothing for another path', async () => {
    metrics.hitsAccepted.inc(3);
    const answer = await opsAnswer('/metrics', { metrics, ready: readinessFrom(() => ok, []) });
    expect(answer?.status).toBe(200);
    expect(answer?.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answer?.body).toContain('\nstat_hits_accepted_total 3\n');
    expect(await opsAnswer('/health', { metrics, ready: readinessFrom(() => ok, []) })).toBeNull();
  });
});
