import type { ReactNode } from 'react';
import { usePopover } from './usePopover';
import styles from './Dropdown.module.css';

/** An item of a {@link Dropdown}. */
interface DropdownItem {
  readonly label: ReactNode;
  readonly onSelect: () => void;
  readonly danger?: boolean;
  readonly 'data-testid'?: string;
}

/** Props of {@link Dropdown}. */
export interface DropdownProps {
  /** The button's content. */
  readonly trigger: ReactNode;
  readonly label: string;
  readonly items: readonly (DropdownItem | 'separator')[];
  readonly align?: 'left' | 'right';
  readonly triggerClassName?: string;
  readonly 'data-testid'?: string;
}

/** A button opening a menu of actions; closes on a choice, Escape or a click outside. */
export function Dropdown({ trigger, label, items, align = 'right', triggerClassName, 'data-testid': testId }: DropdownProps) {
  const { open, setOpen, root } = usePopover<HTMLDivElement>();
  return (
    <div ref={root} className={styles.root}>
      <button
        type="button"
        className={triggerClassName ?? styles.trigger}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={label}
        title={label}
        data-testid={testId}
        onClick={() => setOpen((o) => !o)}
      >
        {trigger}
      </button>
      {open ? (
        <div className={align === 'right' ? `${styles.menu} ${styles.right}` : styles.menu} role="menu">
          {items.map((item, i) =>
            item === 'separator' ? (
              <div key={`s${i}`} className={styles.separator} role="separator" />
            ) : (
              <button
                key={i}
                type="button"
                role="menuitem"
                className={item.danger ? `${styles.item} ${styles.danger}` : styles.item}
                data-testid={item['data-testid']}
                onClick={() => {
                  setOpen(false);
                  item.onSelect();
                }}
              >
                {item.label}
              </button>
            ),
          )}
        </div>
      ) : null}
    </div>
  );
}
