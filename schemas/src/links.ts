/**
 * Link clicks the counter sends as `outbound` hits (counter-snippet/src/outbound.ts) and how the
 * aggregator names their events (aggregator/src/rows.ts): the autogoals count them by name
 * (schemas/src/goals.ts). Plain data with no imports: the counter bundles this file.
 */

/** A link's path that names a file: a click on it is a download. */
export const FILE_LINK = /\.(pdf|docx?|xlsx?|pptx?|zip|rar|7z|exe|apk|dmg|mp[34])$/i;

/** The event names of link clicks. */
export type LinkEventName = 'outbound' | 'download' | 'tel' | 'mailto';

/** The event name of a clicked link: tel: and mailto: by their scheme, a file's link a download, any other outbound. */
export function linkEventName(link: string): LinkEventName {
  const scheme = /^([a-z]+):/i.exec(link)?.[1]?.toLowerCase();
  if (scheme === 'tel' || scheme === 'mailto') return scheme;
  try {
    if (FILE_LINK.test(new URL(link).pathname)) return 'download';
  } catch {
    // not a URL the parser takes: an outbound link as sent
  }
  return 'outbound';
}
