import { Inject, Injectable } from '@nestjs/common';
import type { ConstructorTemplateBody } from '@stat/schemas';
import type { Sql } from '../db/db.js';
import { DB } from '../tokens.js';

export interface ConstructorTemplateRow {
  id: number;
  title: string;
  email: string;
  updated_at: Date | string;
  days_in_range: number;
  body: ConstructorTemplateBody;
}

/** What a template is made of, apart from its id and author. */
export interface ConstructorTemplateFields {
  title: string;
  body: ConstructorTemplateBody;
  daysInRange: number;
}

const SELECT = `SELECT t.id::int AS id, t.title, u.email, t.updated_at, t.days_in_range, t.body
                FROM constructor_templates t JOIN users u ON u.id = t.user_id`;

/** Escapes LIKE's own characters in a search text: it is matched as written. */
const likeText = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Constructor templates in Postgres; every read and write is of one user's own. */
@Injectable()
export class ConstructorTemplatesRepository {
  constructor(@Inject(DB) private readonly db: Sql) {}

  /** A page of the user's templates, the latest changed first, and how many match. */
  async list(userId: number, search: string, offset: number, limit: number): Promise<{ rows: ConstructorTemplateRow[]; total: number }> {
    const where = 'WHERE t.user_id = $1 AND ($2 = \'\' OR t.title ILIKE $3)';
    const args = [userId, search, likeText(search)];
    const rows = await this.db.query<ConstructorTemplateRow>(`${SELECT} ${where} ORDER BY t.updated_at DESC, t.id DESC OFFSET $4 LIMIT $5`, [...args, offset, limit]);
    const [count] = await this.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM constructor_templates t ${where}`, args);
    return { rows, total: count?.total ?? 0 };
  }

  async own(userId: number, id: number): Promise<ConstructorTemplateRow | null> {
    const [row] = await this.db.query<ConstructorTemplateRow>(`${SELECT} WHERE t.user_id = $1 AND t.id = $2`, [userId, id]);
    return row ?? null;
  }

  async insert(userId: number, fields: ConstructorTemplateFields): Promise<number> {
    const [row] = await this.db.query<{ id: number }>(
      'INSERT INTO constructor_templates (user_id, title, body, days_in_range) VALUES ($1, $2, $3::jsonb, $4) RETURNING id::int AS id',
      [userId, fields.title, JSON.stringify(fields.body), fields.daysInRange],
    );
    return (row as { id: number }).id;
  }

  /** Changes what is given of a user's own template; false when they have none of that id. */
  async update(userId: number, id: number, fields: Partial<ConstructorTemplateFields>): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE constructor_templates
          SET title = coalesce($3, title), body = coalesce($4::jsonb, body), days_in_range = coalesce($5, days_in_range), updated_at = now()
        WHERE user_id = $1 AND id = $2 RETURNING id`,
      [userId, id, fields.title ?? null, fields.body === undefined ? null : JSON.stringify(fields.body), fields.daysInRange ?? null],
    );
    return rows.length > 0;
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM constructor_templates WHERE user_id = $1 AND id = $2 RETURNING id', [userId, id]);
    return rows.length > 0;
  }
}
