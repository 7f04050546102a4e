import { HttpException, HttpStatus } from '@nestjs/common';
import { clickHouseErrorCode, type ClickHouseClient } from '@stat/storage';
import type { Sql } from './compile.js';

/** §8: a report stopped by the memory limit shows a date picker to shorten the period. */
export const MEMORY_LIMIT_TEXT = 'Превышен лимит памяти';

/**
 * ClickHouse codes of a query stopped by a limit (memory, rows or bytes read, time): the period
 * is too long for the configured limits, which a shorter period answers.
 */
const LIMIT_CODES: ReadonlySet<number> = new Set([
  241, // MEMORY_LIMIT_EXCEEDED
  158, // TOO_MANY_ROWS
  307, // TOO_MANY_BYTES
  159, // TIMEOUT_EXCEEDED
  396, // TOO_MANY_ROWS_OR_BYTES
]);

/** A row of a query's answer: ClickHouse writes 64-bit numbers as strings, so values are read with Number(). */
export type ResultRow = Record<string, unknown>;

/**
 * The report engine's runner: the one place that sends compiled report SQL to ClickHouse. A
 * query stopped by a limit answers 507 with the specification's text; every other failure is
 * the server's (500) and is not dressed up.
 */
export class ReportEngine {
  /** The answers of the queries running now, by their SQL and parameters. */
  private readonly running = new Map<string, Promise<ResultRow[]>>();

  constructor(
    private readonly clickhouse: ClickHouseClient,
    /** ClickHouse settings every report query runs with (the configured scan and memory limits) */
    private readonly settings: { max_memory_usage: number; max_rows_to_read: number } = { max_memory_usage: 0, max_rows_to_read: 0 },
  ) {}

  /**
   * The rows of a query. A query asked again while the same one (same SQL, same parameters) runs
   * shares its answer instead of reading the data again: the table and the graph of one page both
   * ask for the period's totals at once, and users opening one report together ask the same.
   * Nothing is kept once the answer is in, so no answer is ever older than its request.
   */
  async rows(sql: Sql): Promise<ResultRow[]> {
    const key = `${sql.query}\u0000${JSON.stringify(sql.params)}`;
    let answer = this.running.get(key);
    if (answer === undefined) {
      answer = this.read(sql).finally(() => this.running.delete(key));
      this.running.set(key, answer);
    }
    // A list of its own for each caller; the rows themselves are only read.
    return [...(await answer)];
  }

  private async read(sql: Sql): Promise<ResultRow[]> {
    try {
      return await (await this.query(sql)).json<ResultRow>();
    } catch (error) {
      throw asLimitAnswer(error);
    }
  }

  /**
   * The rows of a query in batches as ClickHouse sends them, so that a table of any size passes
   * through without being held (a ClickHouse server streams; chDB hands its answer at once).
   * A limit met before the first batch answers 507; after it, the answer is already under way.
   */
  async *batches(sql: Sql): AsyncGenerator<ResultRow[]> {
    let result: Awaited<ReturnType<ReportEngine['query']>>;
    try {
      result = await this.query(sql);
    } catch (error) {
      throw asLimitAnswer(error);
    }
    for await (const rows of result.stream<ResultRow>()) yield rows.map((row) => row.json<ResultRow>());
  }

  private query(sql: Sql) {
    return this.clickhouse.query({
      query: sql.query,
      query_params: sql.params,
      format: 'JSONEachRow',
      clickhouse_settings: { max_memory_usage: String(this.settings.max_memory_usage), max_rows_to_read: String(this.settings.max_rows_to_read) },
    });
  }
}

/** A query stopped by a limit, as the 507 of §8; any other error unchanged. */
function asLimitAnswer(error: unknown): unknown {
  const code = clickHouseErrorCode(error);
  return code !== null && LIMIT_CODES.has(code) ? new HttpException(MEMORY_LIMIT_TEXT, HttpStatus.INSUFFICIENT_STORAGE) : error;
}
