import { PageTitle } from './PageTitle';
import { useProjectPageTitle } from './project';

/** The browser title of a project page (spec 001 §2): the page's title, the site's url, the product and the project id. */
export function ProjectPageTitle({ title, projectId }: { readonly title: string; readonly projectId?: number | string }) {
  return <PageTitle text={useProjectPageTitle(title, projectId)} />;
}
