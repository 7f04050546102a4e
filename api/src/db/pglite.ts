import { PGlite, type Transaction } from '@electric-sql/pglite';
import { INT8_OID, sqlOf, type Db, type Sql } from './db.js';

/**
 * PGlite, the real Postgres compiled to WASM, in this process. It runs one statement at a
 * time, so a transaction holds it whole: inside `transaction`, use only the `tx` given.
 */
export async function openPglite(dataDir: string): Promise<Db> {
  const pg = await PGlite.create(dataDir, { parsers: { [INT8_OID]: (value: string) => Number(value) } });
  const wrap = (runner: PGlite | Transaction): Sql => sqlOf({ query: (text, params) => runner.query(text, params), exec: (script) => runner.exec(script) });
  return {
    kind: 'pglite',
    ...wrap(pg),
    transaction: (work) => pg.transaction((tx) => work(wrap(tx))),
    close: () => pg.close(),
  };
}
