import { moscowDate, moscowDayStart, type AcceptedHit } from '@stat/schemas';
import type { ClickHouseClient } from '@stat/storage';
import { generateTraffic } from './traffic.js';

/** The demo project of the specification, read-only for all but administrators. */
export const DEMO_PROJECT_ID = 7596044;

/** The demo site's address and the seed of its traffic: the demo looks the same on every machine. */
export const DEMO_SITE_URL = 'https://demo.stat.example';
export const DEMO_SEED = 7596044;

/**
 * Events a day of demo traffic: a small site (some 250 visits a day) that fills every report,
 * small enough to be written at every first start and in the test suite's setup in seconds.
 */
export const DEMO_EVENTS_PER_DAY = 800;

/** Hits handed to the aggregator at once. */
const BATCH = 50_000;

/**
 * Fills the demo project with `days` of generated traffic ending now (the first day from Moscow
 * midnight), through the aggregator's own handler, unless it already has events. Returns the
 * events written.
 */
export async function seedDemo(
  clickhouse: ClickHouseClient,
  handle: (hits: AcceptedHit[]) => Promise<void>,
  days: number,
): Promise<number> {
  const existing = await clickhouse.query({
    query: 'SELECT count() AS n FROM events WHERE project_id = {project:UInt32}',
    query_params: { project: DEMO_PROJECT_ID },
    format: 'JSONEachRow',
  });
  const [row] = await existing.json<{ n: string | number }>();
  if (Number(row?.n ?? 0) > 0) return 0;
  const now = Date.now();
  let written = 0;
  let batch: AcceptedHit[] = [];
  for (const slice of generateTraffic({
    projectId: DEMO_PROJECT_ID,
    siteUrl: DEMO_SITE_URL,
    events: DEMO_EVENTS_PER_DAY * days,
    fromMs: moscowDayStart(moscowDate(now - (days - 1) * 86_400_000)),
    untilMs: now,
    seed: DEMO_SEED,
  })) {
    for (const hit of slice) batch.push(hit);
    if (batch.length >= BATCH) {
      await handle(batch);
      written += batch.length;
      batch = [];
    }
  }
  if (batch.length > 0) await handle(batch);
  return written + batch.length;
}
