import { Body, Controller, Get, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { RATING_STATUSES, type RatingStatus } from '@stat/schemas/rating';
import { IsPageOffset } from '../http/dto-helpers.js';
import { IsRowId } from '../http/id.pipe.js';
import { ok } from '../common/envelope.js';
import { validated } from '../common/validated.js';
import { Project, User } from '../auth/access.guard.js';
import { Public, RequirePermission, SetPolicy } from '../auth/policy.js';
import type { Principal } from '../auth/principal.js';
import type { ProjectRights } from '../auth/project-access.js';
import { RatingService, TRANSITIONS, type ModerationAction } from './rating.service.js';

const queryInt = () => Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value));

export class CatalogueQueryDto {
  @queryInt() @IsRowId() category_id!: number;
  @IsOptional() @queryInt() @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @queryInt() @IsPageOffset() offset?: number;
}

export class ModerationQueryDto {
  @IsOptional()
  @IsIn(RATING_STATUSES)
  status?: RatingStatus;
  @IsOptional() @queryInt() @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @queryInt() @IsPageOffset() offset?: number;
}

export class ModerationDto {
  @IsIn(Object.keys(TRANSITIONS)) action!: ModerationAction;
}

/** The rating's dictionaries (public), its catalogue (public) and moderation (staff). */
@Controller()
export class RatingController {
  constructor(@Inject(RatingService) private readonly rating: RatingService) {}

  @Get('api/project/config')
  @Public()
  async config() {
    const [categories, types, regions] = await Promise.all([
      this.rating.tree('rating_themes'),
      this.rating.tree('rating_types'),
      this.rating.tree('rating_regions'),
    ]);
    return ok({ categories, types, regions });
  }

  @Get('api/v1.0/category')
  @Public()
  async categories() {
    return ok(await this.rating.tree('rating_themes'));
  }

  @Get('api/v1.0/type')
  @Public()
  async types() {
    return ok(await this.rating.tree('rating_types'));
  }

  @Get('api/v1.0/region')
  @Public()
  async regions() {
    return ok(await this.rating.tree('rating_regions'));
  }

  @Get('api/v1.0/rating/catalogue')
  @Public()
  async catalogue(@Query(validated(CatalogueQueryDto)) query: CatalogueQueryDto) {
    return ok(await this.rating.catalogue(query.category_id, query.limit ?? 49, query.offset ?? 0));
  }

  @Get('api/v1.0/rating/moderation')
  @RequirePermission('moderate_rating')
  async queue(@Query(validated(ModerationQueryDto)) query: ModerationQueryDto) {
    return ok(await this.rating.queue(query.status ?? 'moderation', query.limit ?? 50, query.offset ?? 0));
  }

  @Post('api/v1.0/rating/moderation/:projectId')
  @SetPolicy({ kind: 'project', level: 'view', param: 'projectId', permission: 'moderate_rating' })
  @HttpCode(200)
  async moderate(@User() user: Principal, @Project() project: ProjectRights, @Body(validated(ModerationDto)) body: ModerationDto) {
    return ok(await this.rating.moderate(user, project.id, body.action));
  }

  @Post('api/v1.0/rating/recompute')
  @RequirePermission('moderate_rating')
  @HttpCode(200)
  async recompute() {
    return ok({ positions: await this.rating.recompute() });
  }
}
