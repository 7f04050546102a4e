import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import type { AutogoalList, Goal, GoalCountsReport, GoalList } from '@stat/schemas';
import { ok, type Envelope } from '../common/envelope.js';
import { CurrentUser, Project, User } from '../auth/access.guard.js';
import { LoggedIn, ProjectView, Public, ReadOnlyPost } from '../auth/policy.js';
import type { ProjectRights } from '../auth/project-access.js';
import { ApiReportLimit } from '../openapi/answers.js';
import type { Principal } from '../auth/principal.js';
import { validated } from '../common/validated.js';
import { joinedTexts, validatedFields } from '../http/field-errors.js';
import { IdPipe } from '../http/id.pipe.js';
import { AutogoalListQueryDto, CreateGoalDto, GoalCountsDto, GoalListQueryDto, GoalsByIdsDto, UpdateGoalDto } from './goal.dto.js';
import { GoalsService } from './goals.service.js';

/** A field's first failing check is its one text. */
const ONE_TEXT_A_FIELD = { stopAtFirstError: true };

// The project is named in the query or the body (or is the goal's), so the service checks the
// caller's rights on it; the lists are public for the demo project's anonymous visitors.
@Controller('api/v1.0')
export class GoalsController {
  constructor(@Inject(GoalsService) private readonly goals: GoalsService) {}

  @Get('user/goals')
  @Public()
  async list(@CurrentUser() user: Principal | null, @Query(validated(GoalListQueryDto)) query: GoalListQueryDto): Promise<Envelope<GoalList>> {
    return ok(await this.goals.list(user, query));
  }

  @Post('goals')
  @LoggedIn()
  @ReadOnlyPost()
  @HttpCode(200)
  async byIds(@User() user: Principal, @Body(validated(GoalsByIdsDto)) body: GoalsByIdsDto): Promise<Envelope<GoalList>> {
    return ok(await this.goals.byIds(user, body));
  }

  @Post('goal')
  @LoggedIn()
  @HttpCode(200)
  async create(@User() user: Principal, @Body(validatedFields(CreateGoalDto, joinedTexts, ONE_TEXT_A_FIELD)) body: CreateGoalDto): Promise<Envelope<Goal>> {
    return ok(await this.goals.create(user, body));
  }

  @Put('goal/:id')
  @LoggedIn()
  async update(
    @User() user: Principal,
    @Param('id', new IdPipe('id')) id: number,
    @Body(validatedFields(UpdateGoalDto, joinedTexts, ONE_TEXT_A_FIELD)) body: UpdateGoalDto,
  ): Promise<Envelope<Goal>> {
    return ok(await this.goals.update(user, id, body));
  }

  @Delete('goal/:id')
  @LoggedIn()
  async remove(@User() user: Principal, @Param('id', new IdPipe('id')) id: number): Promise<Envelope<Record<string, never>>> {
    return ok(await this.goals.remove(user, id));
  }

  @Get('autogoals')
  @Public()
  async autogoals(@CurrentUser() user: Principal | null, @Query(validated(AutogoalListQueryDto)) query: AutogoalListQueryDto): Promise<Envelope<AutogoalList>> {
    return ok(await this.goals.autogoals(user, query));
  }
}

/**
 * The goals' counts over a period (the goals page's table): one of the report calls, with their
 * limit, for whoever views the project (the demo project's for anyone); the service checks each goal.
 */
@Controller('api/report/v1.0/eventbase/:projectId/goals')
@ProjectView()
@ReadOnlyPost()
@ApiReportLimit()
export class GoalCountsController {
  constructor(@Inject(GoalsService) private readonly goals: GoalsService) {}

  @Post()
  @HttpCode(200)
  async counts(@Project() project: ProjectRights, @CurrentUser() user: Principal | null, @Body(validated(GoalCountsDto)) body: GoalCountsDto): Promise<Envelope<GoalCountsReport>> {
    return ok(await this.goals.counts(project, user, body));
  }
}
