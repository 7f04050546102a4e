/**
 * Shapes of the site (project) screens shared by the api and the web app.
 */

/** The limits of an account's fields, checked by the api's DTOs and by the web's forms alike. */
export const ACCOUNT_LIMITS = {
  /** password length, characters (registration and a new password) */
  passwordMin: 8,
  passwordMax: 128,
  /** the profile's name, characters */
  userNameMax: 100,
} as const;

/** The counter's status texts (spec 000 §2.6): the counter page and a report of a site that has sent nothing yet. */
export const COUNTER_STATUS = { set: 'Счётчик корректно установлен', unset: 'Счётчик не установлен' } as const;

/**
 * The answer of «Проверить» on the counter page (`GET /api/v1.0/project/{id}/counter_check`):
 * whether any hit of the site has been stored, and the last one's time and page.
 */
export interface CounterCheck {
  /** A hit of this site has been stored. */
  readonly seen: boolean;
  /** The last stored hit, or null when none. */
  readonly last_hit: {
    /** When, ISO 8601 in UTC (the web shows it in Moscow time). */
    readonly at: string;
    /** The page's address as the counter sent it. */
    readonly url: string;
  } | null;
}

/**
 * The rating statuses in which a site stands in the rating (specification 000, §4): listed in the
 * catalogue and in the rating report of its categories, and shown with its position.
 */
export const RATING_LISTED_STATUSES = ['included', 'editing', 'need_change'] as const;
