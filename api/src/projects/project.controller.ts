import { Body, Controller, Delete, Get, Header, HttpCode, Inject, Post, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Project as ProjectShape } from '@stat/schemas/projects';
import { ok, type Envelope } from '../common/envelope.js';
import { validated } from '../common/validated.js';
import { validatedFields } from '../http/field-errors.js';
import { Project, User } from '../auth/access.guard.js';
import { LoggedIn, ProjectEdit, ProjectView, ProjectWidget, RequirePermission } from '../auth/policy.js';
import type { Principal } from '../auth/principal.js';
import type { ProjectRights } from '../auth/project-access.js';
import {
  CounterCodeQueryDto,
  CreateProjectDto,
  MetadataQueryDto,
  ProjectListQueryDto,
  SameUrlQueryDto,
  UpdateProjectDto,
} from './project.dto.js';
import { ProjectService } from './project.service.js';
import { ApiStoreNotReady } from '../openapi/answers.js';
import { TOO_MANY_REQUESTS } from '../auth/rate-limit.js';

// The path parameter is named projectId on every route, so the one guard finds it.
@Controller('api/v1.0/project')
export class ProjectController {
  constructor(@Inject(ProjectService) private readonly projects: ProjectService) {}

  @Get('is_captcha_needed')
  @LoggedIn()
  async captcha(@User() user: Principal) {
    return ok(await this.projects.captcha(user));
  }

  @Get('fetch_metadata')
  @LoggedIn()
  @ApiTooManyRequestsResponse({ description: TOO_MANY_REQUESTS })
  async metadata(@User() user: Principal, @Query(validated(MetadataQueryDto)) query: MetadataQueryDto) {
    return ok(await this.projects.metadata(user, query.url));
  }

  @Get('projects_with_same_url')
  @LoggedIn()
  async sameUrl(@Query(validated(SameUrlQueryDto)) query: SameUrlQueryDto) {
    return ok(await this.projects.sameUrl(query));
  }

  @Post()
  @RequirePermission('create_projects')
  @HttpCode(200)
  async create(@User() user: Principal, @Body(validatedFields(CreateProjectDto)) body: CreateProjectDto) {
    return ok(await this.projects.create(user, body));
  }

  @Get(':projectId')
  @ApiStoreNotReady()
  @ProjectView('projectId', { deleted: true })
  async get(@Project() project: ProjectRights): Promise<Envelope<ProjectShape>> {
    return ok(await this.projects.view(project));
  }

  @Put(':projectId')
  @ApiStoreNotReady()
  @ProjectEdit()
  async update(@Project() project: ProjectRights, @Body(validated(UpdateProjectDto)) body: UpdateProjectDto): Promise<Envelope<ProjectShape>> {
    return ok(await this.projects.update(project, body));
  }

  @Delete(':projectId')
  @ProjectEdit()
  async remove(@Project() project: ProjectRights) {
    return ok(await this.projects.remove(project));
  }

  @Post(':projectId/restore')
  @ProjectEdit('projectId', { deleted: true })
  @HttpCode(204)
  async restore(@Project() project: ProjectRights): Promise<void> {
    await this.projects.restore(project);
  }

  @Get(':projectId/counter_code')
  @ProjectView()
  async code(@Project() project: ProjectRights, @Query(validated(CounterCodeQueryDto)) query: CounterCodeQueryDto) {
    return ok(await this.projects.code(project, query));
  }

  /** «Проверить» on the counter page: the last hit the site sent (none: the counter is not seen yet). */
  @Get(':projectId/counter_check')
  @ApiStoreNotReady()
  @ProjectEdit()
  async counterCheck(@Project() project: ProjectRights) {
    return ok(await this.projects.counterCheck(project));
  }

  /** The badge: shared caches may keep it only when the project shows it publicly. */
  @Get(':projectId/widget.svg')
  @ApiStoreNotReady()
  @ProjectWidget()
  @ApiOkResponse({ description: 'The badge.', content: { 'image/svg+xml': { schema: { type: 'string' } } } })
  @Header('content-type', 'image/svg+xml; charset=utf-8')
  @Header('content-security-policy', "default-src 'none'")
  async widget(@Project() project: ProjectRights, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    void reply.header('cache-control', `${project.widget ? 'public' : 'private'}, max-age=300`);
    return this.projects.widget(project);
  }
}

@Controller('api/report/v1.0/project')
export class ProjectListController {
  constructor(@Inject(ProjectService) private readonly projects: ProjectService) {}

  @Get('list')
  @LoggedIn()
  @ApiStoreNotReady()
  async list(@User() user: Principal, @Query(validated(ProjectListQueryDto)) query: ProjectListQueryDto) {
    return ok(await this.projects.list(user, query));
  }
}
