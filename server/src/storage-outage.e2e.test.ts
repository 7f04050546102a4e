import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { HealthReport } from '@stat/schemas';
import { createProject, eventually, periodSince, summaryTotals } from './testing/api-client.js';
import { VISITOR_USER_AGENT } from './testing/browser.js';
import { serviceEnv, startService, type ServiceProcess } from './testing/service.js';
import { smallDisk as newSmallDisk, type SmallDisk } from './testing/small-disk.js';

// Needs: its own embedded service (a child process, chDB) whose ClickHouse data directory is a
// small tmpfs this test fills: real ClickHouse then refuses every write (NOT_ENOUGH_SPACE), as
// on a full disk, and takes writes again once the space is freed. The tmpfs is mounted in a user
// and mount namespace of its own (testing/small-disk.ts): no root needed.

const disks: SmallDisk[] = [];
let service: ServiceProcess | null = null;

afterEach(async () => {
  await service?.kill();
  service = null;
});
afterAll(() => {
  for (const disk of disks) disk.remove();
});

/** A data directory whose ClickHouse part (or another) is a 64 MB tmpfs, with a switch to fill and free it. */
async function smallDisk(part?: string): Promise<SmallDisk> {
  const disk = await newSmallDisk(part);
  disks.push(disk);
  return disk;
}

async function sendPageView(collectorPort: string, projectId: number, i: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${collectorPort}/hit`, {
    method: 'POST',
    headers: { 'user-agent': VISITOR_USER_AGENT },
    body: JSON.stringify({ p: projectId, u: `https://e2e-site.example/post/${i}`, v: `reader-${i % 7}-abc` }),
  });
  return response.status;
}

/** The hit log's segment files. */
function logSegments(dataDir: string): string[] {
  return readdirSync(join(dataDir, 'hitlog')).filter((f) => f.endsWith('.log'));
}

async function health(collectorPort: string): Promise<HealthReport> {
  return (await (await fetch(`http://127.0.0.1:${collectorPort}/health`)).json()) as HealthReport;
}

describe('embedded mode, storage down (a full disk)', () => {
  it('SIGTERM with ClickHouse refusing writes exits within 15 s, the acknowledged hits stay in the hit log and are stored at the next start', async () => {
    const started = Date.now();
    const disk = await smallDisk();
    const first = await serviceEnv(disk.dataDir);
    service = await startService(first, undefined, disk.enter);
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
    // Nothing to set aside at the stop: every hit answered 204 was in the log already.
    expect(existsSync(join(disk.dataDir, 'spool'))).toBe(false);
    expect(logSegments(disk.dataDir)).toHaveLength(1);

    disk.free();
    const second = await serviceEnv(disk.dataDir);
    service = await startService(second, undefined, disk.enter);
    const body = { ...periodSince(started), group: 'hour', metrics: ['page_views', 'visitors'] };
    const totals = await eventually(() => summaryTotals(`http://127.0.0.1:${second.API_PORT}`, projectId, body, cookie), (t) => t[0] === 300);
    expect(totals).toEqual([300, 7]);
    expect(await health(second.COLLECTOR_PORT!)).toEqual({ status: 'ok', reasons: [], unstored: 0, oldest_unstored_ms: null });
  });

  it('answers 503 once the bounded queue is full, never 204 for a hit it then loses', async () => {
    const started = Date.now();
    const disk = await smallDisk();
    const config = await serviceEnv(disk.dataDir, { COLLECTOR_BUFFER: '20', COLLECTOR_BATCH: '5' });
    service = await startService(config, undefined, disk.enter);
    const { projectId, cookie } = await createProject(`http://127.0.0.1:${config.API_PORT}`);
    disk.fill();
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) {
      statuses.push(await sendPageView(config.COLLECTOR_PORT!, projectId, i));
    }
    const acknowledged = statuses.filter((s) => s === 204).length;
    // The hit log takes 20 unstored hits (its capacity, COLLECTOR_BUFFER), then refuses.
    expect(acknowledged).toBe(20);
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

describe('embedded mode, the hit log’s disk full', () => {
  it('answers 503, never 204, while the log cannot write, loses none it answered 204, and takes hits again once there is room', async () => {
    const started = Date.now();
    const disk = await smallDisk('hitlog');
    const config = await serviceEnv(disk.dataDir);
    service = await startService(config, undefined, disk.enter);
    const { projectId, cookie } = await createProject(`http://127.0.0.1:${config.API_PORT}`);
    const before = await Promise.all(Array.from({ length: 30 }, (_, i) => sendPageView(config.COLLECTOR_PORT!, projectId, i)));
    expect(before.every((s) => s === 204)).toBe(true);

    disk.fill();
    // A write that still fits the last, partly used page of the segment file succeeds (and is
    // kept); the first that needs a new page fails, and from then on every one does.
    const filling: number[] = [];
    for (let i = 0; i < 40 && !filling.includes(503); i++) filling.push(await sendPageView(config.COLLECTOR_PORT!, projectId, 100 + i));
    expect(filling).toContain(503);
    const keptWhileFilling = filling.filter((s) => s === 204).length;
    const during = await Promise.all(Array.from({ length: 30 }, (_, i) => sendPageView(config.COLLECTOR_PORT!, projectId, 150 + i)));
    expect(during.every((s) => s === 503)).toBe(true);
    const degraded = await health(config.COLLECTOR_PORT!);
    expect(degraded.status).toBe('degraded');
    expect(degraded.reasons.join('\n')).toMatch(/the bus refuses hits: .*ENOSPC/);

    disk.free();
    const after = await Promise.all(Array.from({ length: 30 }, (_, i) => sendPageView(config.COLLECTOR_PORT!, projectId, 200 + i)));
    expect(after.every((s) => s === 204)).toBe(true);
    const body = { ...periodSince(started), group: 'hour', metrics: ['page_views'] };
    const stored = 60 + keptWhileFilling;
    const totals = await eventually(() => summaryTotals(`http://127.0.0.1:${config.API_PORT}`, projectId, body, cookie), (t) => t[0] === stored, 30_000);
    expect(totals).toEqual([stored]);

    // A restart replays the log: what was stored is not stored again, the refused never was.
    expect(await service.stop()).toBe(0);
    const again = await serviceEnv(disk.dataDir);
    service = await startService(again, undefined, disk.enter);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await summaryTotals(`http://127.0.0.1:${again.API_PORT}`, projectId, body, cookie)).toEqual([stored]);
  });
});
