import { addDays, weekdayMondayFirst, type IsoDate } from '@stat/schemas/period';

/** A stretch of Moscow days, both ends included. */
export interface Days {
  first: IsoDate;
  last: IsoDate;
}

/**
 * A period cut into its whole Monday-to-Sunday weeks (`weeks`: from the first week's Monday to
 * the last week's Monday) and the days before and after them (`days`, none to two stretches).
 */
export interface WeekSplit {
  weeks: Days;
  days: Days[];
}

/**
 * The whole weeks of a period, read from the week rollups (migration 0020) while the days around
 * them are read from the day rollups; undefined when the period holds no whole week.
 */
export function wholeWeeks(first: IsoDate, last: IsoDate): WeekSplit | undefined {
  const firstMonday = addDays(first, (7 - weekdayMondayFirst(first)) % 7);
  const lastMonday = addDays(last, -((weekdayMondayFirst(last) + 1) % 7) - 6);
  if (lastMonday < firstMonday) return undefined;
  const days: Days[] = [];
  if (first < firstMonday) days.push({ first, last: addDays(firstMonday, -1) });
  const afterWeeks = addDays(lastMonday, 7);
  if (afterWeeks <= last) days.push({ first: afterWeeks, last });
  return { weeks: { first: firstMonday, last: lastMonday }, days };
}
