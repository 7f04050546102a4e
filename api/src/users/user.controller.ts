import { Controller, Get, Inject, Query, Req, Res, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CurrentUser as Account } from '@stat/schemas/accounts';
import { ok, type Envelope } from '../common/envelope.js';
import { validated } from '../common/validated.js';
import { CurrentUser, LOGIN_REQUIRED, User } from '../auth/access.guard.js';
import { parseCookies, REFRESH_COOKIE, SESSION_COOKIE } from '../auth/cookies.js';
import { LoggedIn, Public } from '../auth/policy.js';
import type { Principal } from '../auth/principal.js';
import { UserProjectsQueryDto } from '../projects/project.dto.js';
import { ProjectService } from '../projects/project.service.js';
import { userView } from './user-view.js';

@Controller('api/v1.0/user')
export class UserController {
  constructor(@Inject(ProjectService) private readonly projects: ProjectService) {}

  /**
   * The logged-in user. A caller without either login cookie is nobody, which is no error: 204,
   * an empty result (spec 000 §7), so an anonymous visit of the demo project asks nothing more.
   * A cookie that no longer logs in is 401, and the client refreshes once (§7).
   */
  @Get('current')
  @Public()
  current(@CurrentUser() user: Principal | null, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Envelope<Account> | undefined {
    if (user) return ok(userView(user));
    const cookies = parseCookies(request.headers.cookie);
    if (cookies.has(SESSION_COOKIE) || cookies.has(REFRESH_COOKIE)) throw new UnauthorizedException(LOGIN_REQUIRED);
    void reply.status(204);
    return undefined;
  }

  /** The project switcher: projects linked to the user, up to 100. */
  @Get('current/projects')
  @LoggedIn()
  async projects_(@User() user: Principal, @Query(validated(UserProjectsQueryDto)) query: UserProjectsQueryDto) {
    return ok(await this.projects.linked(user, query));
  }
}
