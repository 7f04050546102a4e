import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createProject, periodSince, summaryTotals } from './testing/api-client.js';
import { VISITOR_USER_AGENT } from './testing/browser.js';
import { freePort, startService, type ServiceProcess } from './testing/service.js';

// Needs: its own embedded service (chDB, in-process bus), started twice on one data directory.
const dataDir = mkdtempSync(join(tmpdir(), 'stat-stop-'));
let service: ServiceProcess | null = null;
afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('embedded mode, graceful stop', () => {
  it('SIGTERM right after a burst of hits loses none that were acknowledged', async () => {
    const started = Date.now();
    const env = async (): Promise<Record<string, string>> => ({
      DATA_DIR: dataDir,
      API_PORT: String(await freePort()),
      COLLECTOR_PORT: String(await freePort()),
      DEMO_SEED: 'false',
    });
    const first = await env();
    service = await startService(first);
    // The login outlives the restart: sessions are kept in the embedded Postgres.
    const { projectId, cookie } = await createProject(`http://127.0.0.1:${first.API_PORT}`);
    const sent = await Promise.all(
      Array.from({ length: 2000 }, (_, i) =>
        fetch(`http://127.0.0.1:${first.COLLECTOR_PORT}/hit`, {
          method: 'POST',
          headers: { 'user-agent': VISITOR_USER_AGENT },
          body: JSON.stringify({ p: projectId, u: `https://blog.ru/post/${i}`, v: `reader-${i % 40}` }),
        }).then((r) => r.status),
      ),
    );
    const acknowledged = sent.filter((status) => status === 204).length;
    expect(acknowledged).toBe(2000);
    expect(await service.stop()).toBe(0);

    const second = await env();
    service = await startService(second);
        const totals = await summaryTotals(`http://127.0.0.1:${second.API_PORT}`, projectId, {
      ...periodSince(started),
      group: 'hour',
      metrics: ['page_views', 'visitors'],
    }, cookie);
    expect(totals).toEqual([acknowledged, 40]);
  });
});
