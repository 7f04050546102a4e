import { hit } from './hit.js';

/**
 * Block analytics: elements carrying `attribute` are blocks, the attribute's value their name.
 * A click inside a block is a `click` of the innermost block; a block entering the window is a
 * `show`, once per block and page view. Returns the function that observes the blocks of a new
 * page view (the blocks in the document then; later ones wait for the next page view).
 */
export function trackBlocks(attribute: string): () => void {
  const selector = '[' + attribute + ']';
  const name = (block: Element): string | null => block.getAttribute(attribute);
  document.addEventListener(
    'click',
    (event) => {
      const block = (event.target as Element).closest?.(selector);
      if (block && name(block)) hit('click', { bl: name(block)! });
    },
    true,
  );
  let observer: IntersectionObserver | undefined;
  const observe = (): void => {
    if (observer) observer.disconnect();
    observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) {
          observer!.unobserve(entry.target);
          if (name(entry.target)) hit('show', { bl: name(entry.target)! });
        }
      }
    });
    document.querySelectorAll(selector).forEach((block) => observer!.observe(block));
  };
  // The first page view may come while the document is still being parsed.
  return () => (document.readyState == 'loading' ? document.addEventListener('DOMContentLoaded', observe) : observe());
}
