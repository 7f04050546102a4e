import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import {
  CONSTRUCTOR_TEXTS,
  cleanTemplateBody,
  droppedNotice,
  type ConstructorTemplate,
  type ConstructorTemplateBody,
  type ConstructorTemplateList,
} from '@stat/schemas';
import type { Principal } from '../auth/principal.js';
import { assertSameAsPath } from '../http/path-ids.js';
import type { ConstructorTemplateBodyDto, ConstructorTemplateListQueryDto, CreateConstructorTemplateDto, UpdateConstructorTemplateDto } from './constructor-template.dto.js';
import { ConstructorTemplatesRepository, type ConstructorTemplateRow } from './constructor-templates.repository.js';

/** Templates one page of the list holds when the request names no limit. */
const TEMPLATE_PAGE = 50;
const NOTHING_TO_CHANGE = 'Nothing to change: send title, body or days_in_range';

/**
 * The constructor's saved reports (specification 001, §3 "Constructor template", §4): each is
 * its author's alone; another user's template is, to anyone else, a template that does not exist.
 */
@Injectable()
export class ConstructorTemplatesService {
  constructor(@Inject(ConstructorTemplatesRepository) private readonly templates: ConstructorTemplatesRepository) {}

  async list(user: Principal, query: ConstructorTemplateListQueryDto): Promise<ConstructorTemplateList> {
    const { rows, total } = await this.templates.list(user.id, query.search?.trim() ?? '', query.offset ?? 0, query.limit ?? TEMPLATE_PAGE);
    return { constructor_template: rows.map(view), totals: total };
  }

  async get(user: Principal, id: number): Promise<ConstructorTemplate> {
    return view(await this.own(user, id));
  }

  async create(user: Principal, dto: CreateConstructorTemplateDto): Promise<ConstructorTemplate> {
    const id = await this.templates.insert(user.id, { title: dto.title, body: plainBody(dto.body), daysInRange: dto.days_in_range });
    return this.get(user, id);
  }

  async update(user: Principal, id: number, dto: UpdateConstructorTemplateDto): Promise<ConstructorTemplate> {
    assertSameAsPath('id', dto.id, id);
    if (dto.title === undefined && dto.body === undefined && dto.days_in_range === undefined) throw new BadRequestException(NOTHING_TO_CHANGE);
    const changed = await this.templates.update(user.id, id, {
      ...(dto.title === undefined ? {} : { title: dto.title }),
      ...(dto.body === undefined ? {} : { body: plainBody(dto.body) }),
      ...(dto.days_in_range === undefined ? {} : { daysInRange: dto.days_in_range }),
    });
    if (!changed) throw new NotFoundException(CONSTRUCTOR_TEXTS.notFound);
    return this.get(user, id);
  }

  async remove(user: Principal, id: number): Promise<Record<string, never>> {
    if (!(await this.templates.delete(user.id, id))) throw new NotFoundException(CONSTRUCTOR_TEXTS.notFound);
    return {};
  }

  private async own(user: Principal, id: number): Promise<ConstructorTemplateRow> {
    const row = await this.templates.own(user.id, id);
    if (row === null) throw new NotFoundException(CONSTRUCTOR_TEXTS.notFound);
    return row;
  }
}

/** A stored template as answered: what the catalogue no longer has is left out, with a notice. */
function view(row: ConstructorTemplateRow): ConstructorTemplate {
  const { body, dropped } = cleanTemplateBody(row.body);
  return {
    id: row.id,
    title: row.title,
    email: row.email,
    update_date: new Date(row.updated_at).toISOString(),
    days_in_range: row.days_in_range,
    body,
    ...(dropped.length > 0 ? { notice: droppedNotice(dropped), dropped } : {}),
  };
}

/** The validated body as plain data: exactly the fields of the contract, nothing a DTO class adds. */
function plainBody(body: ConstructorTemplateBodyDto): ConstructorTemplateBody {
  return JSON.parse(JSON.stringify(body)) as ConstructorTemplateBody;
}
