import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.js';
import { main, type RunningService } from '../main.js';
import { createProject } from './api-client.js';
import { VISITOR_USER_AGENT } from './browser.js';
import { checkRun, countStored, hitCases, sendCases } from './hit-property.js';
import { freePort } from './service.js';

/**
 * The suite of issue 9 for one mode: the service runs in the test's process (so the test reads
 * its ClickHouse: events and dead_hits by each hit's marker); `env` picks the mode.
 */
export function ingestionSuite(title: string, env: Record<string, string>, property: { numRuns: number; seed: number }): void {
  const dataDir = mkdtempSync(join(tmpdir(), 'stat-ingest-'));
  let service: RunningService;
  let collectorUrl = '';
  let apiUrl = '';
  let projects: number[] = [];
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

  beforeAll(async () => {
    const apiPort = await freePort();
    const collectorPort = await freePort();
    const config = readConfig({ ...env, DATA_DIR: dataDir, API_PORT: String(apiPort), COLLECTOR_PORT: String(collectorPort), DEMO_SEED: 'false', ROLES: 'collector,aggregator,api' });
    service = await main(config);
    collectorUrl = `http://127.0.0.1:${collectorPort}`;
    apiUrl = `http://127.0.0.1:${apiPort}`;
    projects = [(await createProject(apiUrl)).projectId, (await createProject(apiUrl)).projectId];
  });

  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** One page view to the collector; answers the status. */
  async function send(body: string): Promise<number> {
    const response = await fetch(`${collectorUrl}/hit`, { method: 'POST', headers: { 'user-agent': VISITOR_USER_AGENT }, body });
    return response.status;
  }

  /** Waits until the hit of visitor `marker` is stored; returns how many events it has. */
  async function storedEvents(marker: string, timeoutMs = 10_000): Promise<number> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const events = (await countStored(service.clickhouse!, [marker])).get(marker)!.events;
      if (events > 0 || Date.now() > until) return events;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  describe(title, () => {
    it('after a hit with project id 2147483648, the next valid hit is stored', async () => {
      expect(await send(`{"p":2147483648,"u":"https://a.ru/","v":"poison-${run}-1"}`)).toBe(400);
      expect(await send(JSON.stringify({ p: projects[0], u: 'https://e2e-site.example/after-id', v: `after-${run}-1` }))).toBe(204);
      expect(await storedEvents(`after-${run}-1`)).toBe(1);
    });

    it('after a hit with a lone surrogate in its title, the next valid hit is stored', async () => {
      expect(await send(`{"p":${projects[0]},"u":"https://e2e-site.example/","v":"poison-${run}-2","ti":"x\\ud800y"}`)).toBe(400);
      expect(await send(JSON.stringify({ p: projects[0], u: 'https://e2e-site.example/after-surrogate', v: `after-${run}-2` }))).toBe(204);
      expect(await storedEvents(`after-${run}-2`)).toBe(1);
    });

    it('property: every random hit is refused with a 4xx, or stored exactly once, or set aside in dead_hits', async () => {
      let next = 0;
      await fc.assert(
        fc.asyncProperty(hitCases(projects), async (cases) => {
          const sent = await sendCases(collectorUrl, cases, () => `m${run}x${next++}`);
          expect(await checkRun(service.clickhouse!, sent)).toEqual([]);
        }),
        // A fixed seed: the same thousands of hits on every run, at any time of day.
        { ...property, endOnFailure: true },
      );
      expect(next).toBeGreaterThan(property.numRuns * 150);
      // And ingestion still runs: a fresh hit is stored within seconds.
      expect(await send(JSON.stringify({ p: projects[1], u: 'https://e2e-site.example/fresh', v: `fresh-${run}` }))).toBe(204);
      expect(await storedEvents(`fresh-${run}`)).toBe(1);
      expect(service.health()).toMatchObject({ status: 'ok', unstored: 0 });
      // The same report on the collector's port and on the api's.
      for (const url of [collectorUrl, apiUrl]) {
        expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok', reasons: [], unstored: 0, oldest_unstored_ms: null });
      }
    });
  });
}
