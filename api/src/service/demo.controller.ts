import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { DemoState } from '@stat/schemas/period';
import { Public } from '../auth/policy.js';
import { ok, type Envelope } from '../common/envelope.js';
import { validated } from '../common/validated.js';
import { envelope } from '../openapi/answers.js';
import { DEMO_STATE, type DemoStateOf } from '../tokens.js';
import { NoQueryDto } from './service.controller.js';

/**
 * Whether the demo project's traffic is still being generated: an embedded service says «ready»
 * before the demo's days are filled, and the demo's message says they are coming. Not a report
 * call (it reads a flag of the process, not ClickHouse), so outside `/api/report/` and its limit.
 */
@Controller('api/v1.0/demo')
export class DemoController {
  constructor(@Inject(DEMO_STATE) private readonly demoState: DemoStateOf) {}

  @Get('state')
  @Public()
  @ApiOkResponse({ schema: envelope({ type: 'object', properties: { filling: { type: 'boolean' } }, required: ['filling'] }) })
  state(@Query(validated(NoQueryDto)) _query: NoQueryDto): Envelope<DemoState> {
    return ok({ filling: this.demoState().filling });
  }
}
