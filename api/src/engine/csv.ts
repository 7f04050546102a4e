import type { MetricInfo } from '@stat/schemas';
import { downloadName } from '@stat/schemas/period';

/**
 * The report CSV of specification 001 (§9: "semicolons, comma decimals, BOM"), as a spreadsheet
 * in a Russian locale opens it: a byte-order mark so that the text is read as UTF-8, fields
 * separated by semicolons, decimals with a comma, no thousands separators (a spreadsheet would
 * read them as text), and lines ended by CRLF (RFC 4180).
 */

/**
 * A metric's column title in the file: its title, with its unit where the number alone does not
 * say it (the table shows «13,84%» and «02:18»; the file has the numbers 13,84 and 138,8).
 */
export function csvMetricTitle(info: Pick<MetricInfo, 'title' | 'unit'>): string {
  return info.unit === 'percent' ? `${info.title}, %` : info.unit === 'seconds' ? `${info.title}, с` : info.title;
}

/** The UTF-8 byte-order mark that starts the file. */
export const BOM = '\uFEFF';

/** A field that holds a separator, a quote, a line break or edge spaces is quoted, quotes doubled. */
function field(value: string): string {
  return /[;"\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A number as the table shows it, for a spreadsheet: a comma for the decimal point. */
export function csvNumber(value: number): string {
  return Number.isFinite(value) ? String(value).replace('.', ',') : '';
}

/** §2: a value the reader may not see, as the table shows it. */
const HIDDEN_VALUE = 'NA';

/**
 * Text a spreadsheet could run as a formula: one starting with a formula's sign (`=`, `+`, `-`,
 * `@`, also in their full-width forms, which some spreadsheets read as the same), or with a tab
 * or a line break, or with any blank before such a sign: spreadsheets trim a cell's leading
 * blanks and line breaks on import, so « =1+1» and "\r=1+1" are the formula =1+1.
 */
const FORMULA = /^[\t\r\n]|^[\s\u200b\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20]/;

/** One line of the file. Text fields that a spreadsheet would take for a formula are kept as text (a leading apostrophe). */
export function csvLine(values: readonly (string | number | null)[]): string {
  return `${values.map((v) => (v === null ? HIDDEN_VALUE : typeof v === 'number' ? csvNumber(v) : field(FORMULA.test(v) ? `'${v}` : v))).join(';')}\r\n`;
}

/**
 * The download's name: the report's title and period, e.g. «Источники трафика 2026-11-01 — 2026-11-10.csv»,
 * as a Content-Disposition value with an ASCII fallback for old clients (RFC 6266).
 */
export function csvDisposition(reportName: string, title: string, dateStart: string, dateEnd: string): string {
  const utf8 = downloadName(title, dateStart, dateEnd, 'csv');
  const ascii = `${reportName}_${dateStart}_${dateEnd}.csv`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(utf8)}`;
}
