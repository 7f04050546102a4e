import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { EventbaseLatency } from '@stat/schemas/period';
import { Public, ProjectView } from '../auth/policy.js';
import { ProjectIdPipe } from '../common/project-id.pipe.js';
import { ok, type Envelope } from '../common/envelope.js';
import { validated } from '../common/validated.js';
import { LatencyRepository } from './latency.repository.js';
import { answer, ApiStoreNotReady, envelope } from '../openapi/answers.js';

/**
 * No query parameters: the span of one project is `eventbase_latency/{projectId}`, so that the
 * one access guard, which reads path parameters, decides it. A `project_id` sent here is a 400,
 * never a silent answer for every project.
 */
export class NoQueryDto {}

// The class's own policy (public) is declared in app.module.ts; routes here may narrow it.
@Controller('api/report/v1.0/service')
export class ServiceController {
  constructor(@Inject(LatencyRepository) private readonly latency: LatencyRepository) {}

  /** Server time, so that clients with a wrong clock still pick the right "today". */
  @Get('time')
  @ApiOkResponse({ schema: envelope({ type: 'object', properties: { timestamp: { type: 'integer', description: 'epoch seconds' } }, required: ['timestamp'] }) })
  time(): Envelope<{ timestamp: number }> {
    return ok({ timestamp: Math.floor(Date.now() / 1000) });
  }

  /**
   * The span of the stored events of every project (specification 001, §7: "result start,
   * end"): the days the date picker offers. Public, as the server's time is: it says when the
   * service has data, nothing of any one project.
   */
  @Get('eventbase_latency')
  @Public()
  @ApiStoreNotReady()
  @ApiOkResponse({ schema: envelope(answer('EventbaseLatency')) })
  async eventbaseLatency(@Query(validated(NoQueryDto)) _query: NoQueryDto): Promise<Envelope<EventbaseLatency>> {
    return ok(await this.latency.span(null));
  }

  /** The span of one project's events, for whoever may view the project's reports. */
  @Get('eventbase_latency/:projectId')
  @ProjectView()
  @ApiStoreNotReady()
  @ApiOkResponse({ schema: envelope(answer('EventbaseLatency')) })
  async projectEventbaseLatency(
    @Param('projectId', ProjectIdPipe) projectId: number,
    @Query(validated(NoQueryDto)) _query: NoQueryDto,
  ): Promise<Envelope<EventbaseLatency>> {
    return ok(await this.latency.span(projectId));
  }
}
