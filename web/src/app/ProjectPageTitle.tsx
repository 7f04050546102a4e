import { useEffect } from 'react';
import { useProjectPageTitle } from './project';

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

/** The browser title of a project page (spec 001 §2): the page's title, the site's url, the product and the project id. */
export function ProjectPageTitle({ title, projectId }: { readonly title: string; readonly projectId?: number | string }) {
  return <PageTitle text={useProjectPageTitle(title, projectId)} />;
}
