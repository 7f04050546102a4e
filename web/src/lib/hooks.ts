/** Hooks shared by the screens: requests that ignore stale answers, debounced values. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbortError } from './api';

/** State of one request. */
export interface RequestState<T> {
  /** The last successful result; kept while a newer request loads, so nothing jumps. */
  readonly data: T | undefined;
  /** The failure of the latest request. */
  readonly error: unknown;
  readonly loading: boolean;
}

/** An answer already at hand. */
export interface KnownAnswer<T> {
  readonly value: T;
  /** Called when the answer was shown (it may be called again): an answer kept for one use is gone after it. */
  readonly taken?: () => void;
}

/**
 * Runs `run` whenever `key` changes (null: not yet), aborting the previous request; results of
 * superseded requests are ignored (stale responses are ignored). `reload` runs it again.
 * `known`, asked once as the hook mounts, may give the first key's answer already at hand (a
 * report's early call that came before its view's code): the first render then shows it, and
 * that key is not asked for, which spares a render of the whole view empty and a second with
 * the answer a moment later.
 */
export function useRequest<T>(key: string | null, run: (signal: AbortSignal) => Promise<T>, known?: () => KnownAnswer<T> | null): RequestState<T> & { reload(): void } {
  const [seed] = useState(() => (key !== null && known ? { key, answer: known() } : null));
  const [state, setState] = useState<RequestState<T>>(() =>
    seed?.answer ? { data: seed.answer.value, error: undefined, loading: false } : { data: undefined, error: undefined, loading: key !== null },
  );
  const seededKey = useRef(seed?.answer ? seed.key : null);
  const [nonce, setNonce] = useState(0);
  const runRef = useRef(run);
  useEffect(() => {
    runRef.current = run;
  });
  useEffect(() => {
    if (key === null) return undefined;
    // The answer came with the first render; a reload or another key asks.
    if (key === seededKey.current && nonce === 0) {
      seed?.answer?.taken?.();
      return undefined;
    }
    seededKey.current = null;
    const controller = new AbortController();
    setState((s) => (s.loading && s.error === undefined ? s : { data: s.data, error: undefined, loading: true }));
    runRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: undefined, loading: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted && !isAbortError(error)) setState({ data: undefined, error, loading: false });
      },
    );
    return () => controller.abort();
    // `seed` is state that is never set again: listed, it changes nothing.
  }, [key, nonce, seed]);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  return { ...state, reload };
}

/** `value`, changed only after it stayed the same for `delayMs` (search inputs: 500/600 ms). */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** Input delays of spec 000 §5 and §9. */
export const DELAYS = {
  /** Table search (the sites list). */
  tableSearch: 500,
  /** Other search inputs (the switcher). */
  inputSearch: 600,
  /** Fetching a site's title after its address is entered. */
  metadata: 1000,
  /** Notifications appear after this long. */
  notification: 500,
  /** The notification of the counter settings page. */
  counterNotification: 4000,
} as const;
