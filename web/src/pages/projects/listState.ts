/**
 * The state of a sites list (spec 000 §3 "List request state", §4 "Project list"): rows loaded so
 * far, totals, and the id of the latest request — answers to older requests are ignored.
 */
import type { ProjectList, ProjectListRow } from '@stat/schemas/projects';

/** Rows per request (spec 000 §9: projects list page size 10). */
export const LIST_PAGE_SIZE = 10;

/** The list's state. */
export interface ListState {
  readonly rows: readonly ProjectListRow[];
  /** Active sites matching the search. */
  readonly totalRows: number;
  /** Deleted sites matching the search. */
  readonly deletedRows: number;
  /** Id of the latest request; answers to older ones are stale. */
  readonly lastReqId: number;
  /** Nothing loaded yet for the current query (first page or new search). */
  readonly loading: boolean;
  /** A further page is loading. */
  readonly loadingMore: boolean;
  readonly failed: boolean;
}

/** What changes the list. */
export type ListAction =
  | { readonly type: 'request'; readonly reqId: number; readonly more: boolean }
  | { readonly type: 'loaded'; readonly reqId: number; readonly more: boolean; readonly answer: ProjectList }
  | { readonly type: 'failed'; readonly reqId: number }
  /** A row left this list: deleted from the active list, or restored from the deleted one. */
  | { readonly type: 'moved'; readonly id: number; readonly from: 'active' | 'deleted' };

export const INITIAL_LIST: ListState = { rows: [], totalRows: 0, deletedRows: 0, lastReqId: 0, loading: true, loadingMore: false, failed: false };

export function listReducer(state: ListState, action: ListAction): ListState {
  switch (action.type) {
    case 'request':
      return action.more
        ? { ...state, lastReqId: action.reqId, loadingMore: true, failed: false }
        : { ...state, lastReqId: action.reqId, loading: true, loadingMore: false, failed: false };
    case 'loaded': {
      if (action.reqId !== state.lastReqId) return state;
      const { data, meta } = action.answer;
      let rows: readonly ProjectListRow[] = data;
      if (action.more) {
        const known = new Set(state.rows.map((r) => r.id));
        rows = [...state.rows, ...data.filter((r) => !known.has(r.id))];
      }
      return { rows, totalRows: meta.total_rows, deletedRows: meta.deleted_rows, lastReqId: state.lastReqId, loading: false, loadingMore: false, failed: false };
    }
    case 'failed':
      if (action.reqId !== state.lastReqId) return state;
      return { ...state, loading: false, loadingMore: false, failed: true };
    case 'moved': {
      if (!state.rows.some((r) => r.id === action.id)) return state;
      const rows = state.rows.filter((r) => r.id !== action.id);
      return action.from === 'active'
        ? { ...state, rows, totalRows: Math.max(0, state.totalRows - 1), deletedRows: state.deletedRows + 1 }
        : { ...state, rows, totalRows: state.totalRows + 1, deletedRows: Math.max(0, state.deletedRows - 1) };
    }
    default: {
      const never: never = action;
      return never;
    }
  }
}

/** The total of the list being shown. */
export function listTotal(state: ListState, deleted: boolean): number {
  return deleted ? state.deletedRows : state.totalRows;
}

/** Whether the «load more» row is shown: fewer rows shown than the total. */
export function hasMore(state: ListState, deleted: boolean): boolean {
  return !state.loading && state.rows.length < listTotal(state, deleted);
}
