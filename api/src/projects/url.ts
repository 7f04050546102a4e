/** The key of «projects with the same url»: the host, lower case, without a leading www. */
export function cleanUrl(url: URL): string {
  return url.hostname.replace(/^www\./, '');
}

/** The address stored for a project: origin and path, no query or fragment, no trailing slash at the root. */
export function normalizeSiteUrl(url: URL): string {
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.protocol}//${url.host}${path}`;
}
