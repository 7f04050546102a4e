/** Cookie names; both HTTP-only, SameSite=Lax, on the api prefix. */
export const SESSION_COOKIE = 'stat_session';
export const REFRESH_COOKIE = 'stat_refresh';

/** Parses a Cookie header; a malformed pair is skipped, never thrown on. */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    try {
      if (!cookies.has(name)) cookies.set(name, decodeURIComponent(raw));
    } catch {
      // not percent-encoded properly: not one of ours
    }
  }
  return cookies;
}

export interface CookieOptions {
  path: string;
  maxAgeS: number;
  secure: boolean;
}

/** A Set-Cookie value; maxAgeS 0 deletes the cookie. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path}`, `Max-Age=${options.maxAgeS}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
