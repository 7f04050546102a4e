import { Inject, Injectable } from '@nestjs/common';
import type { Funnel, GoalAccess, GoalBody } from '@stat/schemas';
import type { Sql } from '../db/db.js';
import { DB } from '../tokens.js';

/** A funnel's row with its steps (goal titles joined). */
interface FunnelRow {
  id: number;
  title: string;
  author_id: number | null;
  steps: { step_number: number; step_title: string; goals: { goal_id: number; goal_title: string }[] }[] | null;
}

/** A goal as a funnel needs it. */
export interface StepGoalRow {
  id: number;
  owner_id: number | null;
  access: GoalAccess;
  is_deleted: boolean;
  body: GoalBody;
}

/** The steps as stored: goal ids per step, in order. */
export interface StepFields {
  step_title: string;
  goals: number[];
}

// Steps in order, each with its goals in the order given and their titles.
const SELECT = `SELECT f.id, f.title, f.author_id,
  (SELECT jsonb_agg(jsonb_build_object('step_number', s.step_number, 'step_title', s.step_title,
          'goals', (SELECT coalesce(jsonb_agg(jsonb_build_object('goal_id', g.id, 'goal_title', g.title) ORDER BY u.ord), '[]'::jsonb)
                    FROM unnest(s.goal_ids) WITH ORDINALITY AS u(goal_id, ord) JOIN goals g ON g.id = u.goal_id)) ORDER BY s.step_number)
   FROM funnel_steps s WHERE s.funnel_id = f.id) AS steps
  FROM funnels f`;

const likeOf = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const view = (row: FunnelRow): Funnel => ({
  id: Number(row.id),
  title: row.title,
  steps: (row.steps ?? []).map((s) => ({ step_number: s.step_number, step_title: s.step_title, goals: s.goals.map((g) => ({ goal_id: Number(g.goal_id), goal_title: g.goal_title })) })),
});

/** Funnels in Postgres. */
@Injectable()
export class FunnelsRepository {
  constructor(@Inject(DB) private readonly db: Sql) {}

  async list(projectId: number, search: string, limit: number, offset: number): Promise<{ funnels: Funnel[]; total: number }> {
    const params: unknown[] = [projectId];
    let where = 'f.project_id = $1';
    if (search !== '') {
      params.push(likeOf(search));
      where += ` AND f.title ILIKE $${params.length}`;
    }
    const [count] = await this.db.query<{ n: number }>(`SELECT count(*) AS n FROM funnels f WHERE ${where}`, params);
    const rows = await this.db.query<FunnelRow>(`${SELECT} WHERE ${where} ORDER BY f.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [...params, limit, offset]);
    return { funnels: rows.map(view), total: Number(count?.n ?? 0) };
  }

  /** One funnel of the project, with its author; null when there is none. */
  async get(projectId: number, id: number, sql: Sql = this.db): Promise<{ funnel: Funnel; authorId: number | null } | null> {
    const [row] = await sql.query<FunnelRow>(`${SELECT} WHERE f.project_id = $1 AND f.id = $2`, [projectId, id]);
    return row ? { funnel: view(row), authorId: row.author_id === null ? null : Number(row.author_id) } : null;
  }

  /** The goals of a project with these ids. */
  async goals(projectId: number, ids: readonly number[], sql: Sql = this.db): Promise<StepGoalRow[]> {
    return sql.query<StepGoalRow>('SELECT id, owner_id, access, is_deleted, body FROM goals WHERE project_id = $1 AND id = ANY($2::bigint[])', [projectId, ids]);
  }

  /** The goals of each step of a funnel, in step order. */
  async stepGoals(funnelId: number): Promise<{ step_title: string; bodies: GoalBody[] }[]> {
    const rows = await this.db.query<{ step_title: string; bodies: GoalBody[] | null }>(
      `SELECT s.step_title, (SELECT jsonb_agg(g.body ORDER BY u.ord) FROM unnest(s.goal_ids) WITH ORDINALITY AS u(goal_id, ord) JOIN goals g ON g.id = u.goal_id) AS bodies
       FROM funnel_steps s WHERE s.funnel_id = $1 ORDER BY s.step_number`,
      [funnelId],
    );
    return rows.map((r) => ({ step_title: r.step_title, bodies: r.bodies ?? [] }));
  }

  async insert(projectId: number, authorId: number, title: string, tx: Sql): Promise<number> {
    const [row] = await tx.query<{ id: number }>('INSERT INTO funnels (project_id, author_id, title) VALUES ($1, $2, $3) RETURNING id', [projectId, authorId, title]);
    return Number(row!.id);
  }

  async rename(id: number, title: string, tx: Sql): Promise<void> {
    await tx.query('UPDATE funnels SET title = $2, updated_at = now() WHERE id = $1', [id, title]);
  }

  /** Replaces the steps, numbered 1, 2, … in the order given. */
  async setSteps(id: number, steps: readonly StepFields[], tx: Sql): Promise<void> {
    await tx.query('DELETE FROM funnel_steps WHERE funnel_id = $1', [id]);
    for (const [i, step] of steps.entries()) {
      await tx.query('INSERT INTO funnel_steps (funnel_id, step_number, step_title, goal_ids) VALUES ($1, $2, $3, $4::bigint[])', [id, i + 1, step.step_title, step.goals]);
    }
  }

  /** Funnels are public: the personal goals in one become public (§4). */
  async makeGoalsPublic(ids: readonly number[], tx: Sql): Promise<void> {
    await tx.query("UPDATE goals SET access = 'common', updated_at = now() WHERE id = ANY($1::bigint[]) AND access = 'own'", [ids]);
  }

  async delete(projectId: number, id: number): Promise<boolean> {
    return (await this.db.query('DELETE FROM funnels WHERE project_id = $1 AND id = $2 RETURNING id', [projectId, id])).length > 0;
  }
}
