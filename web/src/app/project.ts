/** The project a page is in, as its layout loaded it. */
import { createContext, useContext } from 'react';
import { projectPageTitle } from '@stat/schemas/site';
import type { Project } from '../data/calls';

/** The demo project every visitor may read (spec 000 §1). */
export const DEMO_PROJECT_ID = 7596044;

/** What the project layout gives its pages. */
export interface ProjectContextValue {
  readonly project: Project;
  /** Replaces the project after a save (the api answers with the saved project). */
  setProject(project: Project): void;
  /** Reads the project again. */
  reload(): void;
}

export const ProjectContext = createContext<ProjectContextValue | null>(null);

/** The current project; only inside the project layout. */
export function useProject(): ProjectContextValue {
  const value = useContext(ProjectContext);
  if (!value) throw new Error('useProject outside the project layout');
  return value;
}

/**
 * The site's address and id in a page title (spec 001 §2), from the project layout; a page rendered
 * on its own (no layout) has only the id it was given.
 */
export function useProjectPageTitle(title: string, projectId?: number | string): string {
  const project = useContext(ProjectContext)?.project;
  const id = projectId ?? project?.id ?? '';
  // The address shown beside the project's name in the layout: without the scheme and «www.».
  const url = project && String(project.id) === String(id) ? project.cleanedUrl || project.url : '';
  return projectPageTitle(title, url, id);
}
