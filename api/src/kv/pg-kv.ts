import type { Db } from '../db/db.js';
import type { Kv } from './kv.js';

/** Keys in the `kv` table: the sessions of the embedded mode, which outlive a restart. */
export class PgKv implements Kv {
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly db: Db) {
    this.sweeper = setInterval(() => void this.db.query('DELETE FROM kv WHERE expires_at <= now()').catch(() => undefined), 600_000);
    this.sweeper.unref();
  }

  async get(key: string): Promise<string | null> {
    const [row] = await this.db.query<{ value: string }>('SELECT value FROM kv WHERE key = $1 AND expires_at > now()', [key]);
    return row?.value ?? null;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.db.query(
      `INSERT INTO kv (key, value, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
      [key, value, ttlMs],
    );
  }

  async del(...keys: string[]): Promise<void> {
    if (keys.length > 0) await this.db.query('DELETE FROM kv WHERE key = ANY($1::text[])', [keys]);
  }

  async take(key: string): Promise<string | null> {
    const [row] = await this.db.query<{ value: string; live: boolean }>(
      'DELETE FROM kv WHERE key = $1 RETURNING value, expires_at > now() AS live',
      [key],
    );
    return row?.live ? row.value : null;
  }

  async incr(key: string, windowMs: number): Promise<number> {
    const [row] = await this.db.query<{ value: string }>(
      `INSERT INTO kv (key, value, expires_at) VALUES ($1, '1', now() + $2 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET
         value      = CASE WHEN kv.expires_at > now() THEN (kv.value::bigint + 1)::text ELSE '1' END,
         expires_at = CASE WHEN kv.expires_at > now() THEN kv.expires_at ELSE excluded.expires_at END
       RETURNING value`,
      [key, windowMs],
    );
    return Number(row?.value ?? 1);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}
