/** The counter's options, read from data- attributes of its own script tag. */
export interface Options {
  /** data-project: the project (counter) id */
  project: number;
  /** data-collector: the collector's base URL; hits go to its /hit */
  endpoint: string;
  /** data-track-hashes: the hash is part of the page address, and a hash change is a page view */
  hashes: boolean;
  /** data-user-id: the page may set its user id with stat('uid', id) */
  userId: boolean;
  /** data-attribute (full build): the block attribute, `data-` + the option, default data-your-attribute */
  attribute: string;
  /** data-article (full build): a CSS selector of the article on article pages, default `article` */
  article: string;
}

/** Reads the options; a switch is on when present and not "off", "false" or "0". */
export function readOptions(script: Element): Options {
  const get = (name: string): string | null => script.getAttribute('data-' + name);
  const on = (name: string): boolean => {
    const value = get(name);
    return value != null && !/^(off|false|0)$/i.test(value);
  };
  return {
    project: Number(get('project')),
    endpoint: (get('collector') || '') + '/hit',
    hashes: on('track-hashes'),
    userId: on('user-id'),
    // Only name characters: the attribute goes into CSS selectors, where others would throw.
    attribute: COMPILE_BLOCKS ? 'data-' + (get('attribute') || 'your-attribute').replace(/^data-|[^\w-]/g, '') : '',
    article: COMPILE_READING ? get('article') || 'article' : '',
  };
}
