/** The dashboard's timers: the auto-update's progress, the tab's visibility, counts that animate. */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { DASHBOARD_REFRESH_MS } from '@stat/schemas/reports';
import { countStep } from './state';

function subscribeVisibility(onChange: () => void): () => void {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}

/** Whether the page is visible (`document.visibilityState`): a hidden tab updates nothing. */
export function usePageVisible(): boolean {
  return useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState === 'visible',
    () => true,
  );
}

/** How often the progress bar moves. */
const PROGRESS_TICK_MS = 250;

/**
 * The auto-update's progress, 0..1 (§4: "A progress bar counts 0 to 100 over the interval, then
 * triggers update and resets"): counts while `runs`, calls `update` at 1, and starts again from 0
 * whenever it runs again (the timer "resets when loading ends"). Not running: 0.
 */
export function useAutoUpdate(runs: boolean, update: () => void): number {
  const [progress, setProgress] = useState(0);
  // A new cycle after each update, should the update not pass through loading.
  const [cycle, setCycle] = useState(0);
  const updateRef = useRef(update);
  updateRef.current = update;
  // Read by the timer: the render that stops it (a hidden tab) stops it at once, even before the
  // effect's cleanup runs (Preact runs effects after the next frame, which a hidden tab delays).
  const runsRef = useRef(runs);
  runsRef.current = runs;
  useEffect(() => {
    setProgress(0);
    if (!runs) return undefined;
    const started = Date.now();
    const timer = setInterval(() => {
      if (!runsRef.current) {
        clearInterval(timer);
        return;
      }
      const share = (Date.now() - started) / DASHBOARD_REFRESH_MS;
      if (share < 1) {
        setProgress(share);
        return;
      }
      clearInterval(timer);
      setProgress(1);
      updateRef.current();
      setCycle((c) => c + 1);
    }, PROGRESS_TICK_MS);
    return () => clearInterval(timer);
  }, [runs, cycle]);
  return progress;
}

/** A count shown moving to each new value in about a second (§4 "Counts animate"). */
export function useAnimatedCount(target: number | undefined): number | undefined {
  const [shown, setShown] = useState(target);
  // Where the animation toward the current target began: its steps keep one size.
  const origin = useRef<{ target: number | undefined; from: number }>({ target, from: target ?? 0 });
  useEffect(() => {
    if (target === undefined) return undefined;
    if (shown === undefined) {
      setShown(target);
      return undefined;
    }
    if (origin.current.target !== target) origin.current = { target, from: shown };
    const { next, delayMs } = countStep(shown, target, origin.current.from);
    if (next === shown) return undefined;
    const timer = setTimeout(() => setShown(next), delayMs);
    return () => clearTimeout(timer);
  }, [shown, target]);
  return shown;
}
