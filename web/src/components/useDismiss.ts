import { useEffect, useRef, type RefObject } from 'react';

/**
 * While `open`, calls `onDismiss` on a press of one of `keys` and on a mouse press outside `root`:
 * how every popover of the app (menus, pickers, the filter popovers) closes. The latest
 * `onDismiss` is called, so callers need not memoize it.
 */
export function useDismiss(open: boolean, root: RefObject<HTMLElement | null>, onDismiss: () => void, keys: readonly string[] = ['Escape']): void {
  const dismiss = useRef(onDismiss);
  dismiss.current = onDismiss;
  const keyList = keys.join('\n');
  useEffect(() => {
    if (!open) return undefined;
    const closing = new Set(keyList.split('\n'));
    const onKey = (event: KeyboardEvent) => {
      if (closing.has(event.key)) dismiss.current();
    };
    const onDown = (event: MouseEvent) => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) dismiss.current();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onDown);
    };
  }, [open, root, keyList]);
}
