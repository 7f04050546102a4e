import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Funnel, FunnelList, FunnelReport } from '@stat/schemas';
import { Project, User } from '../auth/access.guard.js';
import { ProjectView, ReadOnlyPost } from '../auth/policy.js';
import type { Principal } from '../auth/principal.js';
import type { ProjectRights } from '../auth/project-access.js';
import { ok, type Envelope } from '../common/envelope.js';
import { validated } from '../common/validated.js';
import { joinedTexts, validatedFields } from '../http/field-errors.js';
import { IdPipe } from '../http/id.pipe.js';
import { ApiReportLimit } from '../openapi/answers.js';
import { FunnelDto, FunnelListQueryDto, FunnelReportDto, UpdateFunnelDto } from './funnel.dto.js';
import { FunnelsService } from './funnels.service.js';

/** A field's first failing check is its one text. */
const ONE_TEXT_A_FIELD = { stopAtFirstError: true };

// Reads for whoever views the project (the demo project's for anyone); changes for a login, the
// service deciding the rest (spec 002 §5).
@Controller('api/v1.0/:projectId')
@ProjectView()
export class FunnelsController {
  constructor(@Inject(FunnelsService) private readonly funnels: FunnelsService) {}

  @Get('funnels')
  async list(@Project() project: ProjectRights, @Query(validated(FunnelListQueryDto)) query: FunnelListQueryDto): Promise<Envelope<FunnelList>> {
    return ok(await this.funnels.list(project, query));
  }

  @Get('funnel/:id')
  async get(@Project() project: ProjectRights, @Param('id', new IdPipe('id')) id: number): Promise<Envelope<Funnel>> {
    return ok(await this.funnels.get(project, id));
  }

  @Post('funnel')
  @HttpCode(200)
  async create(@Project() project: ProjectRights, @User() user: Principal, @Body(validatedFields(FunnelDto, joinedTexts, ONE_TEXT_A_FIELD)) body: FunnelDto): Promise<Envelope<Funnel>> {
    return ok(await this.funnels.create(project, user, body));
  }

  @Put('funnel/:id')
  async update(
    @Project() project: ProjectRights,
    @User() user: Principal,
    @Param('id', new IdPipe('id')) id: number,
    @Body(validatedFields(UpdateFunnelDto, joinedTexts, ONE_TEXT_A_FIELD)) body: UpdateFunnelDto,
  ): Promise<Envelope<Funnel>> {
    return ok(await this.funnels.update(project, user, id, body));
  }

  @Delete('funnel/:id')
  async remove(@Project() project: ProjectRights, @User() user: Principal, @Param('id', new IdPipe('id')) id: number): Promise<Envelope<Record<string, never>>> {
    return ok(await this.funnels.remove(project, user, id));
  }
}

/** The funnel report (§7): one of the report calls, with their limit. */
@Controller('api/report/v1.0/eventbase/:projectId/funnel')
@ProjectView()
@ReadOnlyPost()
@ApiReportLimit()
export class FunnelReportController {
  constructor(@Inject(FunnelsService) private readonly funnels: FunnelsService) {}

  @Post()
  @HttpCode(200)
  async report(@Project() project: ProjectRights, @Body(validated(FunnelReportDto)) body: FunnelReportDto): Promise<Envelope<FunnelReport>> {
    return ok(await this.funnels.report(project, body));
  }

  /** The report as CSV, for a logged-in user (as the report tables' CSV). */
  @Post('csv')
  @HttpCode(200)
  @ApiOkResponse({ description: 'The funnel table as CSV (BOM, semicolons, comma decimals).', content: { 'text/csv': { schema: { type: 'string' } } } })
  async csv(
    @Project() project: ProjectRights,
    @User() _user: Principal,
    @Body(validated(FunnelReportDto)) body: FunnelReportDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const { disposition, text } = await this.funnels.csv(project, body);
    void reply.header('content-disposition', disposition).header('content-type', 'text/csv; charset=utf-8');
    return text;
  }
}
