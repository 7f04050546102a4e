import {
  ForbiddenException,
  Inject,
  Injectable,
  InternalServerErrorException,
  NotFoundException,
  UnauthorizedException,
  createParamDecorator,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { parseRowId } from '../http/id.pipe.js';
import { UsersRepository } from '../users/users.repository.js';
import { parseCookies, SESSION_COOKIE } from './cookies.js';
import { POLICY, READ_ONLY, type Policy } from './policy.js';
import { can, type Principal, type RequestAuth } from './principal.js';
import { ProjectAccess, type ProjectRights } from './project-access.js';
import { SessionService } from './sessions.js';
import { FORBIDDEN, LOGIN_REQUIRED, PROJECT_NOT_FOUND } from './access-texts.js';

export { FORBIDDEN, LOGIN_REQUIRED, PROJECT_NOT_FOUND } from './access-texts.js';
export const CSRF_MESSAGE = 'CSRF check failed: send the X-Requested-With header';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type AuthedRequest = FastifyRequest & { auth?: RequestAuth; project?: ProjectRights };

/**
 * The one guard of the api. Every route declares a policy (policy.ts); this guard reads the
 * session, demands the CSRF header on state-changing calls, and decides the policy. A route
 * without a policy is refused.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(SessionService) private readonly sessions: SessionService,
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(ProjectAccess) private readonly projects: ProjectAccess,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const policy = this.reflector.getAllAndOverride<Policy | undefined>(POLICY, targets);
    if (!policy) throw new InternalServerErrorException(`${context.getClass().name}.${context.getHandler().name} declares no access policy`);
    const request = context.switchToHttp().getRequest<AuthedRequest>();

    const readOnly = this.reflector.getAllAndOverride<boolean | undefined>(READ_ONLY, targets) === true;
    if (UNSAFE_METHODS.has(request.method) && !readOnly && !request.headers['x-requested-with']) {
      throw new ForbiddenException(CSRF_MESSAGE);
    }

    const auth = await this.authenticate(request);
    request.auth = auth;
    const user = auth.user;
    switch (policy.kind) {
      case 'public':
        return true;
      case 'user':
        if (!user) throw new UnauthorizedException(LOGIN_REQUIRED);
        return true;
      case 'permission':
        if (!user) throw new UnauthorizedException(LOGIN_REQUIRED);
        if (!can(user, policy.permission)) throw new ForbiddenException(FORBIDDEN);
        return true;
      case 'project': {
        const projectId = parseProjectId((request.params as Record<string, string | undefined>)[policy.param]);
        const rights = await this.projects.rights(user, projectId);
        if (!rights || (rights.deleted && !policy.deleted)) throw new NotFoundException(PROJECT_NOT_FOUND);
        const allowed =
          policy.level === 'edit'
            ? rights.edit
            : policy.level === 'known'
              ? user !== null
              : rights.view || (policy.level === 'widget' && rights.widget);
        if (!allowed || (policy.permission && !can(user, policy.permission))) {
          throw user ? new ForbiddenException(FORBIDDEN) : new UnauthorizedException(LOGIN_REQUIRED);
        }
        request.project = rights;
        return true;
      }
    }
  }

  private async authenticate(request: AuthedRequest): Promise<RequestAuth> {
    const token = parseCookies(request.headers.cookie).get(SESSION_COOKIE);
    if (!token) return { user: null, sessionKey: null };
    const session = await this.sessions.resolve(token);
    if (!session) return { user: null, sessionKey: null };
    const user = await this.users.principal(session.userId);
    return { user, sessionKey: user ? session.key : null };
  }
}

/** A project id from the path: a whole number from 1 to 2 147 483 647, written in digits. */
function parseProjectId(value: string | undefined): number {
  return parseRowId(value, 'projectId');
}

/** The logged-in user, or null (on public routes). */
export const CurrentUser = createParamDecorator((_: unknown, context: ExecutionContext): Principal | null => {
  return context.switchToHttp().getRequest<AuthedRequest>().auth?.user ?? null;
});

/** The logged-in user on a route whose policy demands one. */
export const User = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const user = context.switchToHttp().getRequest<AuthedRequest>().auth?.user;
  if (!user) throw new UnauthorizedException(LOGIN_REQUIRED);
  return user;
});

/** The project the guard checked, with the caller's rights on it. */
export const Project = createParamDecorator((_: unknown, context: ExecutionContext): ProjectRights => {
  const project = context.switchToHttp().getRequest<AuthedRequest>().project;
  if (!project) throw new InternalServerErrorException('no project policy on this route');
  return project;
});
