import { Body, Controller, HttpCode, Inject, Post, Put, Req, Res, UnauthorizedException } from '@nestjs/common';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CurrentUser } from '@stat/schemas/accounts';
import { ok, type Envelope } from '../common/envelope.js';
import { validated } from '../common/validated.js';
import { SETTINGS, type ApiSettings } from '../tokens.js';
import { userView } from '../users/user-view.js';
import { User } from './access.guard.js';
import { ChangePasswordDto, HintsDto, LoginDto, ProfileDto, RegisterDto } from './auth.dto.js';
import { AuthService } from './auth.service.js';
import { parseCookies, REFRESH_COOKIE, serializeCookie, SESSION_COOKIE } from './cookies.js';
import { LoggedIn, Public } from './policy.js';
import type { Principal } from './principal.js';
import { TOO_MANY_LOGINS } from './rate-limit.js';
import { SessionService, type SessionTokens } from './sessions.js';

const SESSION_EXPIRED = 'Сессия истекла, войдите снова';

@Controller()
export class AuthController {
  constructor(
    @Inject(AuthService) private readonly auth: AuthService,
    @Inject(SessionService) private readonly sessions: SessionService,
    @Inject(SETTINGS) private readonly settings: ApiSettings,
  ) {}

  @Post('api/v1.0/auth/register')
  @Public()
  @ApiTooManyRequestsResponse({ description: TOO_MANY_LOGINS })
  @HttpCode(200)
  async register(
    @Body(validated(RegisterDto)) body: RegisterDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Envelope<CurrentUser>> {
    const { user, tokens } = await this.auth.register(body, request.ip);
    this.setCookies(reply, tokens);
    return ok(userView(user));
  }

  @Post('api/v1.0/auth/login')
  @Public()
  @ApiTooManyRequestsResponse({ description: TOO_MANY_LOGINS })
  @HttpCode(200)
  async login(
    @Body(validated(LoginDto)) body: LoginDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Envelope<CurrentUser>> {
    const { user, tokens } = await this.auth.login(body, request.ip);
    this.setCookies(reply, tokens);
    return ok(userView(user));
  }

  /**
   * Exchanges the refresh cookie for a new session cookie and a new refresh cookie; the client
   * calls it once on a 401. A refresh cookie that was exchanged before ends its login (401).
   */
  @Post('api/v1.0/auth/refresh')
  @Public()
  @HttpCode(204)
  async refresh(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const refresh = parseCookies(request.headers.cookie).get(REFRESH_COOKIE);
    const renewed = refresh ? await this.sessions.refresh(refresh) : null;
    if (!renewed) {
      void reply.header('set-cookie', this.clearedCookies());
      throw new UnauthorizedException(SESSION_EXPIRED);
    }
    const cookies = [this.cookie(SESSION_COOKIE, renewed.session, this.settings.sessionTtlS)];
    if (renewed.refresh) cookies.push(this.cookie(REFRESH_COOKIE, renewed.refresh, this.settings.refreshTtlS));
    void reply.header('set-cookie', cookies);
  }

  /** The profile's name. */
  @Put('api/v1.0/user/current')
  @LoggedIn()
  async rename(@User() user: Principal, @Body(validated(ProfileDto)) body: ProfileDto): Promise<Envelope<CurrentUser>> {
    return ok(userView(await this.auth.rename(user, body.user_name)));
  }

  /** The report hints the user hid (spec 001 §2 "Hints"), kept for every browser the user logs in with. */
  @Put('api/v1.0/user/current/hints')
  @LoggedIn()
  async setHints(@User() user: Principal, @Body(validated(HintsDto)) body: HintsDto): Promise<Envelope<CurrentUser>> {
    return ok(userView(await this.auth.setHints(user, body)));
  }

  /** A new password: every other device is logged out, this one gets new cookies. */
  @Post('api/v1.0/user/current/password')
  @LoggedIn()
  @HttpCode(200)
  async changePassword(
    @User() user: Principal,
    @Body(validated(ChangePasswordDto)) body: ChangePasswordDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Envelope<CurrentUser>> {
    const changed = await this.auth.changePassword(user, body.current_password, body.new_password);
    this.setCookies(reply, changed.tokens);
    return ok(userView(changed.user));
  }

  /** «Выйти на всех устройствах»: every login of the user ends, this one too. */
  @Post('api/v1.0/user/current/logout_all')
  @LoggedIn()
  @HttpCode(204)
  async logoutAll(@User() user: Principal, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.sessions.endAll(user.id);
    void reply.header('set-cookie', this.clearedCookies());
  }

  /** Ends the login of either cookie (one is enough): all of its session and refresh tokens. */
  @Post('logout')
  @Public()
  @HttpCode(204)
  async logout(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const cookies = parseCookies(request.headers.cookie);
    await this.sessions.end(cookies.get(SESSION_COOKIE), cookies.get(REFRESH_COOKIE));
    void reply.header('set-cookie', this.clearedCookies());
  }

  private clearedCookies(): string[] {
    return [this.cookie(SESSION_COOKIE, '', 0), this.cookie(REFRESH_COOKIE, '', 0)];
  }

  private setCookies(reply: FastifyReply, tokens: SessionTokens): void {
    void reply.header('set-cookie', [
      this.cookie(SESSION_COOKIE, tokens.session, this.settings.sessionTtlS),
      this.cookie(REFRESH_COOKIE, tokens.refresh, this.settings.refreshTtlS),
    ]);
  }

  private cookie(name: string, value: string, maxAgeS: number): string {
    return serializeCookie(name, value, { path: `/${this.settings.prefix}`, maxAgeS, secure: this.settings.cookieSecure });
  }
}
