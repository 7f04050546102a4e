/**
 * The form rules of spec 000 §5 and §9, with their texts character for character. Each check
 * returns the text to show under the field, or null when the value is fine. The api checks the
 * same rules again; its texts are shown when it answers with `errors.fields`.
 */
import { ACCOUNT_LIMITS, parseSiteUrl, SITE_URL_MAX, SITE_URL_TEXTS } from '@stat/schemas/site';

/** Texts of spec 000 §5 (and the api's where the spec shows none). */
export const TEXTS = {
  requiredOnCreate: 'Поле не заполнено',
  required: 'Обязательное поле',
  min3: 'Минимум 3 символа',
  tooLong: 'Превышен лимит символов',
  urlTooLong: SITE_URL_TEXTS.tooLong,
  urlInvalid: SITE_URL_TEXTS.invalid,
  mustAgree: 'Вы должны принять условия',
  themesMax: 'Максимальное количество тем: 7',
  typesMax: 'Максимальное количество типов: 2',
  regionsMax: 'Максимальное количество регионов: 10',
  keywords: 'Ключевые слова: от 3 до 500 символов',
  publicStats: 'Необходимо выбрать один из пунктов',
  emailInvalid: 'Введен неправильный email',
  alreadyAdded: 'Пользователь уже добавлен',
  emailNotFound: 'Такой email не найден в системе, пользователю необходимо пройти регистрацию',
  attributeInvalid: 'Только латинские буквы, цифры, «-» и «_», начиная с буквы',
} as const;

/** Limits of spec 000 §9. */
export const LIMITS = {
  titleMin: 3,
  titleMax: 255,
  ratedTitleMax: 55,
  urlMax: SITE_URL_MAX,
  keywordsMin: 3,
  keywordsMax: 500,
  themes: 7,
  types: 2,
  regions: 10,
  grantsPerDay: 20,
} as const;

type Check = string | null;

/** The site address of the create form. */
export function checkSiteUrl(value: string): Check {
  const text = value.trim();
  if (text.length === 0) return TEXTS.requiredOnCreate;
  if (text.length > LIMITS.urlMax) return TEXTS.urlTooLong;
  return parseSiteUrl(text) ? null : TEXTS.urlInvalid;
}

/**
 * A site name: on create an empty one is «Поле не заполнено», in the settings «Обязательное поле»;
 * a rated site's name is at most 55 characters.
 */
export function checkTitle(value: string, where: 'create' | 'settings' | 'rating'): Check {
  const text = value.trim();
  if (text.length === 0) return where === 'create' ? TEXTS.requiredOnCreate : TEXTS.required;
  if (text.length < LIMITS.titleMin) return TEXTS.min3;
  if (text.length > (where === 'rating' ? LIMITS.ratedTitleMax : LIMITS.titleMax)) return TEXTS.tooLong;
  return null;
}

/** The terms checkbox. */
export function checkTerms(agreed: boolean): Check {
  return agreed ? null : TEXTS.mustAgree;
}

/** An e-mail address (format only). */
export function checkEmail(value: string): Check {
  const text = value.trim();
  if (text.length === 0) return TEXTS.required;
  if (text.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(text)) return TEXTS.emailInvalid;
  return null;
}

/** Keywords of the rating form: required, 3 to 500 characters, comma separated. */
export function checkKeywords(value: string): Check {
  const text = value.trim();
  if (text.length === 0) return TEXTS.required;
  if (text.length < LIMITS.keywordsMin || text.length > LIMITS.keywordsMax) return TEXTS.keywords;
  return null;
}

/** Themes: 1 to 7. */
export function checkThemes(ids: readonly number[]): Check {
  if (ids.length === 0) return TEXTS.required;
  return ids.length > LIMITS.themes ? TEXTS.themesMax : null;
}

/** Types: at most 2. */
export function checkTypes(ids: readonly number[]): Check {
  return ids.length > LIMITS.types ? TEXTS.typesMax : null;
}

/** Regions: at most 10. */
export function checkRegions(ids: readonly number[]): Check {
  return ids.length > LIMITS.regions ? TEXTS.regionsMax : null;
}

/** Public stats: one of the two must be chosen. */
export function checkPublicStats(value: boolean | null): Check {
  return value === null ? TEXTS.publicStats : null;
}

/** A whitelist entry: required, a url with a domain zone. */
export function checkWhitelistEntry(value: string): Check {
  const text = value.trim();
  if (text.length === 0) return TEXTS.required;
  if (text.length > LIMITS.urlMax) return TEXTS.urlTooLong;
  return parseSiteUrl(text) ? null : TEXTS.urlInvalid;
}

/** A blacklisted domain: required, the generic url check (no spaces, at most 200). */
export function checkBlacklistEntry(value: string): Check {
  const text = value.trim();
  if (text.length === 0) return TEXTS.required;
  if (text.length > LIMITS.urlMax) return TEXTS.urlTooLong;
  if (/\s/.test(text) || !/^(?:https?:\/\/)?[^/\s.]+(?:\.[^/\s.]+)+(?:[/?#]\S*)?$/i.test(text)) return TEXTS.urlInvalid;
  return null;
}

/** The data attribute name of block analytics. */
export function checkAttribute(value: string): Check {
  const text = value.trim();
  if (text.length === 0) return TEXTS.required;
  return /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(text) ? null : TEXTS.attributeInvalid;
}

/** The fields of a form with a text each, or an empty object when all are fine. */
export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** Keeps the failed checks only. */
export function collect<K extends string>(checks: Record<K, Check>): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  for (const key of Object.keys(checks) as K[]) {
    const text = checks[key];
    if (text) out[key] = text;
  }
  return out;
}

/** Whether a form has no errors. */
export function isValid(errors: FieldErrors<string>): boolean {
  return Object.keys(errors).length === 0;
}

/** The first text the api gave per field (`errors.fields`), for the form's own keys. */
export function serverFieldErrors<K extends string>(fields: Readonly<Record<string, readonly string[]>>, keys: readonly K[]): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  for (const key of keys) {
    const text = fields[key]?.[0];
    if (text) out[key] = text;
  }
  return out;
}

/** Password length the api accepts (api/API.md, register and password change). */
export const PASSWORD_MIN = ACCOUNT_LIMITS.passwordMin;
export const PASSWORD_MAX = ACCOUNT_LIMITS.passwordMax;
/** The profile's name, characters. */
export const USER_NAME_MAX = ACCOUNT_LIMITS.userNameMax;

/** The password rule of registration and of a new password. */
export function checkPassword(value: string): string | null {
  if (value.length === 0) return TEXTS.required;
  if (value.length < PASSWORD_MIN) return `Минимум ${PASSWORD_MIN} символов`;
  if (value.length > PASSWORD_MAX) return `Не более ${PASSWORD_MAX} символов`;
  return null;
}
