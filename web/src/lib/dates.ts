/**
 * Dates and times as the reports show them: in Moscow time (spec: reports use Moscow time,
 * GMT+3), whatever the browser's own zone is. Calendar dates travel as ISO strings
 * `YYYY-MM-DD` (`IsoDate`); their arithmetic (adding days, weeks, months) is shared with the api in
 * `@stat/schemas/period`; what is here reads the browser's clock and writes Russian.
 */
import { isIsoDate, type IsoDate } from '@stat/schemas/period';
import { MOSCOW_OFFSET_MS } from '@stat/schemas/time';

// The labels of days and months, shared with the api's CSV.
export { formatIsoDate, formatMonth, MONTHS_NOMINATIVE } from '@stat/schemas/period';

/** The IANA zone every report is computed in. */
const MOSCOW_TZ = 'Europe/Moscow';


/** Wall-clock fields of an instant in Moscow. Month is 1..12. */
export interface MoscowParts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

let partsFormat: Intl.DateTimeFormat | undefined;

function moscowFormat(): Intl.DateTimeFormat {
  partsFormat ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: MOSCOW_TZ,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return partsFormat;
}

/**
 * From this instant on (2014-10-26 02:00 in Moscow) Moscow keeps UTC+3 all year. Its wall clock
 * since is the fixed offset, read without Intl: a page's first `Intl.DateTimeFormat` costs 40–60 ms
 * of a loaded machine's CPU, and a report page reads today's date before it asks for its data
 * (app/preload.ts). Earlier instants (UTC+4 in 2011–2014, summer time before) go through Intl.
 */
const FIXED_OFFSET_SINCE_MS = Date.UTC(2014, 9, 25, 22);

/** Wall-clock fields in Moscow of the instant `ms` (milliseconds since the epoch). */
export function moscowParts(ms: number): MoscowParts {
  if (ms >= FIXED_OFFSET_SINCE_MS) {
    const wall = new Date(ms + MOSCOW_OFFSET_MS);
    return {
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
      second: wall.getUTCSeconds(),
    };
  }
  const out: Record<string, number> = {};
  for (const part of moscowFormat().formatToParts(new Date(ms))) {
    if (part.type !== 'literal') out[part.type] = Number(part.value);
  }
  return {
    year: out.year ?? 1970,
    month: out.month ?? 1,
    day: out.day ?? 1,
    hour: (out.hour ?? 0) % 24,
    minute: out.minute ?? 0,
    second: out.second ?? 0,
  };
}

/**
 * A Date whose local fields (`getHours`, `getDate`, …) show Moscow's wall clock at the instant `ms`:
 * what uPlot's `tzDate` option wants. uPlot's own `uPlot.tzDate` makes it with `toLocaleString`,
 * through Intl, for every point and tick.
 */
export function moscowWallDate(ms: number): Date {
  const p = moscowParts(ms);
  return new Date(p.year, p.month - 1, p.day, p.hour, p.minute, p.second, ((ms % 1000) + 1000) % 1000);
}

const pad2 = (n: number) => String(n).padStart(2, '0');

function isoOf(year: number, month: number, day: number): IsoDate {
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}`;
}

/** The Moscow calendar date of the instant `ms` (default: now by this browser's clock). */
export function moscowToday(ms: number = Date.now()): IsoDate {
  const p = moscowParts(ms);
  return isoOf(p.year, p.month, p.day);
}

/**
 * `DD.MM.YYYY` (as typed by a user; a one-digit day or month too, «1.11.2026») → `YYYY-MM-DD`,
 * or null when it is not a real date.
 */
export function parseDisplayDate(text: string): IsoDate | null {
  const m = /^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})\s*$/.exec(text);
  if (!m) return null;
  const iso = `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  return isIsoDate(iso) ? iso : null;
}

/** Moscow date of a unix timestamp in seconds as `DD.MM.YYYY`. */
export function formatDate(tsSeconds: number): string {
  const p = moscowParts(tsSeconds * 1000);
  return `${pad2(p.day)}.${pad2(p.month)}.${p.year}`;
}

/** Moscow wall time of a unix timestamp in seconds as `HH:mm`. */
export function formatTime(tsSeconds: number): string {
  const p = moscowParts(tsSeconds * 1000);
  return `${pad2(p.hour)}:${pad2(p.minute)}`;
}

/** Moscow date and time of a unix timestamp in seconds as `DD.MM.YYYY HH:mm`. */
export function formatDateTime(tsSeconds: number): string {
  return `${formatDate(tsSeconds)} ${formatTime(tsSeconds)}`;
}

/** Month names, genitive («января»), as in «5 января». */
export const MONTHS_GENITIVE = [
  'января', 'февраля', 'марта', 'апреля', 'мая', 'июня',
  'июля', 'августа', 'сентября', 'октября', 'ноября', 'декабря',
] as const;

/** Short month names for axes («янв»). */
export const MONTHS_SHORT = [
  'янв', 'фев', 'мар', 'апр', 'май', 'июн', 'июл', 'авг', 'сен', 'окт', 'ноя', 'дек',
] as const;

/** Weekday names, Sunday first (as `Date.getDay` counts). */
export const WEEKDAYS = [
  'воскресенье', 'понедельник', 'вторник', 'среда', 'четверг', 'пятница', 'суббота',
] as const;

/** Short weekday names, Sunday first. */
export const WEEKDAYS_SHORT = ['вс', 'пн', 'вт', 'ср', 'чт', 'пт', 'сб'] as const;
