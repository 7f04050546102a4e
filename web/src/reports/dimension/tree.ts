/**
 * The expanded rows of a dimension table (spec 001 §3 "Table data is kept as rows by id plus a
 * map of parent-path keys to lists of row ids"): each expanded row's children as fetched so far,
 * and the flattening into display order. Pure, apart from the hook at the end.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReportRequest, TableResult, TableRow } from '@stat/schemas/reports';
import type { TreeItem } from './TreeTable';

/** Children fetched per request, on expanding and on each «Показать ещё». */
const CHILD_STEP = 10;

/** The children of one expanded (or once expanded) row. */
interface ChildLevel {
  /** Whether they are shown. */
  readonly open: boolean;
  readonly rows: readonly TableRow[];
  /** Rows of this level in all (the api's `meta.total`). */
  readonly total: number;
  readonly loading: boolean;
}

/** Children by parent row id. */
export type ChildMap = Readonly<Record<string, ChildLevel>>;

/**
 * The rows in display order: each row, then, when it is open, its children (recursively) and a
 * «Показать ещё» row when the level has more than were fetched.
 */
export function flattenTree(top: readonly TableRow[], children: ChildMap): TreeItem[] {
  const out: TreeItem[] = [];
  const visit = (rows: readonly TableRow[], depth: number) => {
    for (const row of rows) {
      const level = Object.hasOwn(children, row.id) ? children[row.id] : undefined;
      const open = level?.open === true;
      out.push({ kind: 'row', id: row.id, row, depth, expanded: open, expanding: open && level.loading && level.rows.length === 0 });
      if (!open) continue;
      visit(level.rows, depth + 1);
      if (level.total > level.rows.length) {
        out.push({ kind: 'more', id: `${row.id}#more`, parentId: row.id, depth: depth + 1, shown: level.rows.length, total: level.total, loading: level.loading });
      }
    }
  };
  visit(top, 0);
  return out;
}

/** The path of a row, from its id (the JSON text of its values from the top level down). */
export function rowPath(id: string): (string | number)[] {
  const parsed: unknown = JSON.parse(id);
  if (!Array.isArray(parsed)) throw new Error(`not a row path: ${id}`);
  return parsed.map((v) => (typeof v === 'number' ? v : String(v)));
}

/** Fetches a page of a table: what the tree hook needs from the api. */
export type FetchTable = (body: ReportRequest, signal: AbortSignal) => Promise<TableResult>;

/** The expanded rows, and the ways to change them. */
export interface TreeState {
  readonly children: ChildMap;
  /** The arrow: fetches the children the first time, then shows or hides them. */
  toggle(id: string): void;
  /** «Показать ещё»: fetches the next children of a row. */
  showMore(id: string): void;
  /** A failure of the latest children request. */
  readonly error: unknown;
}

/**
 * The expanded rows of a table whose request (without paging) is `base`; a new `baseKey` (other
 * period, sort, metrics, sample) collapses everything and ignores answers to older requests.
 */
export function useTree(baseKey: string, base: ReportRequest, fetchTable: FetchTable): TreeState {
  const [state, setState] = useState<{ key: string; children: ChildMap; error: unknown }>({ key: baseKey, children: {}, error: undefined });
  const current = state.key === baseKey ? state : { key: baseKey, children: {}, error: undefined };
  const keyRef = useRef(baseKey);
  const controllers = useRef(new Set<AbortController>());
  const latest = useRef({ base, fetchTable, children: current.children });
  latest.current = { base, fetchTable, children: current.children };

  useEffect(() => {
    keyRef.current = baseKey;
    const running = controllers.current;
    return () => {
      for (const c of running) c.abort();
      running.clear();
    };
  }, [baseKey]);

  const load = useCallback((id: string, offset: number) => {
    const key = keyRef.current;
    const controller = new AbortController();
    controllers.current.add(controller);
    const update = (change: (level: ChildLevel | undefined) => ChildLevel, error?: unknown) =>
      setState((s) => {
        const children = s.key === key ? s.children : {};
        const level = Object.hasOwn(children, id) ? children[id] : undefined;
        return { key, children: { ...children, [id]: change(level) }, error };
      });
    update((level) => ({ open: true, rows: level?.rows ?? [], total: level?.total ?? 0, loading: true }));
    const { base: body, fetchTable: run } = latest.current;
    run({ ...body, parents: rowPath(id), limit: CHILD_STEP, offset }, controller.signal).then(
      (answer) => {
        controllers.current.delete(controller);
        if (controller.signal.aborted || keyRef.current !== key) return;
        update((level) => ({
          open: level?.open ?? true,
          rows: [...(level?.rows ?? []).slice(0, offset), ...answer.data],
          total: answer.meta.total,
          loading: false,
        }));
      },
      (error: unknown) => {
        controllers.current.delete(controller);
        if (controller.signal.aborted || keyRef.current !== key) return;
        update((level) => ({ open: false, rows: level?.rows ?? [], total: level?.total ?? 0, loading: false }), error);
      },
    );
  }, []);

  const toggle = useCallback(
    (id: string) => {
      const level = Object.hasOwn(latest.current.children, id) ? latest.current.children[id] : undefined;
      if (!level || (level.rows.length === 0 && !level.loading)) {
        load(id, 0);
        return;
      }
      const key = keyRef.current;
      setState((s) => {
        const children = s.key === key ? s.children : {};
        const own = children[id];
        return own ? { key, children: { ...children, [id]: { ...own, open: !own.open } }, error: s.error } : s;
      });
    },
    [load],
  );

  const showMore = useCallback(
    (id: string) => {
      const level = latest.current.children[id];
      if (level && !level.loading) load(id, level.rows.length);
    },
    [load],
  );

  return { children: current.children, toggle, showMore, error: current.error };
}
