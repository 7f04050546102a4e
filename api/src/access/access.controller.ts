import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { IdPipe } from '../http/id.pipe.js';
import { ok } from '../common/envelope.js';
import { validated } from '../common/validated.js';
import { Project, User } from '../auth/access.guard.js';
import { LoggedIn, ProjectEdit, SetPolicy } from '../auth/policy.js';
import type { Principal } from '../auth/principal.js';
import type { ProjectRights } from '../auth/project-access.js';
import { AccessDecisionDto, UpdateAccessDto, UserExistsDto } from './access.dto.js';
import { AccessService, RATE_LIMIT_EXCEEDED } from './access.service.js';
import { TOO_MANY_REQUESTS } from '../auth/rate-limit.js';

@Controller('api/v1.0')
export class AccessController {
  constructor(@Inject(AccessService) private readonly access: AccessService) {}

  @Get('project/:projectId/access')
  @ProjectEdit()
  async list(@Project() project: ProjectRights, @User() user: Principal) {
    return ok(await this.access.users(project.id, user));
  }

  @Patch('project/:projectId/access')
  @ProjectEdit()
  @ApiTooManyRequestsResponse({ description: `${RATE_LIMIT_EXCEEDED}: the daily limit of shared users` })
  async replace(@Project() project: ProjectRights, @User() user: Principal, @Body(validated(UpdateAccessDto)) body: UpdateAccessDto) {
    return ok(await this.access.replace(project, user, body.data.users));
  }

  @Post('user/exists')
  @LoggedIn()
  @ApiTooManyRequestsResponse({ description: TOO_MANY_REQUESTS })
  @HttpCode(200)
  async exists(@User() user: Principal, @Body(validated(UserExistsDto)) body: UserExistsDto) {
    return ok(await this.access.exists(user, body.email));
  }

  @Post('project/:projectId/access_request')
  @SetPolicy({ kind: 'project', level: 'known', param: 'projectId' })
  @HttpCode(204)
  async request(@Project() project: ProjectRights, @User() user: Principal): Promise<void> {
    await this.access.request(project, user);
  }

  @Get('user/current/access_requests_list')
  @LoggedIn()
  async requests(@User() user: Principal) {
    return ok(await this.access.requests(user, null));
  }

  @Get('user/current/access_requests_list/:projectId')
  @ProjectEdit()
  async projectRequests(@Project() project: ProjectRights, @User() user: Principal) {
    return ok(await this.access.requests(user, project.id));
  }

  @Post('project/:projectId/access_request/:requestId')
  @ProjectEdit()
  @HttpCode(200)
  async decide(
    @Project() project: ProjectRights,
    @User() user: Principal,
    @Param('requestId', new IdPipe('requestId')) requestId: number,
    @Body(validated(AccessDecisionDto)) body: AccessDecisionDto,
  ) {
    return ok(await this.access.decide(project, user, requestId, body));
  }

  @Post('project/:projectId/verify_ownership')
  @SetPolicy({ kind: 'project', level: 'known', param: 'projectId' })
  @ApiTooManyRequestsResponse({ description: TOO_MANY_REQUESTS })
  @HttpCode(200)
  async verify(@Project() project: ProjectRights, @User() user: Principal) {
    return ok(await this.access.verifyOwnership(project, user));
  }
}
