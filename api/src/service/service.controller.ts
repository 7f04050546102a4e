import { Controller, Get } from '@nestjs/common';
import { ok, type Envelope } from '../common/envelope.js';

@Controller('api/report/v1.0/service')
export class ServiceController {
  /** Server time, so that clients with a wrong clock still pick the right "today". */
  @Get('time')
  time(): Envelope<{ timestamp: number }> {
    return ok({ timestamp: Math.floor(Date.now() / 1000) });
  }
}
