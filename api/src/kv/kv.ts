/**
 * Short-lived keys shared by the api processes: login sessions, rate-limit counters and captcha
 * challenges. Redis in cluster mode; in embedded mode (one process) sessions live in Postgres
 * (PGlite), so a restart keeps users logged in, and counters live in this process's memory,
 * which is then the only process that counts.
 */
export interface Kv {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  del(...keys: string[]): Promise<void>;
  /** Reads and deletes in one step: a value taken once is gone for every other process. */
  take(key: string): Promise<string | null>;
  /** Adds one to a counter whose window starts at its first increment; returns the new count. */
  incr(key: string, windowMs: number): Promise<number>;
  close(): Promise<void>;
}

/** Keys in this process's memory: for the one process of the embedded mode, and tests. */
export class MemoryKv implements Kv {
  private readonly entries = new Map<string, { value: string; expires: number }>();
  private sets = 0;

  async get(key: string): Promise<string | null> {
    return this.live(key)?.value ?? null;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.entries.set(key, { value, expires: Date.now() + ttlMs });
    // Expired keys nobody reads again are swept now and then, so memory stays bounded.
    if (++this.sets % 1000 === 0) this.sweep();
  }

  async del(...keys: string[]): Promise<void> {
    for (const key of keys) this.entries.delete(key);
  }

  async take(key: string): Promise<string | null> {
    const entry = this.live(key);
    this.entries.delete(key);
    return entry?.value ?? null;
  }

  async incr(key: string, windowMs: number): Promise<number> {
    const entry = this.live(key);
    const count = entry ? Number(entry.value) + 1 : 1;
    await this.set(key, String(count), entry ? entry.expires - Date.now() : windowMs);
    return count;
  }

  async close(): Promise<void> {
    this.entries.clear();
  }

  private live(key: string): { value: string; expires: number } | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
  }
}
