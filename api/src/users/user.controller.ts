import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ok, type Envelope } from '../common/envelope.js';
import { validated } from '../common/validated.js';
import { User } from '../auth/access.guard.js';
import { LoggedIn } from '../auth/policy.js';
import type { Principal } from '../auth/principal.js';
import { UserProjectsQueryDto } from '../projects/project.dto.js';
import { ProjectService } from '../projects/project.service.js';
import { userView, type UserView } from './user-view.js';

@Controller('api/v1.0/user')
export class UserController {
  constructor(@Inject(ProjectService) private readonly projects: ProjectService) {}

  @Get('current')
  @LoggedIn()
  current(@User() user: Principal): Envelope<UserView> {
    return ok(userView(user));
  }

  /** The project switcher: projects linked to the user, up to 100. */
  @Get('current/projects')
  @LoggedIn()
  async projects_(@User() user: Principal, @Query(validated(UserProjectsQueryDto)) query: UserProjectsQueryDto) {
    return ok(await this.projects.linked(user, query));
  }
}
