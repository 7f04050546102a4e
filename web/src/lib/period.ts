/**
 * The report period and its grouping (spec 001 §3 "Report URL parameters", §4 "Period and
 * grouping", §5 "Validation rules"). Pure functions: "today" is always passed in, so the same
 * code serves the browser's clock, the server's clock and tests.
 *
 * Decisions where the spec leaves room:
 * - `Ndays` means the last N days including today: `7days` … `today` is 7 calendar days.
 * - Period length classes (by calendar days, both ends included): 1 day → five_minute or hour;
 *   2–7 days → hour or day; 8–31 days → day or week; longer → day, week or month. The 7-day quick
 *   range falls in the "under a week" class so that it can be seen hour by hour.
 * - When the group is missing or not allowed for the period, it becomes `hour` for a single day and
 *   `day` otherwise (what a reader of a visits report expects; the spec's "default five_minute"
 *   is the live dashboard's).
 * - Invalid or future dates reset the period to the default, 7days … today by day; a start after
 *   the end is swapped (spec: "an interval whose start is after its end is swapped").
 */
import {
  addDays,
  daysBetween,
  endOfMonth,
  formatIsoDate,
  formatMonth,
  isIsoDate,
  startOfMonth,
  startOfWeek,
  type IsoDate,
} from './dates';

/** Bucket size of a report (the `group` of the api, `groupBy` of the URL). */
export type Group = 'five_minute' | 'hour' | 'day' | 'week' | 'month';

/** Every group, finest first. */
export const GROUPS: readonly Group[] = ['five_minute', 'hour', 'day', 'week', 'month'];

/** Labels of the «Детализация:» options. */
export const GROUP_LABELS: Readonly<Record<Group, string>> = {
  five_minute: '5 минут',
  hour: 'Час',
  day: 'День',
  week: 'Неделя',
  month: 'Месяц',
};

/** Whether `value` names a group. */
export function isGroup(value: string | null | undefined): value is Group {
  return GROUPS.includes(value as Group);
}

/** A date as written in the URL: `YYYY-MM-DD`, `today`, `yesterday` or `Ndays`. */
export type DateParam = string;

const NDAYS_RE = /^([1-9]\d{0,3})days$/;

/**
 * The calendar date a URL date stands for, or null when it is malformed, not a real date, or in
 * the future.
 */
export function resolveDateParam(param: DateParam | null | undefined, today: IsoDate): IsoDate | null {
  if (!param) return null;
  if (param === 'today') return today;
  if (param === 'yesterday') return addDays(today, -1);
  const n = NDAYS_RE.exec(param);
  if (n) return addDays(today, -(Number(n[1]) - 1));
  if (!isIsoDate(param) || param > today) return null;
  return param;
}

/** Number of calendar days of a period, both ends included. */
export function periodDays(start: IsoDate, end: IsoDate): number {
  return daysBetween(start, end) + 1;
}

/** The groups a period may be shown by (spec 001 §4), finest first. */
export function allowedGroups(start: IsoDate, end: IsoDate): readonly Group[] {
  const days = periodDays(start, end);
  if (days <= 1) return ['five_minute', 'hour'];
  if (days <= 7) return ['hour', 'day'];
  if (days <= 31) return ['day', 'week'];
  return ['day', 'week', 'month'];
}

/** The group a period gets when none is chosen or the chosen one does not fit. */
export function defaultGroup(start: IsoDate, end: IsoDate): Group {
  return periodDays(start, end) <= 1 ? 'hour' : 'day';
}

/** `current` when the period allows it, otherwise the period's default group. */
export function fitGroup(current: Group | null | undefined, start: IsoDate, end: IsoDate): Group {
  return current && allowedGroups(start, end).includes(current) ? current : defaultGroup(start, end);
}

/** The period a report opens with when the URL gives none (or an invalid one). */
export const DEFAULT_PERIOD = { dateStart: '7days', dateEnd: 'today' } as const;

/** A resolved report period. */
export interface Period {
  /** The URL form of the start (kept relative when the user chose a relative range). */
  readonly dateStart: DateParam;
  /** The URL form of the end. */
  readonly dateEnd: DateParam;
  /** First day, a Moscow date. */
  readonly start: IsoDate;
  /** Last day, a Moscow date, not before `start`. */
  readonly end: IsoDate;
  /** Bucket size, always allowed for the period. */
  readonly group: Group;
}

/** A period read from the URL, and whether the URL had to be corrected to get it. */
export interface ParsedPeriod {
  readonly period: Period;
  /** True when the URL's values were missing or invalid and should be replaced by `period`'s. */
  readonly corrected: boolean;
}

/** Reads and validates `dateStart`, `dateEnd` and `groupBy` from a query string. */
export function parsePeriod(query: URLSearchParams, today: IsoDate): ParsedPeriod {
  const rawStart = query.get('dateStart');
  const rawEnd = query.get('dateEnd');
  const rawGroup = query.get('groupBy');
  let dateStart: DateParam = rawStart ?? DEFAULT_PERIOD.dateStart;
  let dateEnd: DateParam = rawEnd ?? DEFAULT_PERIOD.dateEnd;
  let start = resolveDateParam(dateStart, today);
  let end = resolveDateParam(dateEnd, today);
  if (start === null || end === null) {
    dateStart = DEFAULT_PERIOD.dateStart;
    dateEnd = DEFAULT_PERIOD.dateEnd;
    start = resolveDateParam(dateStart, today) ?? today;
    end = today;
  }
  if (start > end) {
    [start, end] = [end, start];
    [dateStart, dateEnd] = [dateEnd, dateStart];
  }
  const group = fitGroup(isGroup(rawGroup) ? rawGroup : null, start, end);
  const corrected = dateStart !== rawStart || dateEnd !== rawEnd || group !== rawGroup;
  return { period: { dateStart, dateEnd, start, end, group }, corrected };
}

/**
 * Writes a period into a copy of `query` (other parameters are kept), so that the URL is the
 * report's state.
 */
export function writePeriod(query: URLSearchParams, period: Pick<Period, 'dateStart' | 'dateEnd' | 'group'>): URLSearchParams {
  const next = new URLSearchParams(query);
  next.set('dateStart', period.dateStart);
  next.set('dateEnd', period.dateEnd);
  next.set('groupBy', period.group);
  return next;
}

/** One of the quick ranges offered next to «Период:». */
export interface QuickRange {
  readonly id: 'today' | 'yesterday' | '7days' | '30days' | 'last_week' | 'last_month';
  readonly label: string;
  readonly dateStart: DateParam;
  readonly dateEnd: DateParam;
}

/**
 * The quick ranges (spec 001 §4: today, yesterday, 7 days, 30 days, last week, last month). The
 * first four are relative and stay so in the URL; the calendar ones are written as dates.
 */
export function quickRanges(today: IsoDate): readonly QuickRange[] {
  const thisMonday = startOfWeek(today);
  const lastMonthEnd = addDays(startOfMonth(today), -1);
  return [
    { id: 'today', label: 'Сегодня', dateStart: 'today', dateEnd: 'today' },
    { id: 'yesterday', label: 'Вчера', dateStart: 'yesterday', dateEnd: 'yesterday' },
    { id: '7days', label: '7 дней', dateStart: '7days', dateEnd: 'today' },
    { id: '30days', label: '30 дней', dateStart: '30days', dateEnd: 'today' },
    { id: 'last_week', label: 'Прошлая неделя', dateStart: addDays(thisMonday, -7), dateEnd: addDays(thisMonday, -1) },
    { id: 'last_month', label: 'Прошлый месяц', dateStart: startOfMonth(lastMonthEnd), dateEnd: lastMonthEnd },
  ];
}

/** The quick range a period is, if any (compared by resolved dates, so 2025-03-01 … today counts). */
export function matchQuickRange(period: Pick<Period, 'start' | 'end'>, today: IsoDate): QuickRange | undefined {
  return quickRanges(today).find(
    (r) => resolveDateParam(r.dateStart, today) === period.start && resolveDateParam(r.dateEnd, today) === period.end,
  );
}

/** How many buckets a period has at a group (what the api returns, empty buckets included). */
export function bucketCount(start: IsoDate, end: IsoDate, group: Group): number {
  const days = periodDays(start, end);
  switch (group) {
    case 'five_minute':
      return days * 288;
    case 'hour':
      return days * 24;
    case 'day':
      return days;
    case 'week':
      return daysBetween(startOfWeek(start), startOfWeek(end)) / 7 + 1;
    case 'month': {
      const months = (iso: IsoDate) => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7));
      return months(end) - months(start) + 1;
    }
  }
}

/** A period over 90 days loads slowly (spec 001 §4 "long period"). */
export const LONG_PERIOD_DAYS = 90;

/** The last day of the week or month bucket starting at `bucketStart`, clipped to `periodEnd`. */
export function bucketEnd(bucketStart: IsoDate, group: 'week' | 'month', periodEnd: IsoDate): IsoDate {
  const end = group === 'week' ? addDays(bucketStart, 6) : endOfMonth(bucketStart);
  return end < periodEnd ? end : periodEnd;
}

/**
 * The label of a time bucket, from the api's Moscow wall time of its start
 * (`YYYY-MM-DD HH:mm:ss`): «05.03.2025 14:00» for five_minute and hour, «05.03.2025» for day,
 * «03.03.2025 – 09.03.2025» for week and «Март 2025» for month (weeks and months clipped to the
 * period).
 */
export function formatBucket(wallTime: string, group: Group, period: Pick<Period, 'start' | 'end'>): string {
  const day = wallTime.slice(0, 10);
  switch (group) {
    case 'five_minute':
    case 'hour':
      return `${formatIsoDate(day)} ${wallTime.slice(11, 16)}`;
    case 'day':
      return formatIsoDate(day);
    case 'week': {
      const from = day < period.start ? period.start : day;
      return `${formatIsoDate(from)} – ${formatIsoDate(bucketEnd(day, 'week', period.end))}`;
    }
    case 'month':
      return formatMonth(day);
  }
}
