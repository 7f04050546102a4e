/**
 * The report period in the web app: reading and writing it in the URL, the quick ranges and the
 * labels (spec 001 §3 "Report URL parameters", §4 "Period and grouping"). The rules themselves
 * (relative dates, which groups a period allows, the default group, bucket counts) are shared
 * with the api in `@stat/schemas/period`, with the decisions taken where the spec leaves room;
 * this module adds what only the browser needs:
 * - Invalid or future dates reset the period to the default, 7days … today by day, and so does
 *   `today` paired with a written date that is not today (spec §5: "today combined with a
 *   non-today date is reset to the default"; the app itself writes either two dates or a relative
 *   range, so such a pair only comes from a hand-made link); a start after the end is swapped
 *   (spec: "an interval whose start is after its end is swapped").
 */
import {
  addDays,
  fitGroup,
  isPeriodGroup,
  ratingDefaultPeriod,
  ratingPeriod,
  resolveDate,
  startOfMonth,
  startOfWeek,
  type IsoDate,
  type PeriodGroup,
} from '@stat/schemas/period';

/** Labels of the «Детализация:» options. */
export const GROUP_LABELS: Readonly<Record<PeriodGroup, string>> = {
  minute: 'Минута',
  five_minute: '5 минут',
  hour: 'Час',
  day: 'День',
  week: 'Неделя',
  month: 'Месяц',
};

/** A date as written in the URL: `YYYY-MM-DD`, `today`, `yesterday` or `Ndays`. */
export type DateParam = string;

/** The period a report opens with when the URL gives none (or an invalid one). */
const DEFAULT_PERIOD = { dateStart: '7days', dateEnd: 'today' } as const;

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
  readonly group: PeriodGroup;
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
  let start = resolveDate(dateStart, today);
  let end = resolveDate(dateEnd, today);
  if (start === null || end === null || todayWithDate(dateStart, dateEnd, today)) {
    dateStart = DEFAULT_PERIOD.dateStart;
    dateEnd = DEFAULT_PERIOD.dateEnd;
    start = resolveDate(dateStart, today) ?? today;
    end = today;
  }
  if (start > end) {
    [start, end] = [end, start];
    [dateStart, dateEnd] = [dateEnd, dateStart];
  }
  const group = fitGroup(isPeriodGroup(rawGroup) ? rawGroup : null, start, end);
  const corrected = dateStart !== rawStart || dateEnd !== rawEnd || group !== rawGroup;
  return { period: { dateStart, dateEnd, start, end, group }, corrected };
}

/** `today` on one side and a `YYYY-MM-DD` date other than today on the other (spec 001 §5). */
function todayWithDate(dateStart: DateParam, dateEnd: DateParam, today: IsoDate): boolean {
  const written = (d: DateParam) => /^\d{4}-\d{2}-\d{2}$/.test(d) && d !== today;
  return (dateStart === 'today' && written(dateEnd)) || (dateEnd === 'today' && written(dateStart));
}

/**
 * The rating report's period (spec 001 §5, §9): whole days by day, ending yesterday at the latest.
 * A period reaching today moves back keeping its length and is written as dates; without dates in
 * the URL, 8 to 2 days back. The api applies the same rule (`ratingPeriod` of the schemas).
 */
export function parseRatingPeriod(query: URLSearchParams, today: IsoDate): ParsedPeriod {
  const asked = query.get('dateStart') !== null && query.get('dateEnd') !== null;
  const { period } = parsePeriod(query, today);
  const { dateStart: start, dateEnd: end } = asked ? ratingPeriod(period.start, period.end, today) : ratingDefaultPeriod(today);
  const moved = start !== period.start || end !== period.end;
  const dateStart = moved ? start : period.dateStart;
  const dateEnd = moved ? end : period.dateEnd;
  const corrected = dateStart !== query.get('dateStart') || dateEnd !== query.get('dateEnd') || query.get('groupBy') !== 'day';
  return { period: { dateStart, dateEnd, start, end, group: 'day' }, corrected };
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
    (r) => resolveDate(r.dateStart, today) === period.start && resolveDate(r.dateEnd, today) === period.end,
  );
}

/** A period over 90 days loads slowly (spec 001 §4 "long period"). */
export const LONG_PERIOD_DAYS = 90;

export { bucketEnd, formatBucket } from '@stat/schemas/period';
