import { describe, expect, it } from 'vitest';
import { MemoryKv } from '../kv/kv.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { ApiSettings } from '../tokens.js';
import { AuthService, REGISTRATION_CLOSED } from './auth.service.js';
import { AUTH_ATTEMPTS_PER_ADDRESS, LOGIN_WINDOW_MS, RateLimiter, TOO_MANY_LOGINS } from './rate-limit.js';
import type { SessionService } from './sessions.js';

// Needs: nothing. The registration limits, without hashing a hundred passwords through HTTP.
const settings = (registrationOpen: boolean): ApiSettings => ({
  prefix: 'top100', publicUrl: '', collectorPublicUrl: '', cookieSecure: false, sessionTtlS: 900, refreshTtlS: 86_400, registrationOpen, ratingSchedule: false, reportRequestsPerMinute: 600, goalCreationsPerMinute: 10,
  reportQuerySettings: { max_memory_usage: 0, max_rows_to_read: 0 }, reportSampleMinEvents: 0,
});
const users = { create: async () => { throw new Error('must not be reached'); } } as unknown as UsersRepository;
const sessions = {} as SessionService;

describe('AuthService.register', () => {
  it('429 once an address made 100 login or registration attempts in 15 minutes, before any work', async () => {
    const limiter = new RateLimiter(new MemoryKv());
    for (let i = 0; i < AUTH_ATTEMPTS_PER_ADDRESS; i++) await limiter.consume('auth:ip:10.1.2.3', AUTH_ATTEMPTS_PER_ADDRESS, LOGIN_WINDOW_MS, TOO_MANY_LOGINS);
    const auth = new AuthService(users, sessions, limiter, settings(true));
    await expect(auth.register({ email: 'a@b.cd', password: 'long enough' }, '10.1.2.3')).rejects.toMatchObject({
      status: 429,
      message: TOO_MANY_LOGINS,
    });
  });

  it('403 when registration is closed', async () => {
    const auth = new AuthService(users, sessions, new RateLimiter(new MemoryKv()), settings(false));
    await expect(auth.register({ email: 'a@b.cd', password: 'long enough' }, '10.1.2.3')).rejects.toMatchObject({ status: 403, message: REGISTRATION_CLOSED });
  });
});
