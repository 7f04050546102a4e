import { BadRequestException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { DimensionFilterRule, MetricFilterRule, SavedFilter, SavedFilterBody } from '@stat/schemas';
import { FORBIDDEN } from '../auth/access.guard.js';
import type { Principal } from '../auth/principal.js';
import { DEMO_PROJECT_ID, type ProjectRights } from '../auth/project-access.js';
import type { Db } from '../db/db.js';
import { FieldErrorsException } from '../http/field-errors.js';
import { DB } from '../tokens.js';
import { TITLE_TAKEN, type CreateSavedFilterDto, type SavedFilterBodyDto, type UpdateSavedFilterDto } from './saved-filter.dto.js';
import { SavedFiltersRepository, type SavedFilterFields, type SavedFilterRow } from './saved-filters.repository.js';

const SAVED_FILTER_NOT_FOUND = 'Шаблон не найден';
const NOTHING_TO_CHANGE = 'Nothing to change: send title, type or body';

/**
 * Whether saved filters are on for a caller on a project (§6): on the demo project they are
 * off, but for those who may edit it (administrators), since a shared template there would be
 * shown to, and could be deleted by, every visitor who has an account.
 */
function savedFiltersOn(project: ProjectRights): boolean {
  return project.id !== DEMO_PROJECT_ID || project.edit;
}

/** Whether `user` may change or delete a filter they see: a shared one anyone may (§6), a private one its author. */
function mayChange(row: SavedFilterRow, user: Principal): boolean {
  return row.type === 'shared' || row.author_id === user.id;
}

@Injectable()
export class SavedFiltersService {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(SavedFiltersRepository) private readonly filters: SavedFiltersRepository,
  ) {}

  async list(project: ProjectRights, user: Principal): Promise<{ data: SavedFilter[]; total: number }> {
    this.assertOn(project);
    const rows = await this.filters.visible(project.id, user.id);
    return { data: rows.map((row) => view(row, user)), total: rows.length };
  }

  async create(project: ProjectRights, user: Principal, dto: CreateSavedFilterDto): Promise<SavedFilter> {
    this.assertOn(project);
    const fields: SavedFilterFields = { authorId: user.id, title: dto.title, type: dto.type ?? 'private', body: plainBody(dto.body) };
    const row = await this.db.transaction(async (tx) => {
      await this.filters.lockProject(project.id, tx);
      if (await this.filters.titleSeen(project.id, user.id, fields.title, null, tx)) throw titleTaken();
      return this.filters.insert(project.id, fields, tx);
    });
    return view(row, user);
  }

  /**
   * Changes what is given of title, type and body. A shared filter made private becomes the
   * private filter of the one who did it: they keep what they saw, everyone else loses it, as
   * when they delete it.
   */
  async update(project: ProjectRights, user: Principal, id: number, dto: UpdateSavedFilterDto): Promise<SavedFilter> {
    this.assertOn(project);
    if (dto.title === undefined && dto.type === undefined && dto.body === undefined) throw new BadRequestException(NOTHING_TO_CHANGE);
    const row = await this.db.transaction(async (tx) => {
      await this.filters.lockProject(project.id, tx);
      const current = await this.filters.visibleForUpdate(project.id, id, user.id, tx);
      if (!current || !mayChange(current, user)) throw new NotFoundException(SAVED_FILTER_NOT_FOUND);
      const type = dto.type ?? current.type;
      const fields: SavedFilterFields = {
        authorId: type === 'private' ? user.id : current.author_id,
        title: dto.title ?? current.title,
        type,
        body: dto.body ? plainBody(dto.body) : current.body,
      };
      // Only a new title or type is checked: a body saved under a title that already shares
      // another template's (one that its author could not see) stays savable.
      const renamed = fields.title !== current.title || fields.type !== current.type;
      if (renamed && (await this.filters.titleSeen(project.id, user.id, fields.title, id, tx))) throw titleTaken();
      return this.filters.update(id, fields, tx);
    });
    return view(row, user);
  }

  async remove(project: ProjectRights, user: Principal, id: number): Promise<Record<string, never>> {
    this.assertOn(project);
    if (!(await this.filters.deleteVisible(project.id, id, user.id))) throw new NotFoundException(SAVED_FILTER_NOT_FOUND);
    return {};
  }

  private assertOn(project: ProjectRights): void {
    if (!savedFiltersOn(project)) throw new ForbiddenException(FORBIDDEN);
  }
}

function titleTaken(): FieldErrorsException {
  return new FieldErrorsException(TITLE_TAKEN, { title: [TITLE_TAKEN] });
}

function view(row: SavedFilterRow, user: Principal): SavedFilter {
  return { id: row.id, title: row.title, type: row.type, body: row.body, editable: mayChange(row, user) };
}

/** The validated body as plain data: exactly the fields of the contract, nothing a DTO class adds. */
function plainBody(body: SavedFilterBodyDto): SavedFilterBody {
  const plain: SavedFilterBody = {};
  if (body.dimension_filters) {
    plain.dimension_filters = body.dimension_filters.map(
      (rule): DimensionFilterRule => ({
        key: rule.key,
        op: rule.op,
        value: rule.value,
        ...(rule.extra ? { extra: rule.extra.eventClass === undefined ? {} : { eventClass: rule.extra.eventClass } } : {}),
      }),
    );
  }
  if (body.metric_filters) {
    plain.metric_filters = body.metric_filters.map((rule): MetricFilterRule => ({ key: rule.key, op: rule.op, value: rule.value }));
  }
  return plain;
}
