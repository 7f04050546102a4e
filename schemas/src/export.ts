/**
 * The data export page (spec 002, §2 «Data export page», §9): a staff member chooses a period, a
 * limit and fields, and gets a data address that streams the project's raw events as CSV for
 * 7 days. Shared by the api (validation, the file) and the web (the form).
 */

/** The optional fields of §2, in its order, as the page offers them. */
export const EXPORT_FIELDS = [
  'event_class',
  'event_name',
  'session_id',
  'session_number',
  'event_number_in_session',
  'version',
  'counter_type',
  'publisher_uid',
  'publisher_uid_scope',
] as const;
export type ExportField = (typeof EXPORT_FIELDS)[number];

/** A field as the page shows it; `collected: false` fields are offered disabled (this service does not store them). */
export interface ExportFieldInfo {
  title: string;
  collected: boolean;
}

export const EXPORT_FIELD_INFO: Record<ExportField, ExportFieldInfo> = {
  event_class: { title: 'Класс события', collected: true },
  event_name: { title: 'Название события', collected: true },
  session_id: { title: 'Идентификатор визита', collected: true },
  session_number: { title: 'Номер визита посетителя', collected: true },
  event_number_in_session: { title: 'Номер события в визите', collected: true },
  version: { title: 'Версия счётчика', collected: false },
  counter_type: { title: 'Тип счётчика', collected: true },
  publisher_uid: { title: 'Идентификатор пользователя сайта', collected: true },
  publisher_uid_scope: { title: 'Область идентификатора пользователя', collected: false },
};

/** The columns every row has, before the chosen fields. */
export const EXPORT_BASE_COLUMNS = ['date_time', 'event_type', 'url'] as const;

/** §9: the default limit. */
export const EXPORT_DEFAULT_LIMIT = 1;
/** The most rows one address streams. */
export const EXPORT_MAX_LIMIT = 1_000_000;
/** §9: a download address is valid 7 days. */
export const EXPORT_LINK_DAYS = 7;

/**
 * §5: the limit field takes digits only; a value that is not a whole number from 1 (a bad value,
 * empty, zero) becomes 1 on blur, one over the maximum the maximum.
 */
export function exportLimitOf(text: string): number {
  if (!/^\d+$/.test(text.trim())) return EXPORT_DEFAULT_LIMIT;
  const n = Number(text.trim());
  if (!Number.isSafeInteger(n) || n < 1) return EXPORT_DEFAULT_LIMIT;
  return Math.min(n, EXPORT_MAX_LIMIT);
}

/** What the page asks for. */
export interface ExportLinkRequest {
  date_start: string;
  date_end: string;
  limit: number;
  /** the chosen fields: a list, or their names joined by commas (spec 002 §7: "fields joined by commas") */
  fields: readonly ExportField[] | string;
}

/** The data address the api gives, and until when it works. */
export interface ExportLink {
  url: string;
  /** ISO time */
  expires_at: string;
}
