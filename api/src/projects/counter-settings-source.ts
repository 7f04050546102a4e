import type { Sql } from '../db/db.js';
import type { CounterSettings } from '@stat/schemas/projects';
import { counterSettings } from './project-view.js';

/** A project's site address and counter settings, as the aggregator applies them to hits. */
export interface StoredCounterSettings extends CounterSettings {
  url: string;
}

/**
 * The counter settings of live projects by id, defaults filled in: what the aggregator reads to
 * apply whitelists, blacklists and address merging. Deleted and unknown projects are left out.
 */
export async function readCounterSettings(sql: Sql, ids: readonly number[]): Promise<Map<number, StoredCounterSettings>> {
  const found = new Map<number, StoredCounterSettings>();
  if (ids.length === 0) return found;
  const rows = await sql.query<{ id: number; url: string; title: string; counter_settings: Record<string, unknown> }>(
    'SELECT id, url, title, counter_settings FROM projects WHERE id = ANY($1::int4[]) AND deleted_at IS NULL',
    [ids],
  );
  for (const row of rows) found.set(row.id, { ...counterSettings(row), url: row.url });
  return found;
}
