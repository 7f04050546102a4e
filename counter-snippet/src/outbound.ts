import { hit } from './hit.js';

/**
 * Outbound links: a click (or a middle click, which opens a tab) on a link to another host.
 * The navigation is left alone: the beacon is queued before the page starts to unload.
 */
export function trackOutbound(): void {
  const click = (event: MouseEvent): void => {
    const link = (event.target as Element).closest?.('a[href]') as HTMLAnchorElement | null;
    if (link && event.button < 2 && /^http/.test(link.protocol) && link.host != location.host) {
      hit('outbound', { l: link.href });
    }
  };
  document.addEventListener('click', click, true);
  document.addEventListener('auxclick', click, true);
}
