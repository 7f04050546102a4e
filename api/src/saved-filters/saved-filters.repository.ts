import { Inject, Injectable } from '@nestjs/common';
import { sameTemplateTitle, type SavedFilterBody, type SavedFilterType } from '@stat/schemas';
import type { Sql } from '../db/db.js';
import { DB } from '../tokens.js';

export interface SavedFilterRow {
  id: number;
  author_id: number | null;
  title: string;
  type: SavedFilterType;
  body: SavedFilterBody;
}

/** What a saved filter is made of, apart from its id and project. */
export interface SavedFilterFields {
  /** null only for a shared filter whose author's account is gone */
  authorId: number | null;
  title: string;
  type: SavedFilterType;
  body: SavedFilterBody;
}

const COLUMNS = 'id, author_id, title, type, body';
/** The rows one user sees in a project ($1 the project, $2 the user): shared ones and their own. */
const VISIBLE = "project_id = $1 AND (type = 'shared' OR author_id = $2)";

/** Saved filters in Postgres. */
@Injectable()
export class SavedFiltersRepository {
  constructor(@Inject(DB) private readonly db: Sql) {}

  /** The filters `userId` sees in the project, oldest first. */
  async visible(projectId: number, userId: number, sql: Sql = this.db): Promise<SavedFilterRow[]> {
    return sql.query<SavedFilterRow>(`SELECT ${COLUMNS} FROM saved_filters WHERE ${VISIBLE} ORDER BY id`, [projectId, userId]);
  }

  /**
   * Makes the saved filters of one project change one transaction at a time (the project row
   * is locked; its key stays free for other tables' references), so that the title check and
   * the write that follows it see the same titles.
   */
  async lockProject(projectId: number, tx: Sql): Promise<void> {
    await tx.query('SELECT 1 FROM projects WHERE id = $1 FOR NO KEY UPDATE', [projectId]);
  }

  /** One filter that `userId` sees in the project, locked for the rest of the transaction. */
  async visibleForUpdate(projectId: number, id: number, userId: number, tx: Sql): Promise<SavedFilterRow | null> {
    const [row] = await tx.query<SavedFilterRow>(`SELECT ${COLUMNS} FROM saved_filters WHERE ${VISIBLE} AND id = $3 FOR UPDATE`, [projectId, userId, id]);
    return row ?? null;
  }

  /** Whether `userId` sees, in the project, a filter titled `title` other than `exceptId`. */
  /** Whether a template the user sees already has this title, as a reader tells names apart (sameTemplateTitle). */
  async titleSeen(projectId: number, userId: number, title: string, exceptId: number | null, sql: Sql): Promise<boolean> {
    // Compared here, not by Postgres: its lower() of Cyrillic depends on the database's locale.
    const rows = await sql.query<{ title: string }>(`SELECT title FROM saved_filters WHERE ${VISIBLE} AND id IS DISTINCT FROM $3`, [projectId, userId, exceptId]);
    return rows.some((row) => sameTemplateTitle(row.title, title));
  }

  async insert(projectId: number, fields: SavedFilterFields, tx: Sql): Promise<SavedFilterRow> {
    const [row] = await tx.query<SavedFilterRow>(
      `INSERT INTO saved_filters (project_id, author_id, title, type, body) VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING ${COLUMNS}`,
      [projectId, fields.authorId, fields.title, fields.type, JSON.stringify(fields.body)],
    );
    return row as SavedFilterRow;
  }

  async update(id: number, fields: SavedFilterFields, tx: Sql): Promise<SavedFilterRow> {
    const [row] = await tx.query<SavedFilterRow>(
      `UPDATE saved_filters SET author_id = $2, title = $3, type = $4, body = $5::jsonb, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, fields.authorId, fields.title, fields.type, JSON.stringify(fields.body)],
    );
    return row as SavedFilterRow;
  }

  /** Deletes a filter `userId` sees in the project; false when there is none. */
  async deleteVisible(projectId: number, id: number, userId: number): Promise<boolean> {
    const rows = await this.db.query(`DELETE FROM saved_filters WHERE ${VISIBLE} AND id = $3 RETURNING id`, [projectId, userId, id]);
    return rows.length > 0;
  }
}
