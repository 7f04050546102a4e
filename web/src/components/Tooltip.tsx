import { useId, useRef, useState, type ReactNode } from 'react';
import styles from './Tooltip.module.css';

/** Props of {@link Tooltip}. */
export interface TooltipProps {
  /** What the tooltip explains; hovering or focusing it opens the tooltip. */
  readonly children: ReactNode;
  /** The tooltip's content; may hold a link (it stays open while the pointer is on it). */
  readonly content: ReactNode;
  readonly 'data-testid'?: string;
}

/** A tooltip that opens on hover and focus and can be clicked into. */
export function Tooltip({ children, content, 'data-testid': testId }: TooltipProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const show = () => {
    if (timer.current) clearTimeout(timer.current);
    setOpen(true);
  };
  const hide = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(false), 150);
  };
  return (
    <span className={styles.root} onMouseEnter={show} onMouseLeave={hide} onFocus={show} onBlur={hide} data-testid={testId}>
      <span aria-describedby={open ? id : undefined}>{children}</span>
      {open ? (
        <span id={id} role="tooltip" className={styles.tip}>
          {content}
        </span>
      ) : null}
    </span>
  );
}
