import { Inject, Injectable } from '@nestjs/common';
import type { Sql } from '../db/db.js';
import { DB } from '../tokens.js';
import type { Principal } from '../auth/principal.js';

interface PrincipalRow {
  id: number;
  email: string;
  user_name: string;
  role_id: number;
  auth_type: string;
  snackbars: Record<string, unknown>;
  meta_tips: Record<string, unknown>;
  is_staff: boolean;
  permissions: string[];
}

const PRINCIPAL_SQL = `
  SELECT u.id, u.email, u.user_name, u.role_id, u.auth_type, u.snackbars, u.meta_tips, r.is_staff,
         coalesce(array_agg(rp.permission ORDER BY rp.permission) FILTER (WHERE rp.permission IS NOT NULL), '{}') AS permissions
  FROM users u
  JOIN roles r ON r.id = u.role_id
  LEFT JOIN role_permissions rp ON rp.role_id = u.role_id`;

/** Users in Postgres. */
@Injectable()
export class UsersRepository {
  constructor(@Inject(DB) private readonly db: Sql) {}

  async principal(id: number): Promise<Principal | null> {
    const [row] = await this.db.query<PrincipalRow>(`${PRINCIPAL_SQL} WHERE u.id = $1 GROUP BY u.id, r.is_staff`, [id]);
    return row ? toPrincipal(row) : null;
  }

  async credentials(email: string): Promise<{ id: number; passwordHash: string | null } | null> {
    const [row] = await this.db.query<{ id: number; password_hash: string | null }>(
      'SELECT id, password_hash FROM users WHERE email = $1',
      [normalizeEmail(email)],
    );
    return row ? { id: row.id, passwordHash: row.password_hash } : null;
  }

  async passwordHash(id: number): Promise<string | null> {
    const [row] = await this.db.query<{ password_hash: string | null }>('SELECT password_hash FROM users WHERE id = $1', [id]);
    return row?.password_hash ?? null;
  }

  async setPasswordHash(id: number, passwordHash: string): Promise<void> {
    await this.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [id, passwordHash]);
  }

  async setName(id: number, userName: string): Promise<void> {
    await this.db.query('UPDATE users SET user_name = $2 WHERE id = $1', [id, userName]);
  }

  /** The user's hints, in the server's form (`storedHints`): written whole, the last write wins. */
  async setMetaTips(id: number, stored: Record<string, unknown>): Promise<void> {
    await this.db.query('UPDATE users SET meta_tips = $2::jsonb WHERE id = $1', [id, JSON.stringify(stored)]);
  }

  /** Creates a user; null when the e-mail is taken. */
  async create(user: { email: string; passwordHash: string; userName: string; roleId: number }, sql: Sql = this.db): Promise<number | null> {
    const [row] = await sql.query<{ id: number }>(
      `INSERT INTO users (email, password_hash, user_name, role_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (email) DO NOTHING RETURNING id`,
      [normalizeEmail(user.email), user.passwordHash, user.userName, user.roleId],
    );
    return row?.id ?? null;
  }

  async idsByEmail(emails: readonly string[], sql: Sql = this.db): Promise<Map<string, number>> {
    const rows = await sql.query<{ id: number; email: string }>('SELECT id, email FROM users WHERE email = ANY($1::text[])', [
      emails.map(normalizeEmail),
    ]);
    return new Map(rows.map((r) => [r.email, r.id]));
  }
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toPrincipal(row: PrincipalRow): Principal {
  return {
    id: row.id,
    email: row.email,
    userName: row.user_name,
    roleId: row.role_id,
    authType: row.auth_type,
    isStaff: row.is_staff,
    permissions: new Set(row.permissions),
    snackbars: row.snackbars,
    metaTips: row.meta_tips,
  };
}
