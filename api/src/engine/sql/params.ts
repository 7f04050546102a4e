import { BadRequestException } from '@nestjs/common';
import { REPORT_TIME_ZONE } from '@stat/schemas';

/**
 * The compiled statement and its typed parameters: every value of a request travels as a query
 * parameter under a generated name, never in the SQL text.
 */

export interface Sql {
  query: string;
  params: Record<string, unknown>;
  /**
   * The table or rollup the query reads (`events`, `visits`, `rollup_day`, …), from this file's
   * allow-list: the `table` label of stat_report_seconds and of the query's log line.
   */
  table: string;
}

/** A request the compiler refuses (a filter value of the wrong kind): the api answers 400 with its message. */
export class ReportQueryError extends BadRequestException {}

export const TZ = `'${REPORT_TIME_ZONE}'`;

/** Collects the typed parameters of one query under generated names. */
export class Params {
  readonly values: Record<string, unknown> = {};
  private next = 0;

  add(value: unknown, type: string): string {
    const name = `p${this.next++}`;
    this.values[name] = value;
    return `{${name}:${type}}`;
  }
}
