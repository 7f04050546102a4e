import { join } from 'node:path';
import type { ClickHouseClient } from '@stat/storage';
import { startApi, type RunningApi } from '@stat/api';
import { DEMO_PROJECT_ID } from '../demo/seed.js';
import type { ProcessKit } from './kit.js';

/** Starts the api (and the web app it serves) on API_PORT; `demoFilling` tells the demo's readers. */
export async function startApiRole(kit: ProcessKit, clickhouse: ClickHouseClient, demoFilling: () => boolean): Promise<RunningApi> {
  const { config, log } = kit;
  const api = await startApi(
    {
      host: config.HOST,
      port: config.API_PORT,
      prefix: config.API_PREFIX,
      webDir: config.webDir,
      snippetDir: config.snippetDir,
      postgres: config.DATABASE_URL ? { kind: 'postgres', url: config.DATABASE_URL } : { kind: 'pglite', dataDir: join(config.DATA_DIR, 'postgres') },
      redisUrl: config.REDIS_URL,
      publicUrl: config.apiPublicUrl,
      collectorPublicUrl: config.collectorPublicUrl,
      cookieSecure: config.COOKIE_SECURE,
      sessionTtlS: config.SESSION_TTL_S,
      refreshTtlS: config.REFRESH_TTL_S,
      registrationOpen: config.REGISTRATION_OPEN,
      trustProxy: config.TRUST_PROXY,
      health: kit.healthReport,
      demoState: () => ({ filling: demoFilling() }),
      reportRequestsPerMinute: config.REPORT_REQUESTS_PER_MINUTE,
      goalCreationsPerMinute: config.GOAL_CREATIONS_PER_MINUTE,
      reportMaxMemoryBytes: config.REPORT_MAX_MEMORY_BYTES,
      reportMaxRowsToRead: config.REPORT_MAX_ROWS_TO_READ,
      reportSampleMinEvents: config.REPORT_SAMPLE_MIN_EVENTS,
      metrics: kit.metrics,
      logger: kit.logger.child({ part: 'api' }),
      ready: kit.ops.ready,
    },
    clickhouse,
  );
  kit.probes.push(...api.probes);
  kit.closers.push(() => api.close());
  log(`web app:   http://${config.HOST}:${config.API_PORT}/stat/projects/${DEMO_PROJECT_ID}/new/report/summary`);
  log(`api:       http://${config.HOST}:${config.API_PORT}/${config.API_PREFIX}/api/report/v1.0/...`);
  log(`snippet:   http://${config.HOST}:${config.API_PORT}/counter/counter.js`);
  return api;
}
