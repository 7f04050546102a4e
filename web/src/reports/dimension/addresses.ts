/**
 * How a page address reads in a report's row. In the page reports (page_urls, entrance_pages,
 * exit_pages, page_titles' children…) every address starts with the same «https://site/», and a
 * cell cut at its end showed only that: at 1024 wide every row read «https://demo.stat.example/…».
 * So the part all rows share is dropped, and what is left is cut in its middle, never at its end,
 * where the pages differ. The full address stays in the cell's tooltip and its link. Pure functions.
 */

/** Most characters of an address's end kept whole (about a third of the title column at 1024 wide). */
export const TAIL_MAX = 24;

/** An address as a row shows it: `head` may be cut (with «…»), `tail` is always shown whole. */
export interface ShownAddress {
  readonly head: string;
  readonly tail: string;
}

/** The scheme and host («https://demo.stat.example») of an absolute http(s) address, else null. */
export function originOf(title: string): string | null {
  const match = /^(https?:\/\/[^/?#\s]+)/i.exec(title);
  return match?.[1] ?? null;
}

/**
 * The scheme and host that every address among `titles` starts with, when there are at least two
 * addresses and they all share it; null otherwise (then each row keeps its own host, which is what
 * tells those rows apart). Titles that are not addresses («Не определено») take no part.
 */
export function sharedOrigin(titles: Iterable<string>): string | null {
  let shared: string | null = null;
  let count = 0;
  for (const title of titles) {
    const origin = originOf(title);
    if (origin === null) continue;
    if (shared === null) shared = origin;
    else if (origin.toLowerCase() !== shared.toLowerCase()) return null;
    count += 1;
  }
  return count >= 2 ? shared : null;
}

/**
 * An address as its row shows it: without `origin` when it starts with it («/novosti/»; the site's
 * root reads «/»), and split so that its last path segment with the query (at most {@link TAIL_MAX}
 * characters of it) is the tail, the part never cut. Not an address: the whole text as the head.
 */
export function shownAddress(title: string, origin: string | null): ShownAddress {
  const own = originOf(title);
  if (own === null) return { head: title, tail: '' };
  const rest = origin !== null && own.toLowerCase() === origin.toLowerCase() ? title.slice(own.length) || '/' : title;
  const pathEnd = rest.search(/[?#]/);
  const path = pathEnd < 0 ? rest : rest.slice(0, pathEnd);
  // A trailing slash belongs to the last segment («/novosti/»), not to an empty one after it.
  const lastSlash = path.replace(/\/$/, '').lastIndexOf('/');
  const cut = Math.max(lastSlash, rest.length - TAIL_MAX, 0);
  return { head: rest.slice(0, cut), tail: rest.slice(cut) };
}
