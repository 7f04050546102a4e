import { ReportEngine } from '../engine/index.js';
import type { ClickHouseClient } from '@stat/storage';
import { describe, expect, it } from 'vitest';
import type { Db, Sql } from '../db/db.js';
import type { ApiSettings } from '../tokens.js';
import { RatingService, RECOMPUTE_DUE_MS } from './rating.service.js';

// Needs: nothing. The recompute's one-at-a-time rule on a scripted database; the real SQL runs
// in rating.suite.ts (PGlite and PostgreSQL).
const settings: ApiSettings = {
  prefix: 'top100', publicUrl: '', collectorPublicUrl: '', cookieSecure: false, sessionTtlS: 900, refreshTtlS: 86_400, registrationOpen: true, ratingSchedule: false,
  reportRequestsPerMinute: 600, goalCreationsPerMinute: 10, reportQuerySettings: { max_memory_usage: 0, max_rows_to_read: 0 }, reportSampleMinEvents: 0,
};

/** A database whose advisory lock is free or held by another process, with one rated site. */
function scripted(lockFree: boolean, lastComputed: Date | null = null) {
  const statements: string[] = [];
  let clickhouseQueries = 0;
  const tx: Sql = {
    async query<T>(text: string): Promise<T[]> {
      statements.push(text.trim().split(/\s+/).slice(0, 3).join(' '));
      if (text.includes('pg_try_advisory_xact_lock')) return [{ locked: lockFree }] as T[];
      if (text.includes('max(computed_at)')) return [{ at: lastComputed }] as T[];
      if (text.includes('FROM projects WHERE rating_status')) {
        return [{ id: 8_000_001, categories: [101, 102], created_at: new Date(), rating_status: 'included' }] as T[];
      }
      return [];
    },
    async exec() {},
  };
  const db: Db = { kind: 'postgres', query: tx.query, exec: tx.exec, transaction: (work) => work(tx), close: async () => {} };
  const clickhouse = {
    query: async () => {
      clickhouseQueries += 1;
      // Slow enough that a second call arrives while the first runs.
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { json: async () => [{ project_id: '8000001', span: 0, m0: '3' }] };
    },
  } as unknown as ClickHouseClient;
  return { service: new RatingService(db, new ReportEngine(clickhouse), settings), statements, clickhouseQueries: () => clickhouseQueries };
}

describe('RatingService.recompute', () => {
  it('does nothing and answers null while another process holds the lock', async () => {
    const { service, statements, clickhouseQueries } = scripted(false);
    expect(await service.recompute()).toBeNull();
    expect(statements).toEqual(['SELECT pg_try_advisory_xact_lock($1::int, hashtext(current_schema()))']);
    expect(clickhouseQueries()).toBe(0);
  });

  it('writes the positions once for calls made in this process while it runs; a later call runs again', async () => {
    const { service, statements, clickhouseQueries } = scripted(true);
    expect(await Promise.all([service.recompute(), service.recompute()])).toEqual([2, 2]);
    expect(clickhouseQueries()).toBe(1);
    expect(statements.filter((s) => s.startsWith('INSERT INTO rating_positions'))).toHaveLength(2);
    expect(await service.recompute()).toBe(2);
    expect(clickhouseQueries()).toBe(2);
  });
});

describe('RatingService.recomputeIfDue (the daily timer of every api process)', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');

  it('skips when any process computed the positions less than 23 hours ago', async () => {
    const { service, clickhouseQueries } = scripted(true, new Date(now - RECOMPUTE_DUE_MS + 60_000));
    expect(await service.recomputeIfDue(now)).toBeNull();
    expect(clickhouseQueries()).toBe(0);
  });

  it('recomputes when the positions are older, or were never computed', async () => {
    const old = scripted(true, new Date(now - RECOMPUTE_DUE_MS));
    expect(await old.service.recomputeIfDue(now)).toBe(2);
    const never = scripted(true, null);
    expect(await never.service.recomputeIfDue(now)).toBe(2);
    expect(old.clickhouseQueries() + never.clickhouseQueries()).toBe(2);
  });
});
