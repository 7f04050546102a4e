import { PGlite, type Transaction } from '@electric-sql/pglite';
import { INT8_OID, type Db, type Sql } from './db.js';

/**
 * PGlite, the real Postgres compiled to WASM, in this process. It runs one statement at a
 * time, so a transaction holds it whole: inside `transaction`, use only the `tx` given.
 */
export async function openPglite(dataDir: string): Promise<Db> {
  const pg = await PGlite.create(dataDir, { parsers: { [INT8_OID]: (value: string) => Number(value) } });
  const wrap = (runner: PGlite | Transaction): Sql => ({
    async query<T>(text: string, params: readonly unknown[] = []) {
      const result = await runner.query<T>(text, params as unknown[]);
      return result.rows;
    },
    async exec(script: string) {
      await runner.exec(script);
    },
  });
  const base = wrap(pg);
  return {
    kind: 'pglite',
    query: base.query,
    exec: base.exec,
    transaction: (work) => pg.transaction((tx) => work(wrap(tx))),
    close: () => pg.close(),
  };
}
