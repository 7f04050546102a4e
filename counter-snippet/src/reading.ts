import { hit } from './hit.js';
import { article, setArticle } from './material.js';

/** Deepest point of the page seen and of the article read in this page view, percents. */
let scrolled = 0;
let read = 0;
/** What the last read hit of this page view said, so an unchanged depth is not sent again. */
let sent = '';
/** Whether the end of the article was reached in this page view. */
let ended = 0;

const percent = (share: number): number => Math.round(Math.min(1, Math.max(0, share || 0)) * 100);

/** Measures the depths now; returns the article, or null on a page without one. */
function measure(): Element | null {
  const found = document.querySelector(article);
  if (found) {
    const bottom = innerHeight;
    const box = found.getBoundingClientRect();
    scrolled = Math.max(scrolled, percent((scrollY + bottom) / document.documentElement.scrollHeight));
    // Read through: the share of the article that has been above the bottom of the window.
    read = Math.max(read, percent((bottom - box.top) / box.height));
    // The whole article read, once a page view: the autogoal «Дочитывание статьи».
    if (read == 100 && !ended) {
      ended = 1;
      hit('event', { ec: 'base', en: 'scroll' });
    }
  }
  return found;
}

/** Starts a page view's depths afresh. */
export function startReading(): void {
  scrolled = read = ended = 0;
  sent = '';
  measure();
}

/** Sends the depths of an article page when they grew since the last read hit. */
export function flushReading(): void {
  if (!measure()) return;
  const depth = scrolled + ' ' + read;
  if (depth != sent) {
    sent = depth;
    hit('read', { sp: scrolled, rp: read });
  }
}

/** Reading depth: pages with an element matching `articleSelector` are article pages. */
export function trackReading(articleSelector: string): void {
  setArticle(articleSelector);
  addEventListener('scroll', measure, { passive: true });
}
