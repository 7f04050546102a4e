import { randomBytes } from 'node:crypto';
import { HttpException, HttpStatus } from '@nestjs/common';
import { clickHouseErrorCode, type ClickHouseClient } from '@stat/storage';
import type { Logger, Metrics } from '@stat/telemetry';
import type { Sql } from './sql/params.js';

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

/** The `report` label of a query asked outside a report's request (the rating's schedule). */
const NO_REPORT = 'other';

/** Where the engine tells the operator what each query cost. */
export interface ReportObserver {
  metrics: Metrics;
  logger: Logger;
}

/**
 * What the runner knows of the request it serves (the api's request context, handed in by whoever
 * builds the runner): its id, and the report it reads once the planner knows it.
 */
export interface QueryContext {
  readonly requestId: string;
  report?: string;
}

/** A row of a query's answer: ClickHouse writes 64-bit numbers as strings, so values are read with Number(). */
export type ResultRow = Record<string, unknown>;

/**
 * The report engine's runner: the one place that sends compiled report SQL to ClickHouse. A
 * query stopped by a limit answers 507 with the specification's text; every other failure is
 * the server's (500) and is not dressed up.
 *
 * Every query carries the request's id in its ClickHouse query_id (`<request id>-<random>`, to
 * find it in system.query_log), is timed into stat_report_seconds{report,table} and logged with
 * the request id, the report, the table, its rows and its duration.
 */
export class ReportEngine {
  /** The answers of the queries running now, by their SQL and parameters. */
  private readonly running = new Map<string, Promise<ResultRow[]>>();

  constructor(
    private readonly clickhouse: ClickHouseClient,
    /** ClickHouse settings every report query runs with (the configured scan and memory limits) */
    private readonly settings: { max_memory_usage: number; max_rows_to_read: number } = { max_memory_usage: 0, max_rows_to_read: 0 },
    private readonly observer: ReportObserver | null = null,
    /** the request being served, or undefined outside one (the rating's schedule) */
    private readonly context: () => QueryContext | undefined = () => undefined,
  ) {}

  /** Labels the current request's queries with the report it reads (metrics, log lines). */
  nameReport(report: string): void {
    const context = this.context();
    if (context) context.report = report;
  }

  /**
   * The rows of a query. A query asked again while the same one (same SQL, same parameters) runs
   * shares its answer instead of reading the data again: the table and the graph of one page both
   * ask for the period's totals at once, and users opening one report together ask the same.
   * Nothing is kept once the answer is in, so no answer is ever older than its request.
   */
  async rows(sql: Sql, report?: string): Promise<ResultRow[]> {
    const key = `${sql.query}\u0000${JSON.stringify(sql.params)}`;
    let answer = this.running.get(key);
    if (answer === undefined) {
      answer = this.read(sql, report).finally(() => this.running.delete(key));
      this.running.set(key, answer);
    }
    // A list of its own for each caller; the rows themselves are only read.
    return [...(await answer)];
  }

  private async read(sql: Sql, report: string | undefined): Promise<ResultRow[]> {
    const watch = this.watch(sql, report);
    try {
      const rows = await (await this.query(sql, watch.queryId)).json<ResultRow>();
      watch.done(rows.length);
      return rows;
    } catch (error) {
      watch.failed(error);
      throw asLimitAnswer(error);
    }
  }

  /** Times a query and tells the operator of it once it is done, with the request's id and report. */
  private watch(sql: Sql, named?: string): { queryId: string | undefined; done(rows: number): void; failed(error: unknown): void } {
    const ctx = this.context();
    const report = named ?? ctx?.report ?? NO_REPORT;
    const queryId = ctx ? `${ctx.requestId}-${randomBytes(4).toString('hex')}` : undefined;
    const started = performance.now();
    const line = (): Record<string, unknown> => ({ request_id: ctx?.requestId, query_id: queryId, report, table: sql.table, duration_ms: Math.round((performance.now() - started) * 10) / 10 });
    const observe = (): void => this.observer?.metrics.reportSeconds.observe({ report, table: sql.table }, (performance.now() - started) / 1000);
    return {
      queryId,
      done: (rows) => {
        observe();
        this.observer?.logger.info({ ...line(), rows }, 'report query');
      },
      failed: (error) => {
        observe();
        this.observer?.logger.warn({ ...line(), error: error instanceof Error ? error.message : String(error) }, 'report query failed');
      },
    };
  }

  /**
   * The rows of a query in batches as ClickHouse sends them, so that a table of any size passes
   * through without being held (a ClickHouse server streams; chDB hands its answer at once).
   * A limit met before the first batch answers 507; after it, the answer is already under way.
   */
  async *batches(sql: Sql): AsyncGenerator<ResultRow[]> {
    let result: Awaited<ReturnType<ReportEngine['query']>>;
    const watch = this.watch(sql);
    try {
      result = await this.query(sql, watch.queryId);
    } catch (error) {
      watch.failed(error);
      throw asLimitAnswer(error);
    }
    let count = 0;
    try {
      for await (const rows of result.stream<ResultRow>()) {
        count += rows.length;
        yield rows.map((row) => row.json<ResultRow>());
      }
    } catch (error) {
      watch.failed(error);
      throw error;
    }
    watch.done(count);
  }

  private query(sql: Sql, queryId: string | undefined) {
    return this.clickhouse.query({
      query: sql.query,
      query_params: sql.params,
      ...(queryId === undefined ? {} : { query_id: queryId }),
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
