import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { HealthReport } from '@stat/schemas';
import { createProject, eventually, periodSince, summaryTotals } from './testing/api-client.js';
import { VISITOR_USER_AGENT } from './testing/browser.js';
import { freePort, startService, type ServiceProcess } from './testing/service.js';
import { smallDisk as newSmallDisk, type SmallDisk } from './testing/small-disk.js';

// Needs: its own embedded service (a child process, chDB) whose ClickHouse data directory is a
// small tmpfs this test fills: real ClickHouse then refuses every write (NOT_ENOUGH_SPACE), as
// on a full disk, and takes writes again once the space is freed. Mounting needs root (CI is).

const disks: SmallDisk[] = [];
let service: ServiceProcess | null = null;

afterEach(async () => {
  await service?.kill();
  service = null;
});
afterAll(() => {
  for (const disk of disks) disk.remove();
});

/** A data directory whose ClickHouse part is a 64 MB tmpfs, with a switch to fill and free it. */
function smallDisk(): SmallDisk {
  const disk = newSmallDisk();
  disks.push(disk);
  return disk;
}

async function env(dataDir: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return { DATA_DIR: dataDir, API_PORT: String(await freePort()), COLLECTOR_PORT: String(await freePort()), DEMO_SEED: 'false', ...extra };
}

async function sendPageView(collectorPort: string, projectId: number, i: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${collectorPort}/hit`, {
    method: 'POST',
    headers: { 'user-agent': VISITOR_USER_AGENT },
    body: JSON.stringify({ p: projectId, u: `https://e2e-site.example/post/${i}`, v: `reader-${i % 7}-abc` }),
  });
  return response.status;
}

async function health(collectorPort: string): Promise<HealthReport> {
  return (await (await fetch(`http://127.0.0.1:${collectorPort}/health`)).json()) as HealthReport;
}

describe('embedded mode, storage down (a full disk)', () => {
  it('SIGTERM with ClickHouse refusing writes exits within 15 s, keeps the acknowledged hits on disk and stores them at the next start', async () => {
    const started = Date.now();
    const disk = smallDisk();
    const first = await env(disk.dataDir);
    service = await startService(first);
    const { projectId, cookie } = await createProject(`http://127.0.0.1:${first.API_PORT}`);
    disk.fill();
    const statuses = await Promise.all(Array.from({ length: 300 }, (_, i) => sendPageView(first.COLLECTOR_PORT!, projectId, i)));
    expect(statuses.every((s) => s === 204)).toBe(true);

    const degraded = await eventually(() => health(first.COLLECTOR_PORT!), (h) => h.status === 'degraded');
    expect(degraded.reasons.join('\n')).toMatch(/writes to storage failing.*NOT_ENOUGH_SPACE|not enough space/i);
    expect(degraded.unstored).toBe(300);

    const stopping = Date.now();
    expect(await service.stop()).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(15_000);
    service = null;
    expect(readdirSync(join(disk.dataDir, 'spool')).filter((f) => f.startsWith('unstored-'))).toHaveLength(1);

    disk.free();
    const second = await env(disk.dataDir);
    service = await startService(second);
    const body = { ...periodSince(started), group: 'hour', metrics: ['page_views', 'visitors'] };
    const totals = await eventually(() => summaryTotals(`http://127.0.0.1:${second.API_PORT}`, projectId, body, cookie), (t) => t[0] === 300);
    expect(totals).toEqual([300, 7]);
    // The spool file goes once its hits are stored.
    await eventually(async () => readdirSync(join(disk.dataDir, 'spool')).filter((f) => f.startsWith('unstored-')).length, (n) => n === 0);
    expect(readdirSync(join(disk.dataDir, 'spool')).filter((f) => f.startsWith('unstored-'))).toEqual([]);
    expect(await health(second.COLLECTOR_PORT!)).toEqual({ status: 'ok', reasons: [], unstored: 0, oldest_unstored_ms: null });
  });

  it('answers 503 once the bounded queue is full, never 204 for a hit it then loses', async () => {
    const started = Date.now();
    const disk = smallDisk();
    const config = await env(disk.dataDir, { COLLECTOR_BUFFER: '20', COLLECTOR_BATCH: '5' });
    service = await startService(config);
    const { projectId, cookie } = await createProject(`http://127.0.0.1:${config.API_PORT}`);
    disk.fill();
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) {
      statuses.push(await sendPageView(config.COLLECTOR_PORT!, projectId, i));
      // Give the buffer its flush interval, so hits move on to the bus while it takes them.
      if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 120));
    }
    const acknowledged = statuses.filter((s) => s === 204).length;
    // The collector's buffer (20) and the in-process bus (20) hold at most 40 between them.
    expect(acknowledged).toBeGreaterThanOrEqual(20);
    expect(acknowledged).toBeLessThanOrEqual(40);
    expect(statuses.slice(acknowledged).every((s) => s === 503)).toBe(true);
    expect((await health(config.COLLECTOR_PORT!)).status).toBe('degraded');

    disk.free();
    const body = { ...periodSince(started), group: 'hour', metrics: ['page_views'] };
    const totals = await eventually(() => summaryTotals(`http://127.0.0.1:${config.API_PORT}`, projectId, body, cookie), (t) => t[0] === acknowledged, 30_000);
    expect(totals).toEqual([acknowledged]);
    // With room again, the collector takes hits at once.
    expect(await sendPageView(config.COLLECTOR_PORT!, projectId, 1000)).toBe(204);
    expect(existsSync(join(disk.dataDir, 'spool'))).toBe(false);
  });
});
