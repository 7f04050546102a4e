import { Body, Controller, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { RealtimeResult } from '@stat/schemas';
import { ProjectView, ReadOnlyPost } from '../auth/policy.js';
import { ok, type Envelope } from '../common/envelope.js';
import { ProjectIdPipe } from '../common/project-id.pipe.js';
import { validated } from '../common/validated.js';
import { answer, ApiReportLimit, envelope } from '../openapi/answers.js';
import { RealtimeRequestDto } from './realtime.dto.js';
import { RealtimeService } from './realtime.service.js';

// The access guard decides as for every report: anonymous reads the demo project only.
@Controller('api/report/v1.0/eventbase/:projectId/realtime')
@ProjectView()
@ReadOnlyPost()
@ApiReportLimit()
export class RealtimeController {
  constructor(@Inject(RealtimeService) private readonly realtime: RealtimeService) {}

  /** §7: the live dashboard's sections. */
  @Post()
  @HttpCode(200)
  @ApiOkResponse({ schema: envelope(answer('RealtimeResult')) })
  async sections(
    @Param('projectId', ProjectIdPipe) projectId: number,
    @Body(validated(RealtimeRequestDto)) body: RealtimeRequestDto,
  ): Promise<Envelope<RealtimeResult>> {
    return ok(await this.realtime.realtime(projectId, body));
  }
}
