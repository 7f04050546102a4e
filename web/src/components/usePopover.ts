import { useRef, useState } from 'react';
import { useDismiss } from './useDismiss';

/** An open/closed popover that closes on Escape and on a click outside its root. */
export function usePopover<T extends HTMLElement>() {
  const [open, setOpen] = useState(false);
  const root = useRef<T>(null);
  useDismiss(open, root, () => setOpen(false));
  return { open, setOpen, root };
}
