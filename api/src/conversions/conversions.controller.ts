import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Conversion, ConversionList, ConversionTable, ConversionWidgetResult } from '@stat/schemas';
import { CurrentUser, User } from '../auth/access.guard.js';
import { LoggedIn, ProjectView, Public, ReadOnlyPost } from '../auth/policy.js';
import type { Principal } from '../auth/principal.js';
import { ok, type Envelope } from '../common/envelope.js';
import { ProjectIdPipe } from '../common/project-id.pipe.js';
import { validated } from '../common/validated.js';
import { IdPipe } from '../http/id.pipe.js';
import { ApiReportLimit } from '../openapi/answers.js';
import { ConversionListQueryDto, ConversionsReportDto, ConversionTableDto, ConversionWidgetDto, CreateConversionDto, UpdateConversionDto } from './conversion.dto.js';
import { ConversionsService } from './conversions.service.js';

// The project is named in the query or the body (or is the conversion's): the service checks the
// caller's rights on it; the list is public for the demo project's anonymous visitors.
@Controller('api/v1.0')
export class ConversionsController {
  constructor(@Inject(ConversionsService) private readonly conversions: ConversionsService) {}

  @Get('user/conversions')
  @Public()
  async list(@CurrentUser() user: Principal | null, @Query(validated(ConversionListQueryDto)) query: ConversionListQueryDto): Promise<Envelope<ConversionList>> {
    return ok(await this.conversions.list(user, query));
  }

  @Post('conversion')
  @LoggedIn()
  @HttpCode(200)
  async create(@User() user: Principal, @Body(validated(CreateConversionDto)) body: CreateConversionDto): Promise<Envelope<Conversion>> {
    return ok(await this.conversions.create(user, body));
  }

  @Get('conversion/:id')
  @LoggedIn()
  async get(@User() user: Principal, @Param('id', new IdPipe('id')) id: number): Promise<Envelope<Conversion>> {
    return ok(await this.conversions.get(user, id));
  }

  @Put('conversion/:id')
  @LoggedIn()
  async update(@User() user: Principal, @Param('id', new IdPipe('id')) id: number, @Body(validated(UpdateConversionDto)) body: UpdateConversionDto): Promise<Envelope<Conversion>> {
    return ok(await this.conversions.update(user, id, body));
  }

  @Delete('conversion/:id')
  @LoggedIn()
  async remove(@User() user: Principal, @Param('id', new IdPipe('id')) id: number): Promise<Envelope<Record<string, never>>> {
    return ok(await this.conversions.remove(user, id));
  }
}

/** The conversions' reports (spec 002 §7), read like every report: whoever views the project. */
@Controller('api/report/v1.0/eventbase/:projectId')
@ProjectView()
@ReadOnlyPost()
@ApiReportLimit()
export class ConversionReportController {
  constructor(@Inject(ConversionsService) private readonly conversions: ConversionsService) {}

  @Post('conversions')
  @HttpCode(200)
  async report(@Param('projectId', ProjectIdPipe) projectId: number, @CurrentUser() user: Principal | null, @Body(validated(ConversionsReportDto)) body: ConversionsReportDto) {
    return ok(await this.conversions.report(user, projectId, body));
  }

  @Post('conversion_table')
  @HttpCode(200)
  async table(@Param('projectId', ProjectIdPipe) projectId: number, @CurrentUser() user: Principal | null, @Body(validated(ConversionTableDto)) body: ConversionTableDto): Promise<Envelope<ConversionTable>> {
    return ok(await this.conversions.table(user, projectId, body));
  }

  /** §7 "Conversion CSV": the whole table as a file; for a logged-in user (the dialog shows the user's e-mail). */
  @Post('conversion_table/csv')
  @HttpCode(200)
  @ApiOkResponse({ description: 'The conversion table as CSV (BOM, semicolons, comma decimals).', content: { 'text/csv': { schema: { type: 'string' } } } })
  async csv(
    @Param('projectId', ProjectIdPipe) projectId: number,
    @User() user: Principal,
    @Body(validated(ConversionTableDto)) body: ConversionTableDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const { disposition, text } = await this.conversions.csv(user, projectId, body);
    void reply.header('content-disposition', disposition).header('content-type', 'text/csv; charset=utf-8');
    return text;
  }

  /** §7: `{widget}` is `eventbase_conversion_` and one of traffic_sources, audience, technology (another: 404). */
  @Post('conversion_widget/:widget')
  @HttpCode(200)
  async widget(
    @Param('projectId', ProjectIdPipe) projectId: number,
    @Param('widget') widget: string,
    @CurrentUser() user: Principal | null,
    @Body(validated(ConversionWidgetDto)) body: ConversionWidgetDto,
  ): Promise<Envelope<ConversionWidgetResult>> {
    return ok(await this.conversions.widget(user, projectId, widget, body));
  }
}
