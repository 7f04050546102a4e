export const URL_INVALID = 'Введен неправильный URL';
export const URL_TOO_LONG = 'URL не должен превышать 200 символов';

/**
 * A site address as the create form accepts it: http or https, a host name with a domain zone
 * (letters, or an internationalized xn-- zone), no IP address, no credentials. Null otherwise.
 */
export function parseSiteUrl(raw: unknown): URL | null {
  if (typeof raw !== 'string' || raw.length > 200 || /\s/.test(raw.trim())) return null;
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

/** The key of «projects with the same url»: the host, lower case, without a leading www. */
export function cleanUrl(url: URL): string {
  return url.hostname.replace(/^www\./, '');
}

/** The address stored for a project: origin and path, no query or fragment, no trailing slash at the root. */
export function normalizeSiteUrl(url: URL): string {
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.protocol}//${url.host}${path}`;
}
