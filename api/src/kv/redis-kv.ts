import { Redis } from 'ioredis';
import type { Kv } from './kv.js';

// INCR and the expiry of a new window in one step, so a crash between them cannot leave a
// counter that never expires.
const INCR_WINDOW = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/** Keys in Redis, shared by every api process of the cluster mode. */
export class RedisKv implements Kv {
  private constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Connects and checks the server answers; a missing server is a start-up error. */
  static async open(url: string, prefix = 'stat:'): Promise<RedisKv> {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      redis.disconnect();
      throw new Error(`Redis at ${redactUrl(url)} does not answer: ${error instanceof Error ? error.message : String(error)}`);
    }
    return new RedisKv(redis, prefix);
  }

  /** Resolves when the server answers PING (readiness); rejects otherwise. */
  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async get(key: string): Promise<string | null> {
    return this.redis.get(this.prefix + key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + key, value, 'PX', Math.max(1, Math.round(ttlMs)));
  }

  async del(...keys: string[]): Promise<void> {
    if (keys.length > 0) await this.redis.del(...keys.map((k) => this.prefix + k));
  }

  async take(key: string): Promise<string | null> {
    return this.redis.getdel(this.prefix + key);
  }

  async incr(key: string, windowMs: number): Promise<number> {
    return Number(await this.redis.eval(INCR_WINDOW, 1, this.prefix + key, Math.max(1, Math.round(windowMs))));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured address';
  }
}
