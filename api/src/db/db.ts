/** One row of a result, column name to value. */
type Row = Record<string, unknown>;

/** Something that runs SQL with `$1` parameters: the database, or a transaction on it. */
export interface Sql {
  /** Runs one statement; values travel only as parameters, never inside `text`. */
  query<T = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations only). */
  exec(script: string): Promise<void>;
}

/**
 * The api's one view of Postgres, whichever engine is under it (PGlite in the process, or a
 * PostgreSQL server through `pg`). Both speak the same dialect; the code above never knows which.
 *
 * Type mapping shared by both adapters: int8 (`bigint`, `count(*)`) arrives as a JS number
 * (every id and count here is far below 2^53), timestamptz as Date, jsonb as parsed JSON,
 * int4[] as number[].
 */
export interface Db extends Sql {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** `pglite` or `postgres`, for log lines only. */
  readonly kind: 'pglite' | 'postgres';
}

/** Where Postgres is: a data directory for PGlite (`memory://` for none), or a server URL. */
export type DbTarget = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string; schema?: string; max?: number };

/** What an adapter's driver runs statements on (a connection, a pool, a transaction), as its results come. */
export interface SqlRunner {
  query(text: string, params: unknown[]): Promise<{ rows: unknown[] }>;
  exec(script: string): Promise<unknown>;
}

/** The {@link Sql} of a driver's runner: the rows of one statement, and a script run whole. */
export function sqlOf(runner: SqlRunner): Sql {
  return {
    async query<T>(text: string, params: readonly unknown[] = []) {
      const result = await runner.query(text, params as unknown[]);
      return result.rows as T[];
    },
    async exec(script: string) {
      await runner.exec(script);
    },
  };
}

/** Postgres type oids the adapters parse the same way. */
export const INT8_OID = 20;
