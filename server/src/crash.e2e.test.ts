import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { readConfig } from './config.js';
import type { ClickHouseClient } from '@stat/storage';
import { main, type RunningService } from './main.js';
import { createProject } from './testing/api-client.js';
import { VISITOR_USER_AGENT } from './testing/browser.js';
import { countStored, hitCases } from './testing/hit-property.js';
import { serviceEnv, startService, type ServiceProcess } from './testing/service.js';

// Needs: its own embedded service, first as a child process (killed with SIGKILL, as a crash,
// an OOM kill or a power cut of the process would), then in this process on the same data
// directory, so that the test reads its ClickHouse (chDB) hit by hit.

const dirs: string[] = [];
let child: ServiceProcess | null = null;
let restarted: RunningService | null = null;
afterEach(async () => {
  await child?.kill();
  child = null;
  await restarted?.stop();
  restarted = null;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** What became of one request: answered (and how), or no answer (the process died first). */
type Outcome = { marker: string; status: number | null };

/**
 * Sends a bounded stream of page views, `concurrency` at a time, each with its own visitor id
 * (its marker), and kills the service with SIGKILL once `killAfter` of them were answered 204:
 * the requests in flight then are in every state (gathering, being written, written and not
 * answered). Resolves with every request's outcome once the stream ends.
 */
async function streamAndKill(collectorUrl: string, bodyOf: (i: number, marker: string) => string | Uint8Array<ArrayBuffer>, seed: number, total: number, killAfter: number, kill: () => void): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  let acknowledged = 0;
  let killed = false;
  const worker = async (): Promise<void> => {
    while (next < total) {
      const marker = `crash-${seed}-${String(next++).padStart(5, '0')}`;
      let status: number | null = null;
      try {
        const response = await fetch(`${collectorUrl}/hit`, {
          method: 'POST',
          headers: { 'user-agent': VISITOR_USER_AGENT },
          body: bodyOf(next - 1, marker),
        });
        status = response.status;
      } catch {
        // The connection died with the process: no answer.
      }
      outcomes.push({ marker, status });
      if (status === 204 && ++acknowledged >= killAfter && !killed) {
        killed = true;
        kill();
      }
      if (killed && status === null) return;
    }
  };
  await Promise.all(Array.from({ length: 40 }, worker));
  return outcomes;
}

/** A page view whose visitor id is its marker. */
const pageView = (projectId: number) => (_: number, marker: string): string => JSON.stringify({ p: projectId, u: `https://e2e-site.example/story/${marker}`, v: marker });

/** Waits for every acknowledged marker to be stored (or set aside), then a moment more; the counts. */
async function settledCounts(clickhouse: ClickHouseClient, markers: readonly string[], acknowledged: readonly string[]): Promise<Map<string, { events: number; dead: number }>> {
  let stored = await countStored(clickhouse, markers);
  const deadline = Date.now() + 60_000;
  while (acknowledged.some((m) => stored.get(m)!.events + stored.get(m)!.dead === 0) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    stored = await countStored(clickhouse, markers);
  }
  // A hit stored twice would show now.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return countStored(clickhouse, markers);
}

/** A project's page views as its events, the time rollups and the visits hold them. */
async function pageViewsEverywhere(clickhouse: ClickHouseClient, projectId: number): Promise<Record<string, number>> {
  const sums = {
    events: "SELECT count() AS n FROM events WHERE project_id = {project:UInt32} AND event_type = 'pageview'",
    rollup_5m: 'SELECT sum(page_views) AS n FROM rollup_5m WHERE project_id = {project:UInt32}',
    rollup_hour: 'SELECT sum(page_views) AS n FROM rollup_hour WHERE project_id = {project:UInt32}',
    rollup_day: 'SELECT sum(page_views) AS n FROM rollup_day WHERE project_id = {project:UInt32}',
    visits: 'SELECT sum(page_views) AS n FROM visits WHERE project_id = {project:UInt32}',
  };
  const counts: Record<string, number> = {};
  for (const [name, query] of Object.entries(sums)) {
    const result = await clickhouse.query({ query, query_params: { project: projectId }, format: 'JSONEachRow' });
    const [row] = await result.json<{ n: string | number }>();
    counts[name] = Number(row?.n ?? 0);
  }
  return counts;
}

describe('embedded mode: a crash loses no hit it answered 204', () => {
  // Fixed seeds: the same kill moments on every run, at any time of day.
  it.each([20261129, 7, 424242])('kill -9 in the middle of a stream (seed %i): after the restart every hit answered 204 is stored exactly once', async (seed) => {
    const [killAfter] = fc.sample(fc.integer({ min: 50, max: 1_500 }), { seed, numRuns: 1 });
    const dataDir = mkdtempSync(join(tmpdir(), 'stat-crash-'));
    dirs.push(dataDir);
    const env = (): Promise<Record<string, string>> => serviceEnv(dataDir);
    const first = await env();
    child = await startService(first);
    const { projectId } = await createProject(`http://127.0.0.1:${first.API_PORT}`);
    const running = child;
    const outcomes = await streamAndKill(`http://127.0.0.1:${first.COLLECTOR_PORT}`, pageView(projectId), seed, 4_000, killAfter!, () => running.child.kill('SIGKILL'));
    await child.kill();
    child = null;
    const acknowledged = outcomes.filter((o) => o.status === 204).map((o) => o.marker);
    const unanswered = outcomes.filter((o) => o.status === null).map((o) => o.marker);
    // The kill came mid-stream: some hits were answered, some never were.
    expect(acknowledged.length).toBeGreaterThanOrEqual(killAfter!);
    expect(unanswered.length).toBeGreaterThan(0);
    expect(outcomes.every((o) => o.status === 204 || o.status === null)).toBe(true);

    const second = await env();
    restarted = await main(readConfig({ ...second, ROLES: 'collector,aggregator,api' }));
    const clickhouse = restarted.clickhouse!;
    const markers = outcomes.map((o) => o.marker);
    const stored = await settledCounts(clickhouse, markers, acknowledged);

    const lost = acknowledged.filter((m) => stored.get(m)!.events !== 1);
    expect(lost, `answered 204, stored not exactly once (of ${acknowledged.length})`).toEqual([]);
    const twice = markers.filter((m) => stored.get(m)!.events > 1);
    expect(twice, 'stored twice').toEqual([]);
    // A hit whose group was written when the process died, but never answered, may be stored
    // (the client, told nothing, sends it again at worst): never more than those.
    const extra = markers.filter((m) => stored.get(m)!.events === 1 && !acknowledged.includes(m));
    expect(extra.every((m) => unanswered.includes(m))).toBe(true);
    expect([...stored.values()].every((s) => s.dead === 0)).toBe(true);
    // What the reports read agrees with the events: an insert the kill cut short (its events
    // written, a rollup not) was completed, not skipped.
    const pageViews = await pageViewsEverywhere(clickhouse, projectId);
    expect(pageViews).toEqual(Object.fromEntries(Object.keys(pageViews).map((k) => [k, pageViews.events])));
  });
});

/** The collector's /health until it says nothing is unstored (every hit taken handled by storage). */
async function untilAllStored(collectorUrl: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const health = (await (await fetch(`${collectorUrl}/health`)).json()) as { unstored: number };
    if (health.unstored === 0) return;
    if (Date.now() > deadline) throw new Error(`still ${health.unstored} hits unstored after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('embedded mode: a power cut loses no hit it answered 204', () => {
  // A power cut can take whatever chDB wrote since its files were last synced to the disk (its
  // parts are acknowledged from the page cache). The worst case is made here exactly: chDB's
  // directory is put back as it was at its last sync, the hit log (fsynced per group) left as
  // the cut left it. The syncs are 10 minutes apart, so the last one was at the start.
  it('chDB back at its last sync, the hit log as the cut left it: every hit answered 204 is stored exactly once after the restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'stat-power-cut-'));
    dirs.push(dataDir);
    const env = (): Promise<Record<string, string>> => serviceEnv(dataDir, { HITLOG_RELEASE_MS: '600000' });
    const setUp = await env();
    child = await startService(setUp);
    const { projectId } = await createProject(`http://127.0.0.1:${setUp.API_PORT}`);
    await child.stop();
    const atLastSync = join(dataDir, 'clickhouse-at-last-sync');
    cpSync(join(dataDir, 'clickhouse'), atLastSync, { recursive: true });

    const running = await env();
    child = await startService(running);
    const collectorUrl = `http://127.0.0.1:${running.COLLECTOR_PORT}`;
    const markers = Array.from({ length: 600 }, (_, i) => `power-cut-${String(i).padStart(4, '0')}`);
    for (const marker of markers) {
      const response = await fetch(`${collectorUrl}/hit`, { method: 'POST', headers: { 'user-agent': VISITOR_USER_AGENT }, body: pageView(projectId)(0, marker) });
      expect(response.status).toBe(204);
    }
    // Stored, every one of them, and then the power is cut.
    await untilAllStored(collectorUrl);
    await child.kill();
    child = null;
    rmSync(join(dataDir, 'clickhouse'), { recursive: true });
    cpSync(atLastSync, join(dataDir, 'clickhouse'), { recursive: true });

    restarted = await main(readConfig({ ...(await env()), ROLES: 'collector,aggregator,api' }));
    const clickhouse = restarted.clickhouse!;
    const stored = await settledCounts(clickhouse, markers, markers);
    expect(markers.filter((m) => stored.get(m)!.events !== 1), 'answered 204, stored not exactly once').toEqual([]);
    const pageViews = await pageViewsEverywhere(clickhouse, projectId);
    expect(pageViews).toEqual(Object.fromEntries(Object.keys(pageViews).map((k) => [k, markers.length])));
  });
});

describe('the property of the hit path, with a crash', () => {
  // Random hits, valid and hostile and garbage (testing/hit-property.ts), a kill -9 at a random
  // moment, a restart: every hit answered 204 is stored exactly once (or set aside once in
  // dead_hits), every refused one never, an unanswered one at most once.
  it.each([11, 20261130])('random hits and a kill -9 at a random moment (seed %i)', async (seed) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'stat-crash-property-'));
    dirs.push(dataDir);
    const env = (): Promise<Record<string, string>> => serviceEnv(dataDir);
    const first = await env();
    child = await startService(first);
    const { projectId } = await createProject(`http://127.0.0.1:${first.API_PORT}`);
    const cases = fc.sample(hitCases([projectId]), { seed, numRuns: 8 }).flat();
    const [killAfter] = fc.sample(fc.integer({ min: 20, max: Math.floor(cases.length / 2) }), { seed, numRuns: 1 });
    const running = child;
    const outcomes = await streamAndKill(`http://127.0.0.1:${first.COLLECTOR_PORT}`, (i, marker) => cases[i]!.body(marker), seed, cases.length, killAfter!, () => running.child.kill('SIGKILL'));
    await child.kill();
    child = null;
    const acknowledged = outcomes.filter((o) => o.status === 204).map((o) => o.marker);
    expect(acknowledged.length).toBeGreaterThanOrEqual(killAfter!);
    expect(outcomes.some((o) => o.status === null)).toBe(true);

    restarted = await main(readConfig({ ...(await env()), ROLES: 'collector,aggregator,api' }));
    const stored = await settledCounts(restarted.clickhouse!, outcomes.map((o) => o.marker), acknowledged);
    const problems: string[] = [];
    for (const { marker, status } of outcomes) {
      const { events, dead } = stored.get(marker)!;
      if (status === 204 && events + dead !== 1) problems.push(`${marker}: answered 204, found ${events} events and ${dead} dead letters`);
      if (status !== null && status !== 204 && events + dead !== 0) problems.push(`${marker}: refused with ${status}, yet stored`);
      if (status === null && events + dead > 1) problems.push(`${marker}: unanswered, stored ${events + dead} times`);
    }
    expect(problems).toEqual([]);
  });
});
