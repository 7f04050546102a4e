import { healthOf, type HealthReport, type HealthSources } from '@stat/schemas';
import { createMetrics, readinessFrom, type Logger, type Metrics, type OpsEndpoints, type Probe } from '@stat/telemetry';
import type { Config } from '../config.js';

/**
 * What the parts of one process share: its configuration and logger, one metrics registry, the
 * servers it probes for /ready, its health sources, the ops endpoints every port answers, and
 * what closes at a stop once ingestion is done.
 */
export interface ProcessKit {
  config: Config;
  logger: Logger;
  log(message: string): void;
  metrics: Metrics;
  /** The servers this process needs, probed for /ready (the api adds its own). */
  probes: Probe[];
  health: HealthSources;
  healthReport(): HealthReport;
  ops: OpsEndpoints;
  /** Closed in order at a stop, after the collector and the aggregator stopped. */
  closers: (() => Promise<void>)[];
  /** From now on /ready says «stopping». */
  markStopping(): void;
}

export function createKit(config: Config, logger: Logger): ProcessKit {
  const metrics = createMetrics();
  const probes: Probe[] = [];
  const health: HealthSources = { bus: null };
  const healthReport = (): HealthReport => healthOf(health);
  // From the first moment of a stop the process says it is not ready (a balancer sends its
  // traffic elsewhere), while it goes on answering what still comes until its ports close.
  let stopping = false;
  const readiness = readinessFrom(healthReport, probes);
  return {
    config,
    logger,
    log: (message) => logger.info(message),
    metrics,
    probes,
    health,
    healthReport,
    ops: { metrics, ready: async () => (stopping ? { ready: false, reasons: ['stopping'] } : readiness()) },
    closers: [],
    markStopping: () => {
      stopping = true;
    },
  };
}

/** How long a stop may take: it stores or keeps on disk everything acknowledged within it. */
export const STOP_MS = 15_000;

/** The promise, or a rejection once `ms` passed (what is stopped must not hold the exit forever). */
export async function within<T>(ms: number, promise: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
