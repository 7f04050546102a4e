import type { ClickHouseClient } from '@clickhouse/client';
import { moscowDate, type AcceptedHit } from '@stat/schemas';
import { generateTraffic } from './traffic.js';

/** The demo project of the specification, read-only for all but administrators. */
export const DEMO_PROJECT_ID = 7596044;

/**
 * Fills the demo project with `days` of generated traffic ending now, through the
 * aggregator's own handler, unless it already has events. Returns the events written.
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
  for (const day of generateTraffic({
    projectId: DEMO_PROJECT_ID,
    fromDate: moscowDate(now - (days - 1) * 86_400_000),
    untilMs: now,
    visitsPerDay: 1400,
    seed: 7596044,
    siteUrl: 'https://demo.stat.example',
  })) {
    batch.push(...day);
    if (batch.length >= 50_000) {
      await handle(batch);
      written += batch.length;
      batch = [];
    }
  }
  if (batch.length > 0) await handle(batch);
  return written + batch.length;
}
