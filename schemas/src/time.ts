/**
 * Reports are cut in Moscow time. Moscow has kept UTC+3 all year since 2014, so a fixed
 * offset is exact for every date the service stores.
 */
export const REPORT_TIME_ZONE = 'Europe/Moscow';
export const MOSCOW_OFFSET_MS = 3 * 3600 * 1000;

/** The Moscow calendar day of an instant, as YYYY-MM-DD. */
export function moscowDate(epochMs: number): string {
  return new Date(epochMs + MOSCOW_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant (epoch ms) at which a Moscow calendar day starts. */
export function moscowDayStart(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) - MOSCOW_OFFSET_MS;
}
