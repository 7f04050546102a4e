import { MOSCOW_OFFSET_MS, moscowDayStart, type Group } from '@stat/schemas';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * The starts (epoch seconds) of every bucket of a period in Moscow time, so that a graph
 * spans the period even where nothing happened. Weeks start on Monday.
 */
export function bucketStarts(dateStart: string, dateEnd: string, group: Group): number[] {
  const from = moscowDayStart(dateStart);
  const until = moscowDayStart(dateEnd) + DAY;
  const starts: number[] = [];
  // A week or month cut by the period's first day starts there (the SQL clamps the same way).
  for (let t = firstBucket(from, group); t < until; t = nextBucket(t, group)) starts.push(Math.max(t, from) / 1000);
  return starts;
}

/** How many buckets a period has, without building them. */
export function bucketCount(dateStart: string, dateEnd: string, group: Group): number {
  const days = (moscowDayStart(dateEnd) - moscowDayStart(dateStart)) / DAY + 1;
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
      return Math.ceil(days / 7) + 1;
    case 'month':
      return Math.ceil(days / 28) + 1;
  }
}

/** Moscow wall-clock time of an instant, written YYYY-MM-DD HH:mm:ss. */
export function moscowDateTime(epochSeconds: number): string {
  return new Date(epochSeconds * 1000 + MOSCOW_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

function firstBucket(dayStart: number, group: Group): number {
  const wall = new Date(dayStart + MOSCOW_OFFSET_MS);
  if (group === 'week') return dayStart - ((wall.getUTCDay() + 6) % 7) * DAY;
  if (group === 'month') return Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), 1) - MOSCOW_OFFSET_MS;
  return dayStart;
}

function nextBucket(t: number, group: Group): number {
  switch (group) {
    case 'minute':
      return t + MINUTE;
    case 'five_minute':
      return t + 5 * MINUTE;
    case 'hour':
      return t + 60 * MINUTE;
    case 'day':
      return t + DAY;
    case 'week':
      return t + 7 * DAY;
    case 'month': {
      const wall = new Date(t + MOSCOW_OFFSET_MS);
      return Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth() + 1, 1) - MOSCOW_OFFSET_MS;
    }
  }
}
