import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put } from '@nestjs/common';
import type { SavedFilter } from '@stat/schemas';
import { ok, type Envelope } from '../common/envelope.js';
import { Project, User } from '../auth/access.guard.js';
import { ProjectView } from '../auth/policy.js';
import type { Principal } from '../auth/principal.js';
import type { ProjectRights } from '../auth/project-access.js';
import { joinedTexts, validatedFields } from '../http/field-errors.js';
import { IdPipe } from '../http/id.pipe.js';
import { CreateSavedFilterDto, UpdateSavedFilterDto } from './saved-filter.dto.js';
import { SavedFiltersService } from './saved-filters.service.js';

/** A field's first failing check is its one text (see saved-filter.dto.ts). */
const ONE_TEXT_A_FIELD = { stopAtFirstError: true };

// Project view and a login (@User: 401 for anonymous callers, the demo project's included);
// the service decides the rest (§6).
@Controller('api/v1.0/project/:projectId/saved_filters')
export class SavedFiltersController {
  constructor(@Inject(SavedFiltersService) private readonly filters: SavedFiltersService) {}

  @Get()
  @ProjectView()
  async list(@Project() project: ProjectRights, @User() user: Principal): Promise<Envelope<{ data: SavedFilter[]; total: number }>> {
    return ok(await this.filters.list(project, user));
  }

  @Post()
  @ProjectView()
  @HttpCode(200)
  async create(@Project() project: ProjectRights, @User() user: Principal, @Body(validatedFields(CreateSavedFilterDto, joinedTexts, ONE_TEXT_A_FIELD)) body: CreateSavedFilterDto): Promise<Envelope<SavedFilter>> {
    return ok(await this.filters.create(project, user, body));
  }

  @Put(':filterId')
  @ProjectView()
  async update(
    @Project() project: ProjectRights,
    @User() user: Principal,
    @Param('filterId', new IdPipe('filterId')) id: number,
    @Body(validatedFields(UpdateSavedFilterDto, joinedTexts, ONE_TEXT_A_FIELD)) body: UpdateSavedFilterDto,
  ): Promise<Envelope<SavedFilter>> {
    return ok(await this.filters.update(project, user, id, body));
  }

  @Delete(':filterId')
  @ProjectView()
  async remove(@Project() project: ProjectRights, @User() user: Principal, @Param('filterId', new IdPipe('filterId')) id: number) {
    return ok(await this.filters.remove(project, user, id));
  }
}
