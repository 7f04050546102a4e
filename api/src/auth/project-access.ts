import { ForbiddenException, Inject, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import type { Sql } from '../db/db.js';
import { DB } from '../tokens.js';
import { FORBIDDEN, LOGIN_REQUIRED, PROJECT_NOT_FOUND } from './access-texts.js';
import { can, type Principal } from './principal.js';

/** The demo project of the specification: readable by all, editable by administrators only. */
export const DEMO_PROJECT_ID = 7596044;

/** What the database says about one project and one user. */
export interface ProjectFacts {
  id: number;
  deleted: boolean;
  ownerId: number | null;
  /** the user's shared access: 0 edit, 1 view, null none */
  accessLevel: number | null;
  /** the counter shows the public widget (counter_type 1) */
  widget: boolean;
}

export interface ProjectRights {
  id: number;
  deleted: boolean;
  widget: boolean;
  view: boolean;
  edit: boolean;
  owner: boolean;
}

/** The one rule of who may view and who may edit a project (API.md, "Roles and permissions"). */
export function decide(user: Principal | null, facts: ProjectFacts): ProjectRights {
  const base = { id: facts.id, deleted: facts.deleted, widget: facts.widget };
  if (facts.id === DEMO_PROJECT_ID) {
    return { ...base, view: true, edit: can(user, 'edit_demo_project'), owner: false };
  }
  if (!user) return { ...base, view: false, edit: false, owner: false };
  const owner = facts.ownerId === user.id;
  const edit = owner || facts.accessLevel === 0 || can(user, 'edit_all_projects');
  const view = edit || facts.accessLevel === 1 || can(user, 'read_all_projects');
  return { ...base, view, edit, owner };
}

@Injectable()
export class ProjectAccess {
  constructor(@Inject(DB) private readonly db: Sql) {}

  async facts(projectId: number, userId: number | null, sql: Sql = this.db): Promise<ProjectFacts | null> {
    const [row] = await sql.query<{ id: number; deleted: boolean; owner_id: number | null; access_level: number | null; widget: boolean }>(
      `SELECT p.id, p.deleted_at IS NOT NULL AS deleted, p.owner_id, pa.access_level,
              coalesce(p.counter_settings->>'counter_type' = '1', false) AS widget
       FROM projects p LEFT JOIN project_access pa ON pa.project_id = p.id AND pa.user_id = $2
       WHERE p.id = $1`,
      [projectId, userId ?? 0],
    );
    return row ? { id: row.id, deleted: row.deleted, ownerId: row.owner_id, accessLevel: row.access_level, widget: row.widget } : null;
  }

  async rights(user: Principal | null, projectId: number, sql: Sql = this.db): Promise<ProjectRights | null> {
    const facts = await this.facts(projectId, user?.id ?? null, sql);
    return facts ? decide(user, facts) : null;
  }

  /**
   * The caller's rights on a project named in a body or a query, which they may view: 404 for
   * none or a deleted one, 403 for no access (401 when nobody is logged in).
   */
  async viewable(user: Principal | null, projectId: number): Promise<ProjectRights> {
    const rights = await this.rights(user, projectId);
    if (!rights || rights.deleted) throw new NotFoundException(PROJECT_NOT_FOUND);
    if (!rights.view) throw user ? new ForbiddenException(FORBIDDEN) : new UnauthorizedException(LOGIN_REQUIRED);
    return rights;
  }
}
