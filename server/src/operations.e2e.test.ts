import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ID_MAX } from '@stat/schemas';
import { readSamples } from '@stat/telemetry';
import { createProject, eventually, periodSince } from './testing/api-client.js';
import { VISITOR_USER_AGENT } from './testing/browser.js';
import { freePort, startService, type ServiceProcess } from './testing/service.js';
import { smallDisk, type SmallDisk } from './testing/small-disk.js';

// Needs: its own embedded service (a child process: chDB, PGlite, the hit log as its bus, no demo)
// whose ClickHouse data directory is a small tmpfs the readiness test fills (see
// storage-outage.e2e.test.ts), mounted in a namespace of its own: no root needed. Its stdout is the logger's JSON lines.

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const REPORT_ROUTE = '/top100/api/report/v1.0/report/:projectId/:reportName/table';

let disk: SmallDisk;
let service: ServiceProcess;
let api: string;
let collector: string;
let projectId: number;
let cookie: string;
const started = Date.now();

beforeAll(async () => {
  disk = await smallDisk();
  const apiPort = await freePort();
  const collectorPort = await freePort();
  service = await startService({ DATA_DIR: disk.dataDir, API_PORT: String(apiPort), COLLECTOR_PORT: String(collectorPort), DEMO_SEED: 'false', LOG_LEVEL: 'info' }, undefined, disk.enter);
  api = `http://127.0.0.1:${apiPort}`;
  collector = `http://127.0.0.1:${collectorPort}`;
  ({ projectId, cookie } = await createProject(api));
});
afterAll(async () => {
  await service?.kill();
  disk?.remove();
});

async function scrape(base: string): Promise<Map<string, number>> {
  const answer = await fetch(`${base}/metrics`);
  expect(answer.status).toBe(200);
  return readSamples(await answer.text());
}

function beacon(body: string | Uint8Array<ArrayBuffer>, userAgent = VISITOR_USER_AGENT): Promise<number> {
  return fetch(`${collector}/hit`, { method: 'POST', headers: { 'user-agent': userAgent }, body }).then((r) => r.status);
}

/** The logger's lines the service printed, parsed. */
function logLines(): Record<string, unknown>[] {
  return service
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('operating the embedded service', () => {
  it('counts on /metrics what was sent, refused, stored and dropped, on the collector’s port and the api’s alike', async () => {
    const pageView = (i: number, p = projectId) => JSON.stringify({ p, u: `https://e2e-site.example/ops/${i}`, v: `ops-reader-${i % 4}-abc` });
    const statuses = [
      // 10 page views of the project by 4 visitors: stored
      ...(await Promise.all(Array.from({ length: 10 }, (_, i) => beacon(pageView(i))))),
      // 2 by a crawler: accepted, then dropped as bots
      ...(await Promise.all([10, 11].map((i) => beacon(pageView(i), GOOGLEBOT)))),
      // 3 of a project nobody created: accepted, then dropped
      ...(await Promise.all([12, 13, 14].map((i) => beacon(pageView(i, PROJECT_ID_MAX - 1))))),
      // refused: 2 invalid, 1 not UTF-8, 1 too large
      await beacon(JSON.stringify({ p: -1, u: 'https://e2e-site.example/', v: 'ops-reader-x-abc' })),
      await beacon('{"p":'),
      await beacon(new Uint8Array([0x7b, 0xff, 0x7d])),
      await beacon('x'.repeat(9_000)),
    ];
    expect(statuses).toEqual([...new Array<number>(15).fill(204), 400, 400, 400, 413]);

    // Handled: each of the 15 stored or dropped (a batch is counted in batch_size when it arrives, before its write).
    const handled = await eventually(
      () => scrape(api),
      (s) => ['stat_events_stored_total', 'stat_events_dropped_total{reason="bot"}', 'stat_events_dropped_total{reason="no_project"}'].reduce((n, k) => n + (s.get(k) ?? 0), 0) >= 15,
    );
    const counters = (samples: Map<string, number>) => ({
      accepted: samples.get('stat_hits_accepted_total'),
      refused: Object.fromEntries(['invalid', 'not_utf8', 'too_large', 'ambiguous_length', 'busy'].map((r) => [r, samples.get(`stat_hits_refused_total{reason="${r}"}`)])),
      batched: samples.get('stat_aggregator_batch_size_sum'),
      stored: samples.get('stat_events_stored_total'),
      dropped: Object.fromEntries(['bot', 'counter_settings', 'no_project', 'replay'].map((r) => [r, samples.get(`stat_events_dropped_total{reason="${r}"}`)])),
      deadLettered: Object.fromEntries(['invalid_message', 'invalid_hit', 'storage_refused'].map((r) => [r, samples.get(`stat_events_dead_lettered_total{reason="${r}"}`)])),
      held: [samples.get('stat_collector_buffer_hits'), samples.get('stat_bus_backlog_hits')],
    });
    const expected = {
      accepted: 15,
      refused: { invalid: 2, not_utf8: 1, too_large: 1, ambiguous_length: 0, busy: 0 },
      batched: 15,
      stored: 10,
      dropped: { bot: 2, counter_settings: 0, no_project: 3, replay: 0 },
      deadLettered: { invalid_message: 0, invalid_hit: 0, storage_refused: 0 },
      held: [0, 0],
    };
    expect(counters(handled)).toEqual(expected);
    // One process, one registry: the collector's port shows the same counts.
    expect(counters(await scrape(collector))).toEqual(expected);
    // The newest stored hit is a few seconds old at most; before any it is NaN.
    const freshness = handled.get('stat_freshness_seconds')!;
    expect(Number.isFinite(freshness) && freshness >= 0).toBe(true);
    expect(handled.get('stat_storage_write_seconds_count')).toBeGreaterThanOrEqual(1);
    // The process's own metrics.
    expect(handled.has('process_resident_memory_bytes')).toBe(true);
    expect(handled.has('nodejs_eventloop_lag_seconds')).toBe(true);
  });

  it('carries a report call’s request id to the answer, its log lines and its ClickHouse queries, and counts it by route and by report', async () => {
    const requestId = 'ops-e2e-report-1';
    const answer = await fetch(`${api}/top100/api/report/v1.0/report/${projectId}/summary/table`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-request-id': requestId },
      body: JSON.stringify({ ...periodSince(started), group: 'hour', metrics: ['page_views', 'visitors'] }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-request-id')).toBe(requestId);
    expect(((await answer.json()) as { result: { totals: number[] } }).result.totals).toEqual([10, 4]);

    // The request's own line is written once the answer is sent, and reaches this process's pipe after it.
    const lines = await eventually(
      async () => logLines().filter((l) => l.request_id === requestId),
      (found) => found.some((l) => l.msg === 'request'),
    );
    const queries = lines.filter((l) => l.msg === 'report query');
    expect(queries.length).toBeGreaterThanOrEqual(1);
    for (const query of queries) {
      expect(query).toMatchObject({ level: 'info', role: 'collector+aggregator+api', part: 'api', report: 'summary', query_id: expect.stringMatching(/^ops-e2e-report-1-[0-9a-f]{8}$/) });
      expect(typeof query.table).toBe('string');
      expect(typeof query.rows).toBe('number');
      expect(typeof query.duration_ms).toBe('number');
      expect(typeof query.time).toBe('string');
    }
    expect(lines.filter((l) => l.msg === 'request')).toEqual([expect.objectContaining({ method: 'POST', route: REPORT_ROUTE, status: 200 })]);
    // No client address and no credential in any line of the request, nor anywhere the session's cookie.
    expect(lines.flatMap((l) => Object.keys(l)).filter((k) => /ip|addr|cookie|auth|password/i.test(k))).toEqual([]);
    expect(service.output()).not.toContain(cookie.split('=')[1]!.slice(0, 24));
    expect(service.output()).not.toContain('e2e test password');

    // stat_report_seconds counts each query of the call under its report and table.
    const samples = await scrape(api);
    const byTable = new Map<string, number>();
    for (const q of queries) byTable.set(String(q.table), (byTable.get(String(q.table)) ?? 0) + 1);
    for (const [table, count] of byTable) expect(samples.get(`stat_report_seconds_count{report="summary",table="${table}"}`)).toBe(count);
    expect(samples.get(`stat_http_requests_total{route="${REPORT_ROUTE}",method="POST",status="200"}`)).toBe(1);
    expect(samples.get(`stat_http_request_seconds_count{route="${REPORT_ROUTE}",method="POST"}`)).toBe(1);
  });

  it('answers an unusable x-request-id with an id of its own', async () => {
    const answer = await fetch(`${api}/live`, { headers: { 'x-request-id': 'a'.repeat(65) } });
    expect(await answer.json()).toEqual({ status: 'ok' });
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('is not ready (503, with the reason) while ClickHouse refuses writes, and ready again once it takes them', async () => {
    const ready = async (base: string) => {
      const answer = await fetch(`${base}/ready`);
      return { status: answer.status, body: (await answer.json()) as { ready: boolean; reasons: string[] } };
    };
    expect(await ready(api)).toEqual({ status: 200, body: { ready: true, reasons: [] } });
    expect(await ready(collector)).toEqual({ status: 200, body: { ready: true, reasons: [] } });

    disk.fill();
    try {
      expect(await beacon(JSON.stringify({ p: projectId, u: 'https://e2e-site.example/ops/full', v: 'ops-reader-0-abc' }))).toBe(204);
      const down = await eventually(() => ready(api), (r) => r.status === 503);
      expect(down.body.ready).toBe(false);
      expect(down.body.reasons.join('\n')).toMatch(/writes to storage failing.*(NOT_ENOUGH_SPACE|not enough space)/i);
      expect((await ready(collector)).status).toBe(503);
      // Alive all the same, and its health still 200.
      expect((await fetch(`${api}/live`)).status).toBe(200);
      expect((await fetch(`${api}/health`)).status).toBe(200);
    } finally {
      disk.free();
    }
    expect(await eventually(() => ready(api), (r) => r.status === 200, 30_000)).toEqual({ status: 200, body: { ready: true, reasons: [] } });
    expect(await ready(collector)).toEqual({ status: 200, body: { ready: true, reasons: [] } });
    const samples = await eventually(() => scrape(api), (s) => s.get('stat_events_stored_total') === 11);
    expect(samples.get('stat_events_stored_total')).toBe(11);
  });
});
