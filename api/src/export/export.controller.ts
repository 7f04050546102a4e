import { Body, Controller, Get, HttpCode, Inject, Param, Post, Res, StreamableFile } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { ExportLink } from '@stat/schemas/export';
import { User } from '../auth/access.guard.js';
import { ProjectView, Public } from '../auth/policy.js';
import type { Principal } from '../auth/principal.js';
import { ok, type Envelope } from '../common/envelope.js';
import { ProjectIdPipe } from '../common/project-id.pipe.js';
import { validated } from '../common/validated.js';
import { ExportLinkDto } from './export.dto.js';
import { ExportService } from './export.service.js';
import { ApiStoreNotReady } from '../openapi/answers.js';
import { streamedFile } from '../http/streamed-file.js';

/** «Выгрузка данных» (spec 002 §2): a data address for staff, and the file it streams. */
@Controller('api/v1.0')
export class ExportController {
  constructor(@Inject(ExportService) private readonly exports: ExportService) {}

  /** A data address of the project's raw events, valid 7 days; staff and can_read_dev_reports only (403). */
  @Post(':projectId/export/link')
  @ProjectView()
  @HttpCode(200)
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: {
        responseStatus: { type: 'integer', example: 200 },
        result: { type: 'object', properties: { url: { type: 'string' }, expires_at: { type: 'string', format: 'date-time' } }, required: ['url', 'expires_at'] },
      },
    },
  })
  async link(
    @Param('projectId', ProjectIdPipe) projectId: number,
    @User() user: Principal,
    @Body(validated(ExportLinkDto)) body: ExportLinkDto,
  ): Promise<Envelope<ExportLink>> {
    return ok(await this.exports.link(user, projectId, body));
  }

  /** The file of a data address: whoever holds the address may read it until it expires (404 after). */
  @Get('export/:file')
  @Public()
  @ApiStoreNotReady()
  @ApiOkResponse({ description: 'The raw events as CSV (BOM, semicolons), oldest first.', content: { 'text/csv': { schema: { type: 'string' } } } })
  async file(@Param('file') file: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<StreamableFile> {
    // The address ends in .csv so that a browser or a spreadsheet takes it for what it is.
    const { disposition, lines } = await this.exports.file(file.endsWith('.csv') ? file.slice(0, -4) : '');
    // The headers of the file only once it has begun: a call failing before is answered as an error.
    const csv = await streamedFile(lines, 'text/csv; charset=utf-8');
    void reply.header('content-disposition', disposition);
    void reply.header('cache-control', 'no-store');
    return csv;
  }
}
