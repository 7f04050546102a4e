import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AcceptedHit } from '@stat/schemas';
import { Spool } from './spool.js';
import { createProject, eventually, periodSince, summaryTotals } from './testing/api-client.js';
import { VISITOR_USER_AGENT } from './testing/browser.js';
import { serviceEnv, startService, type ServiceProcess } from './testing/service.js';

// Needs: its own embedded service (chDB, the hit log as its bus), started twice on one data directory.
const dataDir = mkdtempSync(join(tmpdir(), 'stat-stop-'));
let service: ServiceProcess | null = null;
afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('embedded mode, graceful stop', () => {
  it('SIGTERM right after a burst of hits loses none that were acknowledged; /ready turns 503 at once and the process serves on through STOP_DRAIN_MS', async () => {
    const started = Date.now();
    const env = (): Promise<Record<string, string>> => serviceEnv(dataDir, { STOP_DRAIN_MS: '1500' });
    const first = await env();
    service = await startService(first);
    // The login outlives the restart: sessions are kept in the embedded Postgres.
    const { projectId, cookie } = await createProject(`http://127.0.0.1:${first.API_PORT}`);
    const hit = (i: number): Promise<number> =>
      fetch(`http://127.0.0.1:${first.COLLECTOR_PORT}/hit`, {
        method: 'POST',
        headers: { 'user-agent': VISITOR_USER_AGENT },
        body: JSON.stringify({ p: projectId, u: `https://blog.ru/post/${i}`, v: `reader-${i % 40}` }),
      }).then((r) => r.status);
    const sent = await Promise.all(Array.from({ length: 2000 }, (_, i) => hit(i)));
    expect(sent.filter((status) => status === 204).length).toBe(2000);
    // From the signal on, /ready says 503 (a balancer sends traffic elsewhere) until the port
    // closes, while hits are still taken through the drain.
    const exited = service.stop();
    const readiness: number[] = [];
    let drainHit: Promise<number> | null = null;
    for (;;) {
      const answer = await fetch(`http://127.0.0.1:${first.API_PORT}/ready`).catch(() => null);
      if (answer === null) break;
      readiness.push(answer.status);
      if (answer.status === 503) {
        expect(await answer.json()).toEqual({ ready: false, reasons: ['stopping'] });
        drainHit ??= hit(2000);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await drainHit).toBe(204);
    expect(await exited).toBe(0);
    expect(readiness).toContain(503);
    expect(readiness.slice(readiness.indexOf(503)).every((status) => status === 503)).toBe(true);

    const second = await env();
    service = await startService(second);
    const totals = await summaryTotals(`http://127.0.0.1:${second.API_PORT}`, projectId, {
      ...periodSince(started),
      group: 'hour',
      metrics: ['page_views', 'visitors'],
    }, cookie);
    expect(totals).toEqual([2001, 40]);
  });

  it('stores the hits an older version kept in DATA_DIR/spool at its stop, once, and removes the file', async () => {
    await service?.stop();
    service = null;
    const started = Date.now();
    const spoolDir = mkdtempSync(join(tmpdir(), 'stat-spool-upgrade-'));
    const env = (): Promise<Record<string, string>> => serviceEnv(spoolDir);
    try {
      const first = await env();
      service = await startService(first);
      const { projectId, cookie } = await createProject(`http://127.0.0.1:${first.API_PORT}`);
      expect(await service.stop()).toBe(0);
      // What an older version's stop left: acknowledged hits it could not store.
      const kept: AcceptedHit[] = Array.from({ length: 25 }, (_, i) => ({
        id: randomUUID(),
        at: Date.now(),
        ip: '77.88.55.88',
        ua: VISITOR_USER_AGENT,
        hit: { p: projectId, t: 'pageview', u: `https://blog.ru/kept/${i}`, r: '', ti: '', sw: 0, sh: 0, v: `keeper-${i % 5}-abc` },
      }));
      expect(new Spool(spoolDir).write(kept)).not.toBeNull();

      const second = await env();
      service = await startService(second);
      const body = { ...periodSince(started), group: 'hour', metrics: ['page_views', 'visitors'] };
      expect(await eventually(() => summaryTotals(`http://127.0.0.1:${second.API_PORT}`, projectId, body, cookie), (t) => t[0] === 25)).toEqual([25, 5]);
      expect(readdirSync(join(spoolDir, 'spool')).filter((f) => f.startsWith('unstored-'))).toEqual([]);
      // Once: a second start stores nothing again.
      expect(await service.stop()).toBe(0);
      const third = await env();
      service = await startService(third);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await summaryTotals(`http://127.0.0.1:${third.API_PORT}`, projectId, body, cookie)).toEqual([25, 5]);
    } finally {
      await service?.stop();
      service = null;
      rmSync(spoolDir, { recursive: true, force: true });
    }
  });
});
