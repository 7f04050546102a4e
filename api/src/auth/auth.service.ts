import { BadRequestException, ForbiddenException, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { hintStateOf, storedHints, type HintState } from '@stat/schemas/hints';
import { normalizeEmail, UsersRepository } from '../users/users.repository.js';
import { SETTINGS, type ApiSettings } from '../tokens.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { ROLE } from '@stat/schemas/accounts';
import type { Principal } from './principal.js';
import {
  AUTH_ATTEMPTS_PER_ADDRESS,
  LOGIN_FAILURES_PER_EMAIL,
  LOGIN_WINDOW_MS,
  RateLimiter,
  TOO_MANY_LOGINS,
} from './rate-limit.js';
import { SessionService, type SessionTokens } from './sessions.js';

const EMAIL_TAKEN = 'Пользователь с таким email уже зарегистрирован';
const BAD_CREDENTIALS = 'Неверный email или пароль';
export const REGISTRATION_CLOSED = 'Регистрация закрыта';
/** A 400, not a 401: the client takes a 401 for a lost session and would refresh and retry. */
const WRONG_CURRENT_PASSWORD = 'Неверный текущий пароль';

/**
 * Password accounts. An OpenID Connect login would be a second way to reach `SessionService.start`
 * with a user found by (auth_type 'oidc', external_subject): nothing below that changes.
 */
@Injectable()
export class AuthService {
  constructor(
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(SessionService) private readonly sessions: SessionService,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(SETTINGS) private readonly settings: ApiSettings,
  ) {}

  async register(
    body: { email: string; password: string; user_name?: string | undefined },
    address: string,
  ): Promise<{ user: Principal; tokens: SessionTokens }> {
    if (!this.settings.registrationOpen) throw new ForbiddenException(REGISTRATION_CLOSED);
    await this.limiter.consume(`auth:ip:${address}`, AUTH_ATTEMPTS_PER_ADDRESS, LOGIN_WINDOW_MS, TOO_MANY_LOGINS);
    const passwordHash = await hashPassword(body.password);
    const id = await this.users.create({ email: body.email, passwordHash, userName: body.user_name?.trim() ?? '', roleId: ROLE.USER });
    if (id === null) throw new BadRequestException(EMAIL_TAKEN);
    return this.startSession(id);
  }

  async login(body: { email: string; password: string }, address: string): Promise<{ user: Principal; tokens: SessionTokens }> {
    const email = normalizeEmail(body.email);
    await this.limiter.consume(`auth:ip:${address}`, AUTH_ATTEMPTS_PER_ADDRESS, LOGIN_WINDOW_MS, TOO_MANY_LOGINS);
    // Each attempt is counted before its password is checked, in one atomic step of the shared
    // store: of any number of parallel attempts, only LOGIN_FAILURES_PER_EMAIL are checked.
    // A correct password clears the count, so it counts the failures of the window.
    await this.limiter.consume(`login:fail:${email}`, LOGIN_FAILURES_PER_EMAIL, LOGIN_WINDOW_MS, TOO_MANY_LOGINS);
    const account = await this.users.credentials(email);
    if (!(await verifyPassword(account?.passwordHash ?? null, body.password)) || !account) {
      throw new UnauthorizedException(BAD_CREDENTIALS);
    }
    await this.limiter.reset(`login:fail:${email}`);
    return this.startSession(account.id);
  }

  async setHints(user: Principal, hints: HintState): Promise<Principal> {
    await this.users.setMetaTips(user.id, storedHints(hintStateOf(hints)));
    return (await this.users.principal(user.id)) ?? user;
  }

  async rename(user: Principal, userName: string): Promise<Principal> {
    await this.users.setName(user.id, userName.trim());
    return (await this.users.principal(user.id)) ?? user;
  }

  /**
   * A new password, proven by the current one (failures counted as a login's); every login of
   * the user ends, and the caller gets a new one.
   */
  async changePassword(user: Principal, current: string, next: string): Promise<{ user: Principal; tokens: SessionTokens }> {
    await this.limiter.consume(`password:fail:${user.id}`, LOGIN_FAILURES_PER_EMAIL, LOGIN_WINDOW_MS, TOO_MANY_LOGINS);
    if (!(await verifyPassword(await this.users.passwordHash(user.id), current))) throw new BadRequestException(WRONG_CURRENT_PASSWORD);
    await this.limiter.reset(`password:fail:${user.id}`);
    await this.users.setPasswordHash(user.id, await hashPassword(next));
    await this.sessions.endAll(user.id);
    return this.startSession(user.id);
  }

  private async startSession(userId: number): Promise<{ user: Principal; tokens: SessionTokens }> {
    const user = await this.users.principal(userId);
    if (!user) throw new UnauthorizedException(BAD_CREDENTIALS);
    return { user, tokens: await this.sessions.start(userId) };
  }
}
