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

/** The password rule's texts (registration, a new password), shown by the api's errors and the web's forms alike. */
export const PASSWORD_TEXTS = {
  length: `Пароль должен быть от ${ACCOUNT_LIMITS.passwordMin} до ${ACCOUNT_LIMITS.passwordMax} символов`,
  blank: 'Пароль не может состоять только из пробелов',
} as const;

/**
 * What is wrong with a new password, or null: its length in characters, and something besides
 * blanks (spaces, tabs, line breaks: eight spaces are no secret).
 */
export function passwordProblem(password: string): string | null {
  if (password.length < ACCOUNT_LIMITS.passwordMin || password.length > ACCOUNT_LIMITS.passwordMax) return PASSWORD_TEXTS.length;
  if (password.trim() === '') return PASSWORD_TEXTS.blank;
  return null;
}

/** The longest site address a form takes, characters (spec 000 §9). */
export const SITE_URL_MAX = 200;

/** The site address's texts (spec 000 §5), shown by the api's errors and the web's forms alike. */
export const SITE_URL_TEXTS = {
  invalid: 'Введен неправильный URL',
  tooLong: `URL не должен превышать ${SITE_URL_MAX} символов`,
} as const;

/**
 * A site address as the create form accepts it: http or https, a host name with a domain zone
 * (letters, or an internationalized xn-- zone), no IP address, no credentials. Null otherwise.
 * The api checks what it is sent with it, and the web the same before sending.
 */
export function parseSiteUrl(raw: unknown): URL | null {
  if (typeof raw !== 'string' || raw.length > SITE_URL_MAX || /\s/.test(raw.trim())) return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  const labels = url.hostname.split('.');
  const zone = labels[labels.length - 1] ?? '';
  if (labels.length < 2 || labels.some((l) => !/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(l))) return null;
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(zone)) return null;
  return url;
}

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
