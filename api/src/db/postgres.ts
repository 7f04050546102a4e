import pg from 'pg';
import { INT8_OID, sqlOf, type Db, type Sql } from './db.js';

/**
 * A PostgreSQL server through a `pg` pool. `schema`, when given, is created if missing and
 * put first on every connection's search_path (the cluster tests run each in its own schema).
 */
export async function openPostgres(url: string, options: { schema?: string; max?: number } = {}): Promise<Db> {
  const { schema, max = 10 } = options;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types,
    ...(schema ? { options: `-c search_path=${schema},public` } : {}),
  });
  // An idle client's error (a server restart) must not crash the process; the next query fails instead.
  pool.on('error', () => undefined);
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);

  const wrap = (runner: pg.Pool | pg.PoolClient): Sql => sqlOf({ query: (text, params) => runner.query(text, params), exec: (script) => runner.query(script) });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
