import { Body, Controller, HttpCode, Inject, Param, Post, Res, StreamableFile } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ProjectIdPipe } from '../common/project-id.pipe.js';
import { ok, type Envelope } from '../common/envelope.js';
import { ReportCsvRequestDto, ReportRequestDto } from './report-request.dto.js';
import { validated } from '../common/validated.js';
import type { GraphResult, TableResult } from '@stat/schemas';
import { ReportAnswers } from '../engine/index.js';
import { ProjectView, ReadOnlyPost } from '../auth/policy.js';
import { User } from '../auth/access.guard.js';
import type { Principal } from '../auth/principal.js';
import { answer, ApiReportLimit, envelope } from '../openapi/answers.js';
import { streamedFile } from '../http/streamed-file.js';

// The one access guard decides: anonymous reads the demo project only; unknown projects are 404.
@Controller('api/report/v1.0/report/:projectId/:reportName')
@ProjectView()
@ReadOnlyPost()
@ApiReportLimit()
export class ReportController {
  constructor(@Inject(ReportAnswers) private readonly reports: ReportAnswers) {}

  @Post('graph')
  @HttpCode(200)
  @ApiOkResponse({ schema: envelope(answer('GraphResult')) })
  async graph(
    @Param('projectId', ProjectIdPipe) projectId: number,
    @Param('reportName') reportName: string,
    @Body(validated(ReportRequestDto)) body: ReportRequestDto,
  ): Promise<Envelope<GraphResult>> {
    return ok(await this.reports.graph(projectId, reportName, body));
  }

  @Post('table')
  @HttpCode(200)
  @ApiOkResponse({ schema: envelope(answer('TableResult')) })
  async table(
    @Param('projectId', ProjectIdPipe) projectId: number,
    @Param('reportName') reportName: string,
    @Body(validated(ReportRequestDto)) body: ReportRequestDto,
  ): Promise<Envelope<TableResult>> {
    return ok(await this.reports.table(projectId, reportName, body));
  }

  /** §7: the whole table as a file; for a logged-in user (§2: the button needs the user's e-mail). */
  @Post('csv')
  @HttpCode(200)
  @ApiOkResponse({ description: 'The whole table as CSV (BOM, semicolons, comma decimals).', content: { 'text/csv': { schema: { type: 'string' } } } })
  async csv(
    @Param('projectId', ProjectIdPipe) projectId: number,
    @Param('reportName') reportName: string,
    @User() _user: Principal,
    @Body(validated(ReportCsvRequestDto)) body: ReportCsvRequestDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile> {
    const { disposition, lines } = await this.reports.csv(projectId, reportName, body);
    // The headers of the file only once it has begun: a call failing before is answered as an error.
    const file = await streamedFile(lines, 'text/csv; charset=utf-8');
    void reply.header('content-disposition', disposition);
    return file;
  }
}
