import type { DbTarget } from '../db/db.js';
import { openDb } from '../db/open.js';
import { migratePostgres } from '../db/migrate.js';
import { hashPassword } from '../auth/passwords.js';
import { ROLE } from '@stat/schemas/accounts';
import { normalizeEmail } from './users.repository.js';
import { passwordProblem } from '@stat/schemas/site';

/**
 * The operator's way to the first administrator: creates the user with role ADMIN, or makes
 * an existing user ADMIN with the given password. Migrates the database first.
 */
export async function createAdministrator(target: DbTarget, email: string, password: string): Promise<'created' | 'updated'> {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) throw new Error(`not an e-mail: ${email}`);
  // The rule of a password chosen in the app (registration, a change); the operator reads English.
  if (passwordProblem(password) !== null) throw new Error('the password must have 8 to 128 characters, not all of them blanks');
  const db = await openDb(target);
  try {
    await migratePostgres(db);
    const hash = await hashPassword(password);
    const [row] = await db.query<{ created: boolean }>(
      `INSERT INTO users (email, password_hash, role_id) VALUES ($1, $2, $3)
       ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash, role_id = excluded.role_id
       RETURNING (xmax = 0) AS created`,
      [normalizeEmail(email), hash, ROLE.ADMIN],
    );
    return row?.created ? 'created' : 'updated';
  } finally {
    await db.close();
  }
}
