/**
 * What a report page needs, started as the app starts instead of one call after another. Without
 * it a report waits for the current user (and a refresh for a visitor), then the project, then
 * its view's code, then the server time, and only then asks for its data; started here, the
 * project, the code and the time come while the session is still being read.
 */
import { calls, type Project } from '../data/calls';
import { serverClockOffset } from '../lib/clock';
import { preloadReportView } from '../reports/registry';

/** A report page's path: the project and the report. */
const REPORT_PATH = /^\/stat\/projects\/([1-9]\d{0,9})\/new\/report\/([a-z_]+)\/?$/;

let early: { readonly projectId: string; readonly project: Promise<Project> } | null = null;

/** Starts the calls and code that the page at `pathname` will need at once. */
export function preloadForPath(pathname: string): void {
  const match = REPORT_PATH.exec(pathname);
  if (!match) return;
  const [, projectId = '', reportName = ''] = match;
  void serverClockOffset();
  preloadReportView(reportName);
  // With the same cookies the session is read with, so it is the project as that user sees it.
  const project = calls.project(projectId, { loginOnAuthLoss: false });
  project.catch(() => undefined);
  early = { projectId, project };
}

/**
 * The project read at start, once: the first project layout takes it; a failed early call (a
 * visitor who logs in first) is asked again.
 */
export function takeEarlyProject(projectId: string, fetchAgain: () => Promise<Project>): Promise<Project> | null {
  const taken = early;
  early = null;
  if (!taken || taken.projectId !== projectId) return null;
  return taken.project.catch(fetchAgain);
}
