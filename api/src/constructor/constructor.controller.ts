import { Body, Controller, HttpCode, Inject, Param, Post, Res, StreamableFile } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { GraphResult, TableResult } from '@stat/schemas';
import { User } from '../auth/access.guard.js';
import { ProjectView, ReadOnlyPost } from '../auth/policy.js';
import type { Principal } from '../auth/principal.js';
import { ok, type Envelope } from '../common/envelope.js';
import { ProjectIdPipe } from '../common/project-id.pipe.js';
import { validated } from '../common/validated.js';
import { answer, ApiReportLimit, envelope } from '../openapi/answers.js';
import { ConstructorCsvRequestDto, ConstructorRequestDto } from './constructor-request.dto.js';
import { ConstructorService } from './constructor.service.js';
import { streamedFile } from '../http/streamed-file.js';

// The report routes' access: anonymous callers read the demo project only; unknown projects are 404.
@Controller('api/report/v1.0/eventbase/:projectId/constructor')
@ProjectView()
@ReadOnlyPost()
@ApiReportLimit()
export class ConstructorController {
  constructor(@Inject(ConstructorService) private readonly constructorReports: ConstructorService) {}

  /** §7: the constructor's table, or with `view_type: graph` its graph. */
  @Post()
  @HttpCode(200)
  @ApiOkResponse({ schema: envelope({ oneOf: [answer('TableResult'), answer('GraphResult')] }) })
  async query(
    @Param('projectId', ProjectIdPipe) projectId: number,
    @Body(validated(ConstructorRequestDto)) body: ConstructorRequestDto,
  ): Promise<Envelope<TableResult | GraphResult>> {
    return ok(await this.constructorReports.query(projectId, body));
  }

  /** The whole table as CSV; for a logged-in user, as the report's. */
  @Post('csv')
  @HttpCode(200)
  @ApiOkResponse({ description: 'The whole table as CSV (BOM, semicolons, comma decimals).', content: { 'text/csv': { schema: { type: 'string' } } } })
  async csv(
    @Param('projectId', ProjectIdPipe) projectId: number,
    @User() _user: Principal,
    @Body(validated(ConstructorCsvRequestDto)) body: ConstructorCsvRequestDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile> {
    const { disposition, lines } = await this.constructorReports.csv(projectId, body);
    // The headers of the file only once it has begun: a call failing before is answered as an error.
    const file = await streamedFile(lines, 'text/csv; charset=utf-8');
    void reply.header('content-disposition', disposition);
    return file;
  }
}
