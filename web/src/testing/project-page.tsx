/** What the dom tests of a project's pages share: the page inside its project and router, and the address it keeps. */
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { Project } from '@stat/schemas/projects';
import { ProjectContext } from '../app/project';
import { SnackbarProvider } from '../app/Snackbar';
import type { Rendered } from './render';

/** The address shown, to read what the page keeps in its URL (the period, the table). */
export function Address() {
  const location = useLocation();
  return <output data-testid="address">{`${location.pathname}${location.search}`}</output>;
}

/** The address the page keeps, as {@link Address} shows it. */
export const address = (v: Rendered) => v.container.querySelector('[data-testid="address"]')?.textContent;

/** A page as its project layout shows it: snackbars, the project, a router opened at `path`. */
export function inProject(project: Project, path: string, page: ReactNode): ReactElement {
  return (
    <SnackbarProvider>
      <ProjectContext.Provider value={{ project, setProject: () => undefined, reload: () => undefined }}>
        <MemoryRouter initialEntries={[path]}>{page}</MemoryRouter>
      </ProjectContext.Provider>
    </SnackbarProvider>
  );
}
