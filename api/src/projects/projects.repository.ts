import { Inject, Injectable } from '@nestjs/common';
import type { RatingStatus } from '@stat/schemas/rating';
import type { Sql } from '../db/db.js';
import { DB } from '../tokens.js';

export interface ProjectRow {
  id: number;
  title: string;
  url: string;
  cleaned_url: string;
  owner_id: number | null;
  counter_settings: Record<string, unknown>;
  favicon: string | null;
  deleted_at: Date | null;
  created_at: Date;
  in_rating: boolean;
  rating_status: RatingStatus;
  can_be_in_rate: boolean;
  public_stats: boolean;
  keywords: string;
  categories: number[];
  regions: number[];
  types: number[];
}

export interface ListedRow extends ProjectRow {
  access_level: number | null;
  has_access_requests: boolean;
}

const COLUMNS = `p.id, p.title, p.url, p.cleaned_url, p.owner_id, p.counter_settings, p.favicon, p.deleted_at, p.created_at,
  p.in_rating, p.rating_status, p.can_be_in_rate, p.public_stats, p.keywords, p.categories, p.regions, p.types`;

/** A search term as a LIKE pattern: its own % and _ match themselves. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface ListFilter {
  userId: number;
  /** every project (the «all accessible projects» switch of read_all_projects roles) */
  all: boolean;
  /** the user may edit every project: every deleted one is theirs to restore */
  editAll: boolean;
  deleted: boolean;
  search: string | null;
  limit: number;
  offset: number;
}

/** Projects in Postgres. */
@Injectable()
export class ProjectsRepository {
  constructor(@Inject(DB) private readonly db: Sql) {}

  async get(id: number, sql: Sql = this.db): Promise<ProjectRow | null> {
    const [row] = await sql.query<ProjectRow>(`SELECT ${COLUMNS} FROM projects p WHERE p.id = $1`, [id]);
    return row ?? null;
  }

  /** The owner first, then the users shared with, each with an access level. */
  async users(id: number, sql: Sql = this.db): Promise<{ user_id: number; email: string; access_level: number; is_owner: boolean }[]> {
    return sql.query(
      `SELECT u.id AS user_id, u.email, 0 AS access_level, true AS is_owner FROM projects p JOIN users u ON u.id = p.owner_id WHERE p.id = $1
       UNION ALL
       SELECT u.id, u.email, pa.access_level, false FROM project_access pa JOIN users u ON u.id = pa.user_id WHERE pa.project_id = $1
       ORDER BY is_owner DESC, email`,
      [id],
    );
  }

  async list(filter: ListFilter): Promise<{ rows: ListedRow[]; active: number; deleted: number }> {
    const visible = `
      FROM projects p
      LEFT JOIN project_access pa ON pa.project_id = p.id AND pa.user_id = $1
      WHERE (p.owner_id = $1 OR pa.user_id IS NOT NULL OR $2::boolean)
        AND ($3::text IS NULL OR p.title ILIKE $3 OR p.url ILIKE $3 OR p.id::text = $4)`;
    const editable = `(p.owner_id = $1 OR pa.access_level = 0 OR $5::boolean)`;
    const pattern = filter.search ? likePattern(filter.search) : null;
    const params = [filter.userId, filter.all, pattern, filter.search ?? '', filter.editAll];
    const [counts] = await this.db.query<{ active: number; deleted: number }>(
      `SELECT count(*) FILTER (WHERE p.deleted_at IS NULL) AS active,
              count(*) FILTER (WHERE p.deleted_at IS NOT NULL AND ${editable}) AS deleted ${visible}`,
      params,
    );
    const rows = await this.db.query<ListedRow>(
      `SELECT ${COLUMNS}, pa.access_level,
              EXISTS (SELECT 1 FROM access_requests r WHERE r.project_id = p.id AND r.status = 'pending') AS has_access_requests
       ${visible}
         AND CASE WHEN $8::boolean THEN p.deleted_at IS NOT NULL AND ${editable} ELSE p.deleted_at IS NULL END
       ORDER BY p.created_at DESC, p.id DESC
       LIMIT $6 OFFSET $7`,
      [...params, filter.limit, filter.offset, filter.deleted],
    );
    return { rows, active: counts?.active ?? 0, deleted: counts?.deleted ?? 0 };
  }

  /** Projects linked to the user (owned or shared), not deleted. */
  async linked(userId: number, search: string | null, limit: number, offset: number): Promise<{ rows: (ProjectRow & { access_level: number | null })[]; total: number }> {
    const where = `FROM projects p LEFT JOIN project_access pa ON pa.project_id = p.id AND pa.user_id = $1
      WHERE p.deleted_at IS NULL AND (p.owner_id = $1 OR pa.user_id IS NOT NULL)
        AND ($2::text IS NULL OR p.title ILIKE $2 OR p.url ILIKE $2 OR p.id::text = $3)`;
    const params = [userId, search ? likePattern(search) : null, search ?? ''];
    const [count] = await this.db.query<{ n: number }>(`SELECT count(*) AS n ${where}`, params);
    const rows = await this.db.query<ProjectRow & { access_level: number | null }>(
      `SELECT ${COLUMNS}, pa.access_level ${where} ORDER BY p.created_at DESC, p.id DESC LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    );
    return { rows, total: count?.n ?? 0 };
  }

  async sameUrl(cleanedUrl: string, limit: number, offset: number): Promise<{ rows: ProjectRow[]; total: number }> {
    const [count] = await this.db.query<{ n: number }>('SELECT count(*) AS n FROM projects WHERE cleaned_url = $1 AND deleted_at IS NULL', [cleanedUrl]);
    const rows = await this.db.query<ProjectRow>(
      `SELECT ${COLUMNS} FROM projects p WHERE p.cleaned_url = $1 AND p.deleted_at IS NULL ORDER BY p.created_at, p.id LIMIT $2 OFFSET $3`,
      [cleanedUrl, limit, offset],
    );
    return { rows, total: count?.n ?? 0 };
  }

  async createdSince(userId: number, hours: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(*) AS n FROM projects WHERE created_by = $1 AND created_at > now() - $2 * interval '1 hour'`,
      [userId, hours],
    );
    return row?.n ?? 0;
  }

  async insert(project: { title: string; url: string; cleanedUrl: string; ownerId: number; counterSettings: object }): Promise<number> {
    const [row] = await this.db.query<{ id: number }>(
      `INSERT INTO projects (title, url, cleaned_url, owner_id, created_by, counter_settings)
       VALUES ($1, $2, $3, $4, $4, $5::jsonb) RETURNING id`,
      [project.title, project.url, project.cleanedUrl, project.ownerId, JSON.stringify(project.counterSettings)],
    );
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return row.id;
  }

  async updateSettings(id: number, title: string | null, settings: object | null, sql: Sql = this.db): Promise<void> {
    await sql.query(
      `UPDATE projects SET title = coalesce($2, title), counter_settings = counter_settings || coalesce($3::jsonb, '{}'::jsonb),
              updated_at = now()
       WHERE id = $1
         -- a save that changes nothing writes nothing (updated_at included)
         AND (title IS DISTINCT FROM coalesce($2, title) OR counter_settings IS DISTINCT FROM counter_settings || coalesce($3::jsonb, '{}'::jsonb))`,
      [id, title, settings === null ? null : JSON.stringify(settings)],
    );
  }

  async setDeleted(id: number, deleted: boolean): Promise<void> {
    await this.db.query(`UPDATE projects SET deleted_at = ${deleted ? 'now()' : 'NULL'}, updated_at = now() WHERE id = $1`, [id]);
  }

  async setFavicon(id: number, favicon: string | null): Promise<void> {
    await this.db.query('UPDATE projects SET favicon = coalesce($2, favicon), favicon_checked_at = now() WHERE id = $1', [id, favicon]);
  }
}
