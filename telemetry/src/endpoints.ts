import { readinessOf, type DependencyCheck, type HealthReport, type ReadinessReport } from '@stat/schemas';
import type { Metrics } from './metrics.js';

/** A server this process needs, and how to tell it answers (rejects when it does not). */
export interface Probe {
  name: DependencyCheck['name'];
  check: () => Promise<unknown>;
}

/** What the operations endpoints of every process read. */
export interface OpsEndpoints {
  metrics: Metrics;
  /** GET /ready's answer */
  ready: () => Promise<ReadinessReport>;
}

/** An answer of an operations endpoint, for whichever HTTP server the process runs. */
export interface OpsAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** How long one probe may take before its server counts as unreachable. */
export const PROBE_TIMEOUT_MS = 2_000;

/** Readiness from the process's health and its probes, run side by side, each within PROBE_TIMEOUT_MS. */
export function readinessFrom(health: () => HealthReport, probes: readonly Probe[]): () => Promise<ReadinessReport> {
  return async () => {
    const checks = await Promise.all(
      probes.map(async ({ name, check }): Promise<DependencyCheck> => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS)));
        try {
          await Promise.race([check(), timeout]);
          return { name, error: null };
        } catch (error) {
          return { name, error: error instanceof Error ? error.message : String(error) };
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return readinessOf(health(), checks);
  };
}

const JSON_TYPE = 'application/json';

/** The answer to GET `path` when it is /live, /ready or /metrics; null for any other path. */
export async function opsAnswer(path: string, ops: OpsEndpoints): Promise<OpsAnswer | null> {
  switch (path) {
    case '/live':
      return { status: 200, contentType: JSON_TYPE, body: '{"status":"ok"}' };
    case '/ready': {
      const report = await ops.ready();
      return { status: report.ready ? 200 : 503, contentType: JSON_TYPE, body: JSON.stringify(report) };
    }
    case '/metrics': {
      const { contentType, body } = await ops.metrics.scrape();
      return { status: 200, contentType, body };
    }
    default:
      return null;
  }
}
