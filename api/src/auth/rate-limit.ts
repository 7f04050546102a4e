import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Kv } from '../kv/kv.js';
import { LIMIT_KV } from '../tokens.js';

export const LOGIN_WINDOW_MS = 15 * 60_000;
/** Failed logins for one e-mail in the window. */
export const LOGIN_FAILURES_PER_EMAIL = 10;
/** Login and registration attempts from one address in the window. */
export const AUTH_ATTEMPTS_PER_ADDRESS = 100;
export const TOO_MANY_LOGINS = 'Слишком много попыток входа. Попробуйте через 15 минут.';
/** The limit of a user's lookups (e-mails, ownership checks, site titles) a minute. */
export const TOO_MANY_REQUESTS = 'Слишком много запросов, попробуйте через минуту';

/** Fixed-window counters in the shared store. */
@Injectable()
export class RateLimiter {
  constructor(@Inject(LIMIT_KV) private readonly kv: Kv) {}

  /** Counts one attempt; throws 429 with `message` once `limit` attempts were made in the window. */
  async consume(key: string, limit: number, windowMs: number, message: string): Promise<void> {
    const count = await this.kv.incr(`rl:${key}`, windowMs);
    if (count > limit) throw new HttpException(message, HttpStatus.TOO_MANY_REQUESTS);
  }

  async reset(key: string): Promise<void> {
    await this.kv.del(`rl:${key}`);
  }
}
