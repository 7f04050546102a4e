/**
 * Where the ClickHouse migrations live: numbered, append-only `NNNN_name.sql` files in
 * `schemas/migrations/clickhouse/`. They are contract, as files; the runner that applies them is
 * in `@stat/storage`. Resolved beside this module, so it names the same folder from `src/`
 * (under vitest) and from `dist/` (at run time). Exported as `@stat/schemas/migrations`, not from
 * the package's index, so that the browser never meets a file-system path.
 */
export const CLICKHOUSE_MIGRATIONS_DIR: URL = new URL('../migrations/clickhouse/', import.meta.url);
