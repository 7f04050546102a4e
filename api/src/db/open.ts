import { mkdirSync } from 'node:fs';
import type { Db, DbTarget } from './db.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

/** Opens the database the configuration names. */
export async function openDb(target: DbTarget): Promise<Db> {
  if (target.kind === 'postgres') {
    return openPostgres(target.url, { ...(target.schema ? { schema: target.schema } : {}), ...(target.max ? { max: target.max } : {}) });
  }
  if (!target.dataDir.startsWith('memory://')) mkdirSync(target.dataDir, { recursive: true });
  return openPglite(target.dataDir);
}
