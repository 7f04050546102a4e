import { hit } from './hit.js';

/** When the page last became visible; 0 while it is hidden. No timer runs, visible or not. */
let since = 0;

const visible = (): boolean => document.visibilityState == 'visible';

/** Starts counting engaged time for a new page view if the page is visible. */
export function startEngagement(): void {
  since = since || (visible() ? Date.now() : 0);
}

/**
 * Sends the time the page was visible since the last engagement hit of this page view.
 * `hidden`: the page is being hidden or left, so the clock stops until it is visible again;
 * otherwise (an SPA navigation) it goes on for the next page view.
 */
export function flushEngagement(hidden: boolean): void {
  const now = Date.now();
  const d = since && now - since;
  since = hidden ? 0 : since && now;
  if (d > 0) hit('engagement', { d: Math.min(d, 864e5) });
}

/** Calls `hide(true)` when the page is hidden or left; restarts the clock when it shows again. */
export function trackEngagement(hide: (hidden: boolean) => void): void {
  document.addEventListener('visibilitychange', () => {
    if (visible()) startEngagement();
    else hide(true);
  });
  // Browsers that leave without a visibilitychange still fire pagehide; sent once either way.
  addEventListener('pagehide', () => hide(true));
}
