import { useEffect } from 'react';

/**
 * Sets the browser tab's title while the page is shown. Not a `<title>` element: the build runs on
 * Preact, which leaves it in the body, where the index page's own `<title>` hides it.
 */
export function PageTitle({ text }: { readonly text: string }) {
  useEffect(() => {
    document.title = text;
  }, [text]);
  return null;
}
