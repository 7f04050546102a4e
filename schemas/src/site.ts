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

/** The product's name: the logo's text, and the end of a page title outside a project. */
export const PRODUCT_NAME = 'Статистика';

/**
 * The brand in «Статистика от {brand}» of a project page's title (spec 001 §2). Empty: a
 * self-hosted service has none of its own, and its titles read «Статистика» there.
 */
export const BRAND = '';

/**
 * The browser title of a project page (spec 001 §2): the page's title, the site's url,
 * «Статистика от {brand}» and the project id, joined by « – » («Целевые события – example.com –
 * Статистика – 123»). A part not known (a site without url) is left out.
 */
export function projectPageTitle(title: string, siteUrl: string, projectId: number | string): string {
  const product = BRAND ? `${PRODUCT_NAME} от ${BRAND}` : PRODUCT_NAME;
  return [title, siteUrl, product, String(projectId)].filter((part) => part !== '').join(' – ');
}
