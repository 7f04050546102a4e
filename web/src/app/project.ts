/** The project a page is in, as its layout loaded it. */
import { createContext, useContext } from 'react';
import { projectPageTitle } from '@stat/schemas/site';
import type { Project } from '@stat/schemas/projects';

/** The demo project every visitor may read (spec 000 §1). */
export const DEMO_PROJECT_ID = 7596044;

/**
 * Whether a site's counter has sent nothing yet, so its pages show how to install it instead of
 * empty reports. Never for the demo, whose data is generated rather than counted.
 */
export function counterPending(project: Pick<Project, 'id' | 'counter_is_set'>): boolean {
  return !project.counter_is_set && project.id !== DEMO_PROJECT_ID;
}

/**
 * Why the caller may not create or change a project's goals, conversions and funnels (spec 002 §5):
 * nobody is logged in, or the project is the demo, read-only but for administrators.
 */
export type WriteRefusal = 'login' | 'demo';

/** The refusal of a caller, or null when they may write. */
export function writeRefusal(projectId: string, loggedIn: boolean, canEditProject: boolean): WriteRefusal | null {
  if (!loggedIn) return 'login';
  return projectId === String(DEMO_PROJECT_ID) && !canEditProject ? 'demo' : null;
}

/** The tooltip of a control a refusal disables; `what` in the accusative plural: «цели», «воронки». */
export function refusalText(refusal: WriteRefusal, what: string): string {
  return refusal === 'login' ? `Войдите, чтобы создавать и менять ${what}.` : `На демо-сайте нельзя создавать и менять ${what}.`;
}

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
