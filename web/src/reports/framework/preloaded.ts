/**
 * Report answers asked for before their view exists (`app/preload.ts` starts a report page's table
 * and graph calls from its URL while the session, the project and the view's code still load).
 * The view takes such an answer only for the very call it would make: the same project, report
 * and kind, and a body equal byte for byte. Each answer is kept for the first call of its kind and
 * dropped then, used or not; a login, a logout or a lost session drops them all; so does age.
 * A failed early call is made again by the view, with the session it has by then.
 */
import type { ReportRequest } from '@stat/schemas/reports';
import type { KnownAnswer } from '../../lib/hooks';

/** The two calls of a report page. */
export type ReportCallKind = 'graph' | 'table';

/** The first bodies a report page sends: its graph's (null when it draws none) and its table's. */
export interface ReportCalls {
  readonly graph: ReportRequest | null;
  readonly table: ReportRequest;
}

/**
 * How long an early answer may wait for its view. It serves one page load; a view that comes later
 * (a counter-pending page that turned into the report) asks afresh.
 */
const MAX_AGE_MS = 15_000;

interface Entry {
  readonly key: string;
  readonly answer: Promise<unknown>;
  readonly at: number;
  /** The answer, once it came. */
  settled?: KnownAnswer<unknown>;
}

const entries = new Map<ReportCallKind, Entry>();

function keyOf(projectId: string, reportName: string, body: ReportRequest): string {
  return `${projectId}/${reportName}\n${JSON.stringify(body)}`;
}

/** Starts a report call now (`run`) and keeps its answer for the first call of its kind. */
export function preloadReportCall(kind: ReportCallKind, projectId: string, reportName: string, body: ReportRequest, run: () => Promise<unknown>): void {
  const entry: Entry = { key: keyOf(projectId, reportName, body), answer: run(), at: Date.now() };
  entry.answer.then(
    (value) => {
      entry.settled = { value };
    },
    () => undefined,
  );
  entries.set(kind, entry);
}

/** The kept entry of `kind` when it is for exactly this call and not too old, else undefined. */
function entryFor(kind: ReportCallKind, projectId: string, reportName: string, body: ReportRequest): Entry | undefined {
  const entry = entries.get(kind);
  return entry && entry.key === keyOf(projectId, reportName, body) && Date.now() - entry.at <= MAX_AGE_MS ? entry : undefined;
}

/**
 * The early answer of exactly this call when it has already come, else null. A view's first render
 * shows it at once (`useRequest`'s `known`) instead of rendering empty and again when a promise
 * that had long resolved calls back; once shown (`taken`), it is gone, as after `preloadedOr`.
 */
export function settledPreloaded<T>(kind: ReportCallKind, projectId: string, reportName: string, body: ReportRequest): KnownAnswer<T> | null {
  const entry = entryFor(kind, projectId, reportName, body);
  if (!entry?.settled) return null;
  return {
    value: entry.settled.value as T,
    taken: () => {
      if (entries.get(kind) === entry) entries.delete(kind);
    },
  };
}

/**
 * The call of a view: the early answer when it was for exactly this call, else (or when the early
 * call failed) `fetchNow()`. Either way the early answer of this kind is gone afterwards, except
 * when `signal` aborts before the answer reached the view (React running a first effect and
 * dropping it at once): then the next identical call still finds it.
 */
export function preloadedOr<T>(kind: ReportCallKind, projectId: string, reportName: string, body: ReportRequest, signal: AbortSignal, fetchNow: () => Promise<T>): Promise<T> {
  const entry = entryFor(kind, projectId, reportName, body);
  entries.delete(kind);
  if (!entry) return fetchNow();
  let delivered = false;
  signal.addEventListener(
    'abort',
    () => {
      if (!delivered && !entries.has(kind)) entries.set(kind, entry);
    },
    { once: true },
  );
  return (entry.answer as Promise<T>).then(
    (answer) => {
      delivered = true;
      return answer;
    },
    () => fetchNow(),
  );
}

/** Forgets every early answer: the user changed, so they may show what this user may not see. */
export function dropPreloaded(): void {
  entries.clear();
}
