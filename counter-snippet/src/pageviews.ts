import { hit, page, setPage } from './hit.js';

/**
 * Page views: `view` sends one when the address changed since the last. History navigation
 * (pushState, back and forward), a page restored from the back-forward cache and, with
 * `hashes`, a hash change call it. `leave` closes the previous page view before the next is
 * sent (its engaged time and reading depth belong to it); `enter` opens the new one.
 * Returns `view` for the first page view, which the caller sends when the queue allows.
 */
export function trackPageViews(hashes: boolean, leave: (hidden: boolean) => void, enter: () => void): () => void {
  const view = (): void => {
    // The hash is a position inside a page, not a page, unless hash tracking is on.
    const url = hashes ? location.href : (location.href.split('#')[0] as string);
    if (url == page) return;
    const referrer = page || document.referrer;
    if (page) leave(false);
    setPage(url);
    hit('pageview', { r: referrer, ti: document.title, sw: screen.width, sh: screen.height });
    enter();
  };
  // SPA routers set the new title right after pushState: read it a tick later.
  const later = (): void => void setTimeout(view, 0);
  const push = history.pushState;
  history.pushState = function (...args: Parameters<History['pushState']>) {
    push.apply(this, args);
    later();
  };
  addEventListener('popstate', later);
  if (hashes) addEventListener('hashchange', later);
  addEventListener('pageshow', (event) => {
    if (event.persisted) {
      setPage('');
      view();
    }
  });
  return view;
}
