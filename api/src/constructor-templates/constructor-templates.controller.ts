import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { ConstructorTemplate, ConstructorTemplateList } from '@stat/schemas';
import { User } from '../auth/access.guard.js';
import { LoggedIn } from '../auth/policy.js';
import type { Principal } from '../auth/principal.js';
import { ok, type Envelope } from '../common/envelope.js';
import { validated } from '../common/validated.js';
import { IdPipe } from '../http/id.pipe.js';
import { answer, envelope } from '../openapi/answers.js';
import { ConstructorTemplateListQueryDto, CreateConstructorTemplateDto, UpdateConstructorTemplateDto } from './constructor-template.dto.js';
import { ConstructorTemplatesService } from './constructor-templates.service.js';

/** §7: the user's saved constructor reports; a login is needed (§6 "Saving constructor reports requires login"). */
@Controller('api/v1.0')
@LoggedIn()
export class ConstructorTemplatesController {
  constructor(@Inject(ConstructorTemplatesService) private readonly templates: ConstructorTemplatesService) {}

  @Get('user/constructor_templates')
  @ApiOkResponse({ schema: envelope(answer('ConstructorTemplateList')) })
  async list(@User() user: Principal, @Query(validated(ConstructorTemplateListQueryDto)) query: ConstructorTemplateListQueryDto): Promise<Envelope<ConstructorTemplateList>> {
    return ok(await this.templates.list(user, query));
  }

  @Post('constructor_template')
  @HttpCode(200)
  @ApiOkResponse({ schema: envelope(answer('ConstructorTemplate')) })
  async create(@User() user: Principal, @Body(validated(CreateConstructorTemplateDto)) body: CreateConstructorTemplateDto): Promise<Envelope<ConstructorTemplate>> {
    return ok(await this.templates.create(user, body));
  }

  @Get('constructor_template/:id')
  @ApiOkResponse({ schema: envelope(answer('ConstructorTemplate')) })
  async get(@User() user: Principal, @Param('id', new IdPipe('id')) id: number): Promise<Envelope<ConstructorTemplate>> {
    return ok(await this.templates.get(user, id));
  }

  @Put('constructor_template/:id')
  @ApiOkResponse({ schema: envelope(answer('ConstructorTemplate')) })
  async update(
    @User() user: Principal,
    @Param('id', new IdPipe('id')) id: number,
    @Body(validated(UpdateConstructorTemplateDto)) body: UpdateConstructorTemplateDto,
  ): Promise<Envelope<ConstructorTemplate>> {
    return ok(await this.templates.update(user, id, body));
  }

  @Delete('constructor_template/:id')
  async remove(@User() user: Principal, @Param('id', new IdPipe('id')) id: number): Promise<Envelope<Record<string, never>>> {
    return ok(await this.templates.remove(user, id));
  }
}
