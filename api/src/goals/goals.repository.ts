import { Inject, Injectable } from '@nestjs/common';
import type { GoalAccess, GoalBody } from '@stat/schemas';
import type { Sql } from '../db/db.js';
import { DB } from '../tokens.js';

/** What a goal is made of, apart from its id, project and owner. */
export interface GoalFields {
  title: string;
  description: string;
  access: GoalAccess;
  is_protected: boolean;
  is_td_sending: boolean;
  body: GoalBody;
}

/** A goal's row with its owner's e-mail. */
export interface GoalRow extends GoalFields {
  id: number;
  project_id: number;
  owner_id: number | null;
  email: string | null;
  goal_template_id: number | null;
  is_deleted: boolean;
  updated_at: Date;
}

/** Which goals a list holds (GET /user/goals). */
export interface GoalFilter {
  projectId: number;
  /** the caller, 0 for an anonymous visitor of the demo project */
  userId: number;
  search: string;
  commonOnly: boolean;
  showCommon: boolean;
  showDeleted: boolean;
  limit: number;
  offset: number;
}

const COLUMNS = `g.id, g.project_id, g.owner_id, u.email, g.title, g.description, g.access, g.is_protected, g.is_td_sending,
                 g.body, g.goal_template_id, g.is_deleted, g.updated_at`;
const FROM = 'FROM goals g LEFT JOIN users u ON u.id = g.owner_id';
/** The goals one user sees in a project ($1 the project, $2 the user): public ones and their own. */
const VISIBLE = "g.project_id = $1 AND (g.access = 'common' OR g.owner_id = $2)";

/** `%`, `_` and `\` of a search are themselves. */
const likeOf = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Goals in Postgres. */
@Injectable()
export class GoalsRepository {
  constructor(@Inject(DB) private readonly db: Sql) {}

  /** One page of the goals of a list, newest first, and how many the list has. */
  async list(f: GoalFilter): Promise<{ rows: GoalRow[]; total: number }> {
    const where = [VISIBLE];
    const params: unknown[] = [f.projectId, f.userId];
    // Without the switch, one's own goals (personal or made public); with it, every public one too.
    if (f.commonOnly) where.push("g.access = 'common'");
    else if (!f.showCommon) where.push('g.owner_id = $2');
    if (!f.showDeleted) where.push('NOT g.is_deleted');
    if (f.search !== '') {
      params.push(likeOf(f.search));
      where.push(`g.title ILIKE $${params.length}`);
    }
    const condition = where.join(' AND ');
    const [count] = await this.db.query<{ n: number }>(`SELECT count(*) AS n ${FROM} WHERE ${condition}`, params);
    const rows = await this.db.query<GoalRow>(
      `SELECT ${COLUMNS} ${FROM} WHERE ${condition} ORDER BY g.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, f.limit, f.offset],
    );
    return { rows, total: Number(count?.n ?? 0) };
  }

  /** The goals among `ids` that `userId` sees in the project, deleted ones included. */
  async visibleByIds(projectId: number, userId: number, ids: readonly number[]): Promise<GoalRow[]> {
    return this.db.query<GoalRow>(`SELECT ${COLUMNS} ${FROM} WHERE ${VISIBLE} AND g.id = ANY($3::bigint[]) ORDER BY g.id`, [projectId, userId, ids]);
  }

  /** One goal by id, whoever sees it (the service decides), locked when in a transaction. */
  /**
   * The conversions built on each of these goals (as the goal counted or as the denominator) that
   * `userId` sees: public ones and their own; by goal, oldest first.
   */
  async conversionsOf(goalIds: readonly number[], userId: number): Promise<Map<number, { id: number; title: string }[]>> {
    const found = new Map<number, { id: number; title: string }[]>();
    if (goalIds.length === 0) return found;
    const rows = await this.db.query<{ goal_id: number; id: number; title: string }>(
      `SELECT g.goal_id, c.id, c.title
       FROM conversions c
       CROSS JOIN LATERAL (VALUES (c.numerator_goal_id), (c.denominator_goal_id)) AS g(goal_id)
       WHERE g.goal_id = ANY($1::bigint[]) AND (c.access = 'common' OR c.owner_id = $2)
       GROUP BY g.goal_id, c.id, c.title
       ORDER BY g.goal_id, c.id`,
      [goalIds, userId],
    );
    for (const row of rows) {
      const list = found.get(Number(row.goal_id)) ?? [];
      list.push({ id: Number(row.id), title: row.title });
      found.set(Number(row.goal_id), list);
    }
    return found;
  }

  async byId(id: number, sql: Sql = this.db, lock = false): Promise<GoalRow | null> {
    const [row] = await sql.query<GoalRow>(`SELECT ${COLUMNS} ${FROM} WHERE g.id = $1${lock ? ' FOR UPDATE OF g' : ''}`, [id]);
    return row ?? null;
  }

  /** The live goals of a project made from templates: template id to goal id. */
  async templateGoals(projectId: number): Promise<Map<number, number>> {
    const rows = await this.db.query<{ goal_template_id: number; id: number }>(
      'SELECT goal_template_id, id FROM goals WHERE project_id = $1 AND goal_template_id IS NOT NULL AND NOT is_deleted',
      [projectId],
    );
    return new Map(rows.map((r) => [Number(r.goal_template_id), Number(r.id)]));
  }

  /** Inserts a goal; null when the project already has a live goal of the template. */
  async insert(projectId: number, ownerId: number, fields: GoalFields, templateId: number | null): Promise<GoalRow | null> {
    const [inserted] = await this.db.query<{ id: number }>(
      `INSERT INTO goals (project_id, owner_id, title, description, access, is_protected, is_td_sending, body, goal_template_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)
       ON CONFLICT (project_id, goal_template_id) WHERE goal_template_id IS NOT NULL AND NOT is_deleted DO NOTHING
       RETURNING id`,
      [projectId, ownerId, fields.title, fields.description, fields.access, fields.is_protected, fields.is_td_sending, JSON.stringify(fields.body), templateId],
    );
    return inserted ? this.byId(Number(inserted.id)) : null;
  }

  async update(id: number, fields: GoalFields, sql: Sql = this.db): Promise<void> {
    await sql.query(
      `UPDATE goals SET title = $2, description = $3, access = $4, is_protected = $5, is_td_sending = $6, body = $7::jsonb, updated_at = now()
       WHERE id = $1`,
      [id, fields.title, fields.description, fields.access, fields.is_protected, fields.is_td_sending, JSON.stringify(fields.body)],
    );
  }

  /** Whether a funnel of the project has the goal in a step. */
  async inFunnel(id: number): Promise<boolean> {
    return (await this.db.query('SELECT 1 FROM funnel_steps WHERE $1 = ANY(goal_ids) LIMIT 1', [id])).length > 0;
  }

  async markDeleted(id: number, sql: Sql = this.db): Promise<void> {
    await sql.query('UPDATE goals SET is_deleted = true, updated_at = now() WHERE id = $1', [id]);
  }
}
