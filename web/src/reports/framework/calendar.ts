/**
 * The rules of the «Период:» calendar (spec 001 §4 "Date modal"), apart from its drawing: the
 * month grid, which days may be picked, how two clicks make a range, and the mask of a typed
 * date. Dates are Moscow days (`YYYY-MM-DD`), never the browser's local ones.
 */
import { addDays, endOfMonth, startOfMonth, startOfWeek, type IsoDate } from '@stat/schemas/period';

/** The first day of the month `months` after the one holding `iso` (negative: before). */
export function shiftMonth(iso: IsoDate, months: number): IsoDate {
  const year = Number(iso.slice(0, 4));
  const month = Number(iso.slice(5, 7)) - 1 + months;
  const y = year + Math.floor(month / 12);
  const m = ((month % 12) + 12) % 12;
  return `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-01`;
}

/**
 * The weeks of a month as the calendar shows them: Monday first, seven cells a week, null for the
 * cells before the 1st and after the last day.
 */
export function monthWeeks(month: IsoDate): (IsoDate | null)[][] {
  const first = startOfMonth(month);
  const last = endOfMonth(month);
  const weeks: (IsoDate | null)[][] = [];
  for (let monday = startOfWeek(first); monday <= last; monday = addDays(monday, 7)) {
    weeks.push(Array.from({ length: 7 }, (_, i) => {
      const day = addDays(monday, i);
      return day < first || day > last ? null : day;
    }));
  }
  return weeks;
}

/** The days that may be picked: up to the last day with reports (today, or yesterday for the rating), from the first day with data when known. */
export interface DayBounds {
  readonly min: IsoDate | null;
  readonly max: IsoDate;
}

export function selectable(day: IsoDate, bounds: DayBounds): boolean {
  return day <= bounds.max && (bounds.min === null || day >= bounds.min);
}

/** A range being picked: after the first click only its start, after the second both ends. */
export interface Picking {
  readonly start: IsoDate | null;
  readonly end: IsoDate | null;
}

/**
 * A click on a day: the first click of a range (or a click after a whole range) starts a new one;
 * the second ends it, and a second day before the first swaps them (§4: "An interval whose start
 * is after its end is swapped").
 */
export function clickDay(picking: Picking, day: IsoDate): Picking {
  if (picking.start === null || picking.end !== null) return { start: day, end: null };
  return day < picking.start ? { start: day, end: picking.start } : { start: picking.start, end: day };
}

/** How a day looks: inside the range (or the range previewed under the pointer), at its ends. */
export function dayRole(day: IsoDate, picking: Picking, hover: IsoDate | null): 'edge' | 'inside' | null {
  const from = picking.start;
  if (from === null) return null;
  const to = picking.end ?? hover ?? from;
  const [a, b] = from <= to ? [from, to] : [to, from];
  if (day === a || day === b) return 'edge';
  return day > a && day < b ? 'inside' : null;
}

/** Days an arrow key moves the focus in the calendar: a day sideways, a week up or down. */
const ARROW_STEPS: Readonly<Record<string, number>> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };

/**
 * The day an arrow key moves the focus to from `day`, or null for another key or a day that
 * may not be picked (a disabled button cannot take the focus, so the focus stays).
 */
export function arrowTarget(day: IsoDate, key: string, bounds: DayBounds): IsoDate | null {
  const step = ARROW_STEPS[key];
  if (step === undefined) return null;
  const next = addDays(day, step);
  return selectable(next, bounds) ? next : null;
}

/** The two months shown: the one holding `end` and the one before, moved so as not to pass `max`'s month. */
export function firstShownMonth(end: IsoDate, max: IsoDate, count: 1 | 2): IsoDate {
  const last = startOfMonth(end < max ? end : max);
  return shiftMonth(last, -(count - 1));
}

/**
 * The mask of a typed date, DD.MM.YYYY: digits only, the dots put in as one types, so «01112026»
 * reads «01.11.2026» and «01.1» stays as typed. Dots the user typed stay where typed («1.11.2026»,
 * read as 01.11.2026; the field writes it so when left): a mask that moved digits across a typed
 * dot would turn «1.11.2026» into «11.12.026».
 */
export function maskDate(text: string): string {
  const digitsOf = (part: string) => part.replace(/\D/g, '');
  const typed = text.split('.');
  if (typed.length > 1) {
    const [day = '', month = '', ...year] = typed;
    const parts = [digitsOf(day).slice(0, 2), digitsOf(month).slice(0, 2)];
    if (typed.length > 2) parts.push(digitsOf(year.join('')).slice(0, 4));
    return parts.join('.');
  }
  const digits = digitsOf(text).slice(0, 8);
  return [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4, 8)].filter((p) => p.length > 0).join('.');
}
