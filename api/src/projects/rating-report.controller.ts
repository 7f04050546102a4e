import { Body, Controller, HttpCode, Inject, Param, Post, Res, StreamableFile } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { GraphResult, TableResult } from '@stat/schemas';
import { ProjectIdPipe } from '../common/project-id.pipe.js';
import { ok, type Envelope } from '../common/envelope.js';
import { validated } from '../common/validated.js';
import { ProjectView, ReadOnlyPost } from '../auth/policy.js';
import { User } from '../auth/access.guard.js';
import type { Principal } from '../auth/principal.js';
import { RatingCsvRequestDto, RatingReport, RatingRequestDto } from './rating-report.js';
import { ApiReportLimit } from '../openapi/answers.js';
import { streamedFile } from '../http/streamed-file.js';

// The report calls of «Рейтинг» (a static segment, so these routes win over the report engine's
// `:reportName`), under the same access guard: the site's viewers see its rating.
@Controller('api/report/v1.0/report/:projectId/rating')
@ProjectView()
@ReadOnlyPost()
@ApiReportLimit()
export class RatingReportController {
  constructor(@Inject(RatingReport) private readonly rating: RatingReport) {}

  @Post('table')
  @HttpCode(200)
  async table(@Param('projectId', ProjectIdPipe) projectId: number, @Body(validated(RatingRequestDto)) body: RatingRequestDto): Promise<Envelope<TableResult>> {
    return ok(await this.rating.table(projectId, body));
  }

  @Post('graph')
  @HttpCode(200)
  async graph(@Param('projectId', ProjectIdPipe) projectId: number, @Body(validated(RatingRequestDto)) body: RatingRequestDto): Promise<Envelope<GraphResult>> {
    return ok(await this.rating.graph(projectId, body));
  }

  /** §7: the whole rating as a file, for a logged-in user. */
  @Post('csv')
  @HttpCode(200)
  async csv(
    @Param('projectId', ProjectIdPipe) projectId: number,
    @User() _user: Principal,
    @Body(validated(RatingCsvRequestDto)) body: RatingCsvRequestDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile> {
    const { disposition, lines } = await this.rating.csv(projectId, body);
    // The headers of the file only once it has begun: a call failing before is answered as an error.
    const file = await streamedFile(lines, 'text/csv; charset=utf-8');
    void reply.header('content-disposition', disposition);
    return file;
  }
}
