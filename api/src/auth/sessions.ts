import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Kv } from '../kv/kv.js';
import { SESSION_KV, SETTINGS, type ApiSettings } from '../tokens.js';

export interface SessionTokens {
  session: string;
  refresh: string;
}

interface Stored {
  uid: number;
  /** the refresh token's key, so that logout ends both */
  rk: string;
}

/**
 * Login sessions as opaque random tokens. The store keeps only their sha256, so a leaked
 * store does not log anyone in. A session token lives minutes; its refresh token lives weeks
 * and mints new session tokens until logout or expiry.
 */
@Injectable()
export class SessionService {
  constructor(
    @Inject(SESSION_KV) private readonly kv: Kv,
    @Inject(SETTINGS) private readonly settings: ApiSettings,
  ) {}

  async start(userId: number): Promise<SessionTokens> {
    const refresh = token();
    const rk = `rt:${digest(refresh)}`;
    await this.kv.set(rk, JSON.stringify({ uid: userId, rk } satisfies Stored), this.settings.refreshTtlS * 1000);
    const session = await this.mint(userId, rk);
    return { session, refresh };
  }

  /** The user of a session token, or null when it is unknown or expired. */
  async resolve(session: string): Promise<{ userId: number; key: string } | null> {
    const key = `st:${digest(session)}`;
    const stored = parse(await this.kv.get(key));
    return stored ? { userId: stored.uid, key } : null;
  }

  /** A new session token for a live refresh token, or null. */
  async refresh(refresh: string): Promise<{ session: string; userId: number } | null> {
    const stored = parse(await this.kv.get(`rt:${digest(refresh)}`));
    if (!stored) return null;
    return { session: await this.mint(stored.uid, stored.rk), userId: stored.uid };
  }

  /** Ends the session of either token (both go). */
  async end(session: string | undefined, refresh: string | undefined): Promise<void> {
    const keys: string[] = [];
    if (session) {
      const key = `st:${digest(session)}`;
      const stored = parse(await this.kv.get(key));
      keys.push(key);
      if (stored) keys.push(stored.rk);
    }
    if (refresh) keys.push(`rt:${digest(refresh)}`);
    await this.kv.del(...keys);
  }

  private async mint(userId: number, rk: string): Promise<string> {
    const session = token();
    await this.kv.set(`st:${digest(session)}`, JSON.stringify({ uid: userId, rk } satisfies Stored), this.settings.sessionTtlS * 1000);
    return session;
  }
}

function token(): string {
  return randomBytes(32).toString('base64url');
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

function parse(value: string | null): Stored | null {
  if (!value) return null;
  try {
    const stored = JSON.parse(value) as Stored;
    return typeof stored.uid === 'number' && typeof stored.rk === 'string' ? stored : null;
  } catch {
    return null;
  }
}
