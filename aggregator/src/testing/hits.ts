import type { AcceptedHit } from '@stat/schemas';

/** The browser of the tests' page views: Chrome 131 on Windows. */
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
export const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** A page view of a test: who, when, and what it says besides (https://shop.ru/ from CHROME unless told). */
export interface PageView {
  project: number;
  visitor: string;
  at: number;
  url?: string;
  referrer?: string;
  ua?: string;
  title?: string;
}

/**
 * Makes the page views of a test file as the collector hands them on, from 77.88.55.88: each with
 * the file's next id, `00000000-0000-4000-<group>-<n>` (n from `first` + 1 on), unique in its chDB.
 */
export function pageViewMaker(group = '8000', first = 0): (view: PageView) => AcceptedHit {
  let sequence = first;
  return ({ project, visitor, at, url = 'https://shop.ru/', referrer = '', ua = CHROME, title = '' }) => {
    sequence += 1;
    const id = `00000000-0000-4000-${group}-${String(sequence).padStart(12, '0')}`;
    return { id, at, ip: '77.88.55.88', ua, hit: { p: project, t: 'pageview', u: url, r: referrer, ti: title, sw: 0, sh: 0, v: visitor } };
  };
}
