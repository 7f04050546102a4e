/**
 * The report period and its grouping (specification 001 §3 "Report URL parameters", §4 "Period
 * and grouping", §5 "Validation rules"): the rules the api and the web app both apply, written
 * once. Pure and environment-free: "today" is always passed in (a Moscow date), nothing reads a
 * clock, a zone or the network, and nothing here imports zod, so the browser bundle can load it
 * (exported as `@stat/schemas/period`, not from the package's index).
 *
 * Decisions where the spec leaves room:
 * - `Ndays` means the last N days including today: `7days` … `today` is 7 calendar days.
 * - Period length classes (by calendar days, both ends included): 1 day → five_minute or hour;
 *   2–7 days → hour or day; 8–31 days → day or week; longer → day, week or month. The 7-day quick
 *   range falls in the "under a week" class so that it can be seen hour by hour.
 * - `minute` is not offered for a calendar day: the spec gives it only to a single day seen with
 *   the 30-minute detail (the live window of the last 30 minutes, 30 points), and a whole day
 *   by minute (1 440 points) is no graph anyone reads. So a single day allows minute only when
 *   that detail is given, and then allows minute or five_minute (spec: "minute and 5-minute
 *   grouping applies"); any other detail keeps the day's five_minute or hour.
 * - When the group is missing or not allowed, it becomes `hour` for a single day and `day`
 *   otherwise (what a reader of a visits report expects); with a detail (the live dashboard) it
 *   becomes `five_minute`, the spec's "default group when none set".
 */

/** A calendar date `YYYY-MM-DD` (a Moscow date unless said otherwise). */
export type IsoDate = string;

/** Bucket size of a report (the `group` of the api, `groupBy` of the URL), spec §3. */
export type PeriodGroup = 'minute' | 'five_minute' | 'hour' | 'day' | 'week' | 'month';

/**
 * Every group, finest first: the catalogue's groups and `minute`. (The catalogue's `GROUPS` in
 * `catalogue.ts` is what the report api accepts today; it lacks `minute`.)
 */
export const PERIOD_GROUPS: readonly PeriodGroup[] = ['minute', 'five_minute', 'hour', 'day', 'week', 'month'];

/** Whether `value` names a group. */
export function isPeriodGroup(value: string | null | undefined): value is PeriodGroup {
  return PERIOD_GROUPS.includes(value as PeriodGroup);
}

/**
 * How far back a single-day view looks (spec §3 "periodDetail"): 5, 30, 60, 120 or 240 minutes,
 * or `today`, since the start of the day.
 */
export type PeriodDetail = 5 | 30 | 60 | 120 | 240 | 'today';

/** Every period detail, shortest first. */
export const PERIOD_DETAILS: readonly PeriodDetail[] = [5, 30, 60, 120, 240, 'today'];

// Calendar arithmetic on ISO dates, done in UTC, where every day has 24 hours.

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Whether `value` is a real calendar date written `YYYY-MM-DD` (2024-02-30 is not). */
export function isIsoDate(value: string): boolean {
  const m = ISO_RE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function utcMs(iso: IsoDate): number {
  const m = ISO_RE.exec(iso);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${iso}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

function fromUtcMs(ms: number): IsoDate {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `iso` moved by `days` calendar days (negative goes back). */
export function addDays(iso: IsoDate, days: number): IsoDate {
  return fromUtcMs(utcMs(iso) + days * DAY_MS);
}

/** Calendar days from `from` to `to` (0 for the same day, negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return Math.round((utcMs(to) - utcMs(from)) / DAY_MS);
}

/** Day of the week, Monday 0 … Sunday 6 (the week starts on Monday, spec §4). */
export function weekdayMondayFirst(iso: IsoDate): number {
  return (new Date(utcMs(iso)).getUTCDay() + 6) % 7;
}

/** The Monday of the week holding `iso`. */
export function startOfWeek(iso: IsoDate): IsoDate {
  return addDays(iso, -weekdayMondayFirst(iso));
}

/** The first day of the month holding `iso`. */
export function startOfMonth(iso: IsoDate): IsoDate {
  return `${iso.slice(0, 8)}01`;
}

/** The last day of the month holding `iso`. */
export function endOfMonth(iso: IsoDate): IsoDate {
  const d = new Date(utcMs(startOfMonth(iso)));
  return fromUtcMs(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
}

// The rules.

const NDAYS_RE = /^([1-9]\d{0,3})days$/;

/**
 * The calendar date a URL date stands for (`YYYY-MM-DD`, `today`, `yesterday` or `Ndays`, N from
 * 1 to 9999), or null when it is missing, malformed, not a real date, or after `todayIso`.
 */
export function resolveDate(param: string | null | undefined, todayIso: IsoDate): IsoDate | null {
  if (!param) return null;
  if (param === 'today') return todayIso;
  if (param === 'yesterday') return addDays(todayIso, -1);
  const n = NDAYS_RE.exec(param);
  if (n) return addDays(todayIso, -(Number(n[1]) - 1));
  if (!isIsoDate(param) || param > todayIso) return null;
  return param;
}

/**
 * The rating report's period (spec 001, §5 and §9): its days end yesterday at the latest, because
 * a site's popularity counts whole days. A period reaching today moves back to end yesterday and
 * keeps its length (a period of today alone becomes yesterday). By default the rating reads the
 * days from 8 to 2 days back ({@link ratingDefaultPeriod}).
 */
export function ratingPeriod(dateStart: IsoDate, dateEnd: IsoDate, todayIso: IsoDate): { dateStart: IsoDate; dateEnd: IsoDate } {
  const yesterday = addDays(todayIso, -1);
  if (dateEnd <= yesterday) return { dateStart, dateEnd };
  return { dateStart: addDays(yesterday, -(periodDays(dateStart, dateEnd) - 1)), dateEnd: yesterday };
}

/** The rating report's period when none is asked for: 8 to 2 days back (spec 001, §9), the days the positions are computed from. */
export function ratingDefaultPeriod(todayIso: IsoDate): { dateStart: IsoDate; dateEnd: IsoDate } {
  return { dateStart: addDays(todayIso, -8), dateEnd: addDays(todayIso, -2) };
}

/** Number of calendar days of a period, both ends included. */
export function periodDays(dateStart: IsoDate, dateEnd: IsoDate): number {
  return daysBetween(dateStart, dateEnd) + 1;
}

/**
 * The groups a period may be shown by (spec §4), finest first. `detail` is the single-day
 * view's period detail, when there is one (the live dashboard); see the module's decisions.
 */
export function allowedGroups(dateStart: IsoDate, dateEnd: IsoDate, detail?: PeriodDetail): readonly PeriodGroup[] {
  const days = periodDays(dateStart, dateEnd);
  if (days <= 1) return detail === 30 ? ['minute', 'five_minute'] : ['five_minute', 'hour'];
  if (days <= 7) return ['hour', 'day'];
  if (days <= 31) return ['day', 'week'];
  return ['day', 'week', 'month'];
}

/** The group a period gets when none is chosen or the chosen one is not allowed. */
export function defaultGroup(dateStart: IsoDate, dateEnd: IsoDate, detail?: PeriodDetail): PeriodGroup {
  const days = periodDays(dateStart, dateEnd);
  if (days <= 1) return detail === undefined ? 'hour' : 'five_minute';
  return 'day';
}

/** `current` when the period allows it, otherwise the period's default group. */
export function fitGroup(current: PeriodGroup | null | undefined, dateStart: IsoDate, dateEnd: IsoDate, detail?: PeriodDetail): PeriodGroup {
  return current && allowedGroups(dateStart, dateEnd, detail).includes(current) ? current : defaultGroup(dateStart, dateEnd, detail);
}

/**
 * How many buckets a period has at a group, empty ones included (what the api returns before it
 * leaves out the future). Weeks start on Monday and months on the 1st, but a week or a month cut
 * by an edge of the period is that part only, so it counts once.
 */
export function bucketCount(dateStart: IsoDate, dateEnd: IsoDate, group: PeriodGroup): number {
  const days = periodDays(dateStart, dateEnd);
  switch (group) {
    case 'minute':
      return days * 1440;
    case 'five_minute':
      return days * 288;
    case 'hour':
      return days * 24;
    case 'day':
      return days;
    case 'week':
      return daysBetween(startOfWeek(dateStart), startOfWeek(dateEnd)) / 7 + 1;
    case 'month': {
      const months = (iso: IsoDate): number => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7));
      return months(dateEnd) - months(dateStart) + 1;
    }
  }
}

/** `YYYY-MM-DD` → `DD.MM.YYYY`, as the interface writes a day (a text that is not a date stays as it is). */
export function formatIsoDate(iso: IsoDate): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? `${m[3]}.${m[2]}.${m[1]}` : iso;
}

/** Month names, nominative («Январь»), as a month is titled on its own. */
export const MONTHS_NOMINATIVE = [
  'Январь', 'Февраль', 'Март', 'Апрель', 'Май', 'Июнь',
  'Июль', 'Август', 'Сентябрь', 'Октябрь', 'Ноябрь', 'Декабрь',
] as const;

/** A month as it is titled on its own: «Март 2025». */
export function formatMonth(iso: IsoDate): string {
  const month = Number(iso.slice(5, 7));
  return `${MONTHS_NOMINATIVE[month - 1] ?? ''} ${iso.slice(0, 4)}`;
}

/**
 * The last day of the week or month bucket starting at `bucketStart`, clipped to `periodEnd`. The
 * bucket may start after its Monday or its 1st, when the period's first day cuts it: the api's
 * first bucket starts on the period's first day (`buckets.ts`).
 */
export function bucketEnd(bucketStart: IsoDate, group: 'week' | 'month', periodEnd: IsoDate): IsoDate {
  const end = group === 'week' ? addDays(startOfWeek(bucketStart), 6) : endOfMonth(bucketStart);
  return end < periodEnd ? end : periodEnd;
}

/**
 * The label of a time bucket, from the api's Moscow wall time of its start
 * (`YYYY-MM-DD HH:mm:ss`): «05.03.2025 14:05» for minute, five_minute and hour, «05.03.2025» for day,
 * «03.03.2025 – 09.03.2025» for week and «Март 2025» for month (weeks and months clipped to the
 * period): the report's table, its graph and its CSV write a bucket alike.
 */
export function formatBucket(wallTime: string, group: PeriodGroup, period: { start: IsoDate; end: IsoDate }): string {
  const day = wallTime.slice(0, 10);
  switch (group) {
    case 'minute':
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

/**
 * A download's name: its title and period, «Источники трафика 2026-11-01 — 2026-11-10.csv», one
 * date for a day. The api's CSV files and the PNG images the web draws are named so alike.
 */
export function downloadName(title: string, dateStart: IsoDate, dateEnd: IsoDate, ext: 'csv' | 'png'): string {
  const period = dateStart === dateEnd ? dateStart : `${dateStart} — ${dateEnd}`;
  return `${title} ${period}.${ext}`;
}

/**
 * The answer of `GET /api/report/v1.0/service/eventbase_latency` (spec 001 §7: "result start,
 * end"): the span of the stored events, over every project or over one
 * (`service/eventbase_latency/{projectId}`). The date picker disables the days outside
 * `start` … `end`. Days are Moscow dates, as every other date of the reports; the moment is epoch
 * seconds, as `service/time`'s `timestamp`. All three are null when nothing is stored.
 */
export interface EventbaseLatency {
  /** The first Moscow day holding an event, `YYYY-MM-DD`. */
  readonly start: IsoDate | null;
  /** The last Moscow day holding an event, `YYYY-MM-DD`. */
  readonly end: IsoDate | null;
  /**
   * The last moment with data, epoch seconds: the start of the last five-minute bucket holding
   * an event, so the data reaches this moment and less than five minutes beyond it.
   */
  readonly end_timestamp: number | null;
}

/**
 * `GET demo/state`: whether the demo project's traffic is still being generated. An embedded
 * service says «ready» first and fills the demo's days after (some minutes on two cores, the oldest
 * day first), so its reports read nearly empty until it is done; the demo's message says so.
 */
export interface DemoState {
  readonly filling: boolean;
}
