import { DEMO_PROJECT_ID, type DemoSeeding } from '../demo/seed.js';
import { localCollector, startDemoLive } from '../demo/live.js';
import type { ProcessKit } from './kit.js';

export interface RunningDemo {
  /** Whether the seed is still filling the demo project (the api tells the demo's readers). */
  filling(): boolean;
  /** Stops the live visits and the seed; what the seed has not stored is generated again at the next start. */
  stop(deadline: number): Promise<void>;
}

/**
 * The demo project after «ready»: the seed that was left for later, and the demo's live visits
 * through this process's own collector (embedded mode).
 */
export function startDemo(kit: ProcessKit, seedLater: (() => DemoSeeding) | null, embedded: boolean): RunningDemo {
  const { config, log, logger } = kit;
  const seeding = seedLater?.() ?? null;
  let filling = seeding !== null;
  // Storing failed (an outage that outlasted the stop, a full disk): the service goes on without it.
  seeding?.done
    .catch((error: unknown) => logger.error(`demo project ${DEMO_PROJECT_ID}: the seed failed: ${String(error)}`))
    .finally(() => {
      filling = false;
    });
  const live = config.DEMO_SEED && config.DEMO_LIVE && embedded ? startDemoLive({ collectorUrl: localCollector(config.HOST, config.COLLECTOR_PORT), visitsPerDay: config.DEMO_VISITS_PER_DAY }, log) : null;
  return {
    filling: () => filling,
    stop: async (deadline) => {
      live?.stop();
      if (seeding) await seeding.stop(Math.min(deadline, Date.now() + 5_000));
    },
  };
}
