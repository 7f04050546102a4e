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
  constructor(
    private readonly clickhouse: ClickHouseClient,
    /** ClickHouse settings every report query runs with (the configured scan and memory limits) */
    private readonly settings: { max_memory_usage: number; max_rows_to_read: number } = { max_memory_usage: 0, max_rows_to_read: 0 },
  ) {}

  async rows(sql: Sql): Promise<ResultRow[]> {
    try {
      const result = await this.clickhouse.query({
        query: sql.query,
        query_params: sql.params,
        format: 'JSONEachRow',
        clickhouse_settings: { max_memory_usage: String(this.settings.max_memory_usage), max_rows_to_read: String(this.settings.max_rows_to_read) },
      });
      return await result.json<ResultRow>();
    } catch (error) {
      const code = clickHouseErrorCode(error);
      if (code !== null && LIMIT_CODES.has(code)) throw new HttpException(MEMORY_LIMIT_TEXT, HttpStatus.INSUFFICIENT_STORAGE);
      throw error;
    }
  }
}
