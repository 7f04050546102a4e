import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Kv } from '../kv/kv.js';
import { CLOCK, SESSION_KV, SETTINGS, type ApiSettings, type Clock } from '../tokens.js';

export interface SessionTokens {
  session: string;
  refresh: string;
}

/** What a session or refresh token's key holds. */
interface Stored {
  uid: number;
  /** the login this token belongs to: every token a login (and its refreshes) minted */
  f?: string;
  /** before logins had their own id: the refresh token's key, which named the login */
  rk?: string;
  /** a refresh token already exchanged for a new one: when (ms) */
  rotatedAt?: number;
  /** the user's generation when minted: "log out everywhere" raises it, ending older tokens */
  g?: number;
}

/**
 * How long a refresh token may be presented again after it was exchanged, and still get a
 * session token (no new refresh token): two tabs of one browser that refresh at once. After
 * that, the old token coming back means someone else holds it.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;

/**
 * Login sessions as opaque random tokens. The store keeps only their sha256, so a leaked
 * store does not log anyone in. A session token lives minutes; a refresh token lives weeks and
 * is exchanged, once, for a new session token and a new refresh token. Every token of one
 * login names the login; a login ends (logout, or its refresh token presented again after it
 * was exchanged) with a mark that every token of it checks, so all of them stop at once.
 */
@Injectable()
export class SessionService {
  constructor(
    @Inject(SESSION_KV) private readonly kv: Kv,
    @Inject(SETTINGS) private readonly settings: ApiSettings,
    @Inject(CLOCK) private readonly now: Clock,
  ) {}

  async start(userId: number): Promise<SessionTokens> {
    const login = token();
    return { session: await this.mint(userId, login), refresh: await this.newRefresh(userId, login) };
  }

  /** The user of a session token, or null when it is unknown, expired or its login ended. */
  async resolve(session: string): Promise<{ userId: number; key: string } | null> {
    const key = `st:${digest(session)}`;
    const stored = await this.live(key);
    return stored ? { userId: stored.uid, key } : null;
  }

  /**
   * Exchanges a refresh token: a new session token and a new refresh token (null when the
   * token was exchanged moments ago by a parallel call: the caller keeps the cookie that call
   * set). Null altogether when the token is unknown, expired, its login ended, or it had been
   * exchanged before: then the login ends for everyone holding any of its tokens.
   */
  async refresh(refresh: string): Promise<{ session: string; refresh: string | null; userId: number } | null> {
    const key = `rt:${digest(refresh)}`;
    const stored = await this.live(key);
    if (!stored) return null;
    const login = loginOf(stored);
    // One counter per refresh token decides, atomically in every store, who exchanges it.
    const uses = await this.kv.incr(`ru:${digest(refresh)}`, this.settings.refreshTtlS * 1000);
    if (uses === 1) {
      await this.kv.set(key, JSON.stringify({ ...stored, rotatedAt: this.now() } satisfies Stored), this.settings.refreshTtlS * 1000);
      return { session: await this.mint(stored.uid, login), refresh: await this.newRefresh(stored.uid, login), userId: stored.uid };
    }
    // A parallel exchange in progress (not yet marked) or just done: a session token only.
    if (stored.rotatedAt === undefined || this.now() - stored.rotatedAt <= REFRESH_REUSE_GRACE_MS) {
      return { session: await this.mint(stored.uid, login), refresh: null, userId: stored.uid };
    }
    await this.endLogin(login);
    return null;
  }

  /** Ends the login of either token: every session and refresh token it minted. */
  async end(session: string | undefined, refresh: string | undefined): Promise<void> {
    const keys = [session ? `st:${digest(session)}` : null, refresh ? `rt:${digest(refresh)}` : null].filter((k): k is string => k !== null);
    for (const key of keys) {
      const stored = parse(await this.kv.get(key));
      if (stored) await this.endLogin(loginOf(stored));
    }
    await this.kv.del(...keys);
  }

  /**
   * Ends every login of a user (a password change, «Выйти на всех устройствах»): the user's
   * generation becomes now, and a token minted under an older one is dead. The mark outlives every
   * token it could end, so when it expires nothing older is left to revive.
   */
  async endAll(userId: number): Promise<void> {
    const generation = Math.max(this.now(), (await this.generation(userId)) + 1);
    await this.kv.set(`gen:${userId}`, String(generation), Math.max(this.settings.refreshTtlS, this.settings.sessionTtlS) * 1000);
  }

  private async generation(userId: number): Promise<number> {
    return Number((await this.kv.get(`gen:${userId}`)) ?? 0) || 0;
  }

  /** Marks the login ended; the mark outlives every token the login could have minted. */
  private async endLogin(login: string): Promise<void> {
    await this.kv.set(`end:${login}`, '1', Math.max(this.settings.refreshTtlS, this.settings.sessionTtlS) * 1000);
  }

  /** The token stored under `key`, unless its login ended. */
  private async live(key: string): Promise<Stored | null> {
    const stored = parse(await this.kv.get(key));
    if (!stored) return null;
    if ((stored.g ?? 0) < (await this.generation(stored.uid))) return null;
    return (await this.kv.get(`end:${loginOf(stored)}`)) === null ? stored : null;
  }

  private async mint(userId: number, login: string): Promise<string> {
    const session = token();
    const g = await this.generation(userId);
    await this.kv.set(`st:${digest(session)}`, JSON.stringify({ uid: userId, f: login, g } satisfies Stored), this.settings.sessionTtlS * 1000);
    return session;
  }

  private async newRefresh(userId: number, login: string): Promise<string> {
    const refresh = token();
    const g = await this.generation(userId);
    await this.kv.set(`rt:${digest(refresh)}`, JSON.stringify({ uid: userId, f: login, g } satisfies Stored), this.settings.refreshTtlS * 1000);
    return refresh;
  }
}

function token(): string {
  return randomBytes(32).toString('base64url');
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

function loginOf(stored: Stored): string {
  return (stored.f ?? stored.rk) as string;
}

function parse(value: string | null): Stored | null {
  if (!value) return null;
  try {
    const stored = JSON.parse(value) as Stored;
    return typeof stored.uid === 'number' && (typeof stored.f === 'string' || typeof stored.rk === 'string') ? stored : null;
  } catch {
    return null;
  }
}
