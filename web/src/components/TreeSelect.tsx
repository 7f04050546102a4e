import { useMemo, useRef, useState } from 'react';
import type { RatingTreeNode } from '@stat/schemas/rating';
import { CloseIcon, TextInput } from './ui';
import { useDismiss } from './useDismiss';
import styles from './TreeSelect.module.css';

/** Props of {@link TreeSelect}. */
export interface TreeSelectProps {
  /** A dictionary as a flat list (parents before or after their children). */
  readonly nodes: readonly RatingTreeNode[];
  readonly value: readonly number[];
  readonly onChange: (ids: number[]) => void;
  /** Most items that can be chosen; further ones are disabled. */
  readonly max: number;
  /** Whether a node with children can itself be chosen (a whole district). */
  readonly parentsSelectable?: boolean;
  readonly disabled?: boolean;
  readonly invalid?: boolean;
  readonly placeholder: string;
  readonly 'data-testid'?: string;
  readonly id?: string;
}

/**
 * A multiple choice from a two-level dictionary: chosen items as chips, a popover with a search
 * and checkboxes grouped by parent. At the limit the other checkboxes are disabled.
 */
export function TreeSelect({ nodes, value, onChange, max, parentsSelectable = false, disabled = false, invalid = false, placeholder, id, 'data-testid': testId }: TreeSelectProps) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const byId = useMemo(() => new Map(nodes.map((n) => [n.id, n])), [nodes]);
  const groups = useMemo(() => {
    const children = new Map<number, RatingTreeNode[]>();
    for (const n of nodes) {
      if (n.parent_id !== null) children.set(n.parent_id, [...(children.get(n.parent_id) ?? []), n]);
    }
    return nodes.filter((n) => n.parent_id === null).map((parent) => ({ parent, children: children.get(parent.id) ?? [] }));
  }, [nodes]);

  useDismiss(open, root, () => setOpen(false));

  const chosen = new Set(value);
  const full = value.length >= max;
  const toggle = (nodeId: number) => {
    if (chosen.has(nodeId)) onChange(value.filter((v) => v !== nodeId));
    else if (!full) onChange([...value, nodeId]);
  };
  const needle = filter.trim().toLowerCase();
  const matches = (n: RatingTreeNode) => !needle || n.title.toLowerCase().includes(needle);

  const option = (n: RatingTreeNode, nested: boolean) => (
    <label key={n.id} className={nested ? `${styles.option} ${styles.nested}` : styles.option}>
      <input type="checkbox" checked={chosen.has(n.id)} disabled={!chosen.has(n.id) && full} onChange={() => toggle(n.id)} />
      <span>{n.title}</span>
    </label>
  );

  return (
    <div ref={root} className={styles.root} data-testid={testId}>
      <div className={`${styles.control} ${invalid ? styles.invalid : ''} ${disabled ? styles.disabled : ''}`}>
        {value.map((v) => {
          const node = byId.get(v);
          return (
            <span key={v} className={styles.chip}>
              {node?.title ?? `#${v}`}
              {!disabled ? (
                <button type="button" className={styles.chipRemove} onClick={() => toggle(v)} aria-label={`Убрать «${node?.title ?? v}»`}>
                  <CloseIcon />
                </button>
              ) : null}
            </span>
          );
        })}
        {!disabled ? (
          <button type="button" id={id} className={styles.add} onClick={() => setOpen((o) => !o)} aria-expanded={open} data-testid={testId ? `${testId}-open` : undefined}>
            {value.length === 0 ? placeholder : 'Изменить'}
          </button>
        ) : value.length === 0 ? (
          <span className={styles.empty}>Не выбрано</span>
        ) : null}
        <span className={styles.counter}>
          {value.length} / {max}
        </span>
      </div>
      {open ? (
        <div className={styles.popover} role="dialog" aria-label={placeholder}>
          <TextInput type="search" placeholder="Поиск" value={filter} onChange={(e) => setFilter(e.target.value)} autoFocus />
          <div className={styles.options}>
            {groups.map(({ parent, children }) => {
              if (children.length === 0) return matches(parent) ? option(parent, false) : null;
              const shown = children.filter((c) => matches(c) || matches(parent));
              if (shown.length === 0 && !matches(parent)) return null;
              return (
                <div key={parent.id} className={styles.group}>
                  {parentsSelectable ? option(parent, false) : <div className={styles.groupTitle}>{parent.title}</div>}
                  {shown.map((c) => option(c, true))}
                </div>
              );
            })}
          </div>
          {full ? <div className={styles.full}>Выбрано максимальное количество: {max}</div> : null}
        </div>
      ) : null}
    </div>
  );
}
