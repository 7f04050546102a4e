import type { Hit } from './send.js';

/** The article selector (data-article); reading depth measures the same element. */
export let article = 'article';

export function setArticle(selector: string): void {
  article = selector;
}

/** One line of at most `max` characters: whitespace runs (newlines of an h1) become one space. */
const line = (text: string | null | undefined, max: number): string => (text || '').replace(/\s+/g, ' ').trim().slice(0, max);

/** The first element of `root` matching `selector`, or an empty object (no ?. : es2017 spells it long). */
const first = (root: ParentNode, selector: string): Partial<HTMLMetaElement & HTMLTimeElement> =>
  root.querySelector(selector) || {};

/** The content of the first <meta> named `name` (name= or property=), or ''. */
const meta = (name: string): string | undefined => first(document, `meta[name="${name}"],meta[property="${name}"]`).content;

/**
 * The material of an article page, as news sites publish it, as hit keys (empty keys left out):
 * `mt` title (og:title, else the article's first h1, else the page title), `ma` author (the
 * article's data-author, else the author or article:author meta), `mp` published time
 * (article:published_time, else the article's <time datetime>). No keys on other pages.
 */
export function material(): Hit {
  const found = document.querySelector(article);
  const keys: Hit = {};
  if (found) {
    const put = (key: string, value: string): void => {
      if (value) keys[key] = value;
    };
    put('mt', line(meta('og:title') || first(found, 'h1').textContent || document.title, 256));
    put('ma', line(found.getAttribute('data-author') || meta('author') || meta('article:author'), 100));
    put('mp', line(meta('article:published_time') || first(found, 'time').dateTime, 40));
  }
  return keys;
}
