/**
 * What a report page needs, started as the app starts instead of one call after another. Without
 * it a report waits for the current user (and a refresh for a visitor), then the project, then
 * its view's code, then the server time, and only then asks for its data; started here, the
 * project, the code, the time and the report's own table and graph come while the session is
 * still being read.
 */
import type { Project } from '@stat/schemas/projects';
import { calls } from '../data/calls';
import { serverClockOffset, serverToday } from '../lib/clock';
import { moscowToday } from '../lib/dates';
import type { IsoDate } from '@stat/schemas/period';
import { correctedReportUrl, firstReportCalls } from '../reports/firstCalls';
import { preloadReportCall } from '../reports/framework/preloaded';
import { fetchReportGraph, fetchReportTable } from '../reports/framework/reportApi';
import { openableReport, preloadReportView, type ReportDefinition } from '../reports/registry';
import { askEarlyUser } from './earlyUser';

/** A report page's path: the project and the report. */
const REPORT_PATH = /^\/stat\/projects\/([1-9]\d{0,9})\/new\/report\/([a-z_]+)\/?$/;

let early: { readonly projectId: string; readonly project: Promise<Project> } | null = null;

/**
 * Starts the calls and code that the page at `pathname` with the query `search` will need at once:
 * on every page the current user (the session provider takes it), on a report page the rest.
 */
export function preloadForPath(pathname: string, search = ''): void {
  askEarlyUser();
  const match = REPORT_PATH.exec(pathname);
  if (!match) return;
  const [, projectId = '', reportName = ''] = match;
  const offset = serverClockOffset();
  // The report's data first: its queries are the slowest calls, and the server starts them first.
  const report = openableReport(reportName);
  if (report) preloadReportData(projectId, report, correctUrl(report, pathname, new URLSearchParams(search)), offset);
  // With the same cookies the session is read with, so it is the project as that user sees it.
  const project = calls.project(projectId, { loginOnAuthLoss: false });
  project.catch(() => undefined);
  early = { projectId, project };
  preloadReportView(reportName);
}

/**
 * The report's URL as its view will correct it (on this browser's Moscow day), written before the
 * router reads it: the view then has nothing to correct, and the page renders once less.
 */
function correctUrl(report: ReportDefinition, pathname: string, search: URLSearchParams): URLSearchParams {
  const corrected = correctedReportUrl(report, search, moscowToday());
  if (!corrected) return search;
  window.history.replaceState(window.history.state, '', `${pathname}?${corrected.toString()}${window.location.hash}`);
  return corrected;
}

/**
 * The report's graph and table, asked for with the bodies its view will send: they follow from
 * the URL, the definition and the server's day. That day is this browser's Moscow day unless the
 * clocks differ by more than a minute (lib/clock), so the calls start at once with it and start
 * again in the rare case the server's time names another day. The view takes the answers only
 * for exactly the bodies it sends (`reports/framework/preloaded.ts`), so a guess that was wrong
 * costs a call and never shows a wrong answer.
 */
function preloadReportData(projectId: string, report: ReportDefinition, search: URLSearchParams, offset: Promise<number>): void {
  const ask = (today: IsoDate) => {
    const first = firstReportCalls(report, search, today);
    if (!first) return;
    // A visitor's failed call only fails: the view asks again once the session is known.
    const options = { loginOnAuthLoss: false };
    const { graph, table } = first;
    if (graph) preloadReportCall('graph', projectId, report.name, graph, () => fetchReportGraph(projectId, report.name, graph, options));
    preloadReportCall('table', projectId, report.name, table, () => fetchReportTable(projectId, report.name, table, options));
  };
  const localToday = moscowToday();
  ask(localToday);
  void offset.then((offsetMs) => {
    const today = serverToday(offsetMs);
    if (today !== localToday) ask(today);
  });
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
