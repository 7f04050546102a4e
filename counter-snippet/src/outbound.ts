import { FILE_LINK } from '../../schemas/src/links.js';
import { hit } from './hit.js';

/**
 * Link clicks (a click, or a middle click, which opens a tab) on a link to another host, to a
 * file, or with tel: or mailto:, sent as `outbound` with the link: the aggregator names the
 * event by the link (outbound, download, tel, mailto; aggregator/src/rows.ts). A page's own
 * javascript: links are not links. The navigation is left alone: the beacon is queued before
 * the page starts to unload.
 */
export function trackOutbound(): void {
  const click = (event: MouseEvent): void => {
    const link = (event.target as Element).closest?.('a[href]') as HTMLAnchorElement | null;
    if (link && event.button < 2 && link.protocol != 'javascript:' && (link.host != location.host || FILE_LINK.test(link.pathname) || link.hasAttribute('download'))) {
      hit('outbound', { l: link.href });
    }
  };
  document.addEventListener('click', click, true);
  document.addEventListener('auxclick', click, true);
  // Form sends (the autogoal «Отправка формы»): an event of the class base (a page's own
  // events are of the class cv unless it names another).
  document.addEventListener('submit', () => hit('event', { ec: 'base', en: 'form' }), true);
}
