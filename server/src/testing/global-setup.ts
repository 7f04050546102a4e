import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createAdministrator } from '@stat/api';
import { freePort, startService, type ServiceProcess } from './service.js';

/**
 * Starts the embedded service once for the suite, as `npm start` runs it (demo data
 * included), in a fresh data directory; its addresses reach tests through inject().
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'stat-test-'));
  const apiPort = await freePort();
  const collectorPort = await freePort();
  // An administrator, as an operator makes the first one (server/src/cli/create-admin.ts), for
  // the tests of staff-only screens.
  const admin = { email: 'admin@stat.test', password: 'administrator password' };
  await createAdministrator({ kind: 'pglite', dataDir: join(dataDir, 'postgres') }, admin.email, admin.password);
  // Seeding the demo takes most of the start (some 25 s alone here, more on a busy machine).
  const START_MS = 180_000;
  let service: ServiceProcess;
  service = await startService({
    DATA_DIR: dataDir,
    API_PORT: String(apiPort),
    COLLECTOR_PORT: String(collectorPort),
    KAFKA_BROKERS: '',
    CLICKHOUSE_URL: '',
    ROLES: 'collector,aggregator,api',
    // Every test of the suite calls reports from 127.0.0.1: one address, many users.
    REPORT_REQUESTS_PER_MINUTE: '100000',
    // A small demo (some 900 events a day), whole before the tests start: the default one, a
    // million events filled after «ready», would cost every run of the suite minutes.
    DEMO_VISITS_PER_DAY: '150',
    DEMO_SEED_WAIT: 'true',
    // No live demo visits: the tests count the demo's traffic exactly.
    DEMO_LIVE: 'false',
    // The suite's demo is small (some 30 000 events): the tests of «Точность» want the sample they
    // ask for, not the whole period that REPORT_SAMPLE_MIN_EVENTS gives a site this small.
    REPORT_SAMPLE_MIN_EVENTS: '0',
  }, START_MS);
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const collectorUrl = `http://127.0.0.1:${collectorPort}`;
  project.provide('apiUrl', apiUrl);
  project.provide('collectorUrl', collectorUrl);
  project.provide('admin', admin);
  process.env.STAT_API_URL = apiUrl;
  process.env.STAT_COLLECTOR_URL = collectorUrl;
  return async () => {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
