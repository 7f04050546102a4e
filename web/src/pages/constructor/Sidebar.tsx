import { useEffect, useState, type DragEvent } from 'react';
import { METRIC_INFO } from '@stat/schemas/catalogue';
import {
  CONSTRUCTOR_DIMENSION_GROUPS,
  CONSTRUCTOR_DIMENSIONS,
  CONSTRUCTOR_LIMITS,
  CONSTRUCTOR_MAX_DIMENSIONS,
  CONSTRUCTOR_METRICS,
  CONSTRUCTOR_TEXTS,
  dimensionConstructorTitle,
  type ConstructorMetric,
} from '@stat/schemas/reports';
import { CloseIcon, TextInput } from '../../components/ui';
import { chooseItem, metricOffered, moveItem, parseStartRow, toGraph, type Selection } from './query';
import styles from './Sidebar.module.css';

const itemTitle = (kind: 'metric' | 'dimension', name: string): string =>
  kind === 'metric' ? (METRIC_INFO[name as keyof typeof METRIC_INFO]?.title ?? name) : dimensionConstructorTitle(name);

/** Props of {@link Sidebar}. */
export interface SidebarProps {
  /** What is chosen now (not yet applied: the page applies it after its delay). */
  readonly selection: Selection;
  readonly onSelection: (selection: Selection) => void;
  /** Table rows: the first row's index (0-based) and the page size. */
  readonly offset: number;
  readonly limit: number;
  readonly onOffset: (offset: number) => void;
  readonly onLimit: (limit: number) => void;
}

/**
 * «Настройки» of the constructor (spec 001 §4): «Таблица» / «Графики», the chosen «Столбцы»
 * (metrics) and «Строки» (dimensions), reorderable by drag, each with clear-all; the searchable
 * checkbox tree; in the table «Начальная строка» and «Количество строк».
 */
export function Sidebar({ selection, onSelection, offset, limit, onOffset, onLimit }: SidebarProps) {
  const [search, setSearch] = useState('');
  const [startRow, setStartRow] = useState(String(offset + 1));
  useEffect(() => setStartRow(String(offset + 1)), [offset]);
  const startRowValid = parseStartRow(startRow) !== null;
  const graph = selection.viewType === 'graph';
  const needle = search.trim().toLowerCase();
  const matches = (kind: 'metric' | 'dimension', name: string) => !needle || itemTitle(kind, name).toLowerCase().includes(needle);
  const fullRows = !graph && selection.dimensions.length >= CONSTRUCTOR_MAX_DIMENSIONS;

  const toggle = (kind: 'metric' | 'dimension', name: string, checked: boolean) => onSelection(chooseItem(selection, kind, name, checked));
  const checkbox = (kind: 'metric' | 'dimension', name: string) => {
    const chosen = kind === 'metric' ? (selection.metrics as readonly string[]).includes(name) : (selection.dimensions as readonly string[]).includes(name);
    return (
      <label key={`${kind}:${name}`} className={styles.option}>
        <input
          type={graph ? 'radio' : 'checkbox'}
          name={graph ? `constructor-${kind}` : undefined}
          checked={chosen}
          disabled={!chosen && (kind === 'dimension' ? fullRows : !metricOffered(name as ConstructorMetric, selection))}
          title={!chosen && kind === 'metric' && !metricOffered(name as ConstructorMetric, selection) ? 'Не считается для строк страниц и событий' : undefined}
          onChange={(e) => toggle(kind, name, graph ? true : e.target.checked)}
          data-testid={`constructor-item-${name}`}
        />
        <span>{itemTitle(kind, name)}</span>
      </label>
    );
  };
  const metricOptions = CONSTRUCTOR_METRICS.filter((m) => matches('metric', m));
  const groups = CONSTRUCTOR_DIMENSION_GROUPS.map((g) => ({ ...g, shown: g.dimensions.filter((d) => CONSTRUCTOR_DIMENSIONS.includes(d) && (matches('dimension', d) || g.title.toLowerCase().includes(needle))) })).filter(
    (g) => g.shown.length > 0,
  );

  return (
    <aside className={styles.sidebar} aria-label="Настройки" data-testid="constructor-sidebar">
      <h2 className={styles.heading}>Настройки</h2>
      <div className={styles.tabs} role="tablist">
        {(['table', 'graph'] as const).map((view) => (
          <button
            key={view}
            type="button"
            role="tab"
            aria-selected={selection.viewType === view}
            className={selection.viewType === view ? `${styles.tab} ${styles.tabActive}` : styles.tab}
            onClick={() => onSelection(view === 'graph' ? toGraph(selection) : { ...selection, viewType: 'table' })}
            data-testid={`constructor-view-${view}`}
          >
            {view === 'table' ? 'Таблица' : 'Графики'}
          </button>
        ))}
      </div>
      <ChosenList
        title="Столбцы"
        kind="metric"
        items={selection.metrics}
        onItems={(metrics) => onSelection({ ...selection, metrics: metrics as Selection['metrics'] })}
      />
      <ChosenList
        title="Строки"
        kind="dimension"
        items={selection.dimensions}
        onItems={(dimensions) => onSelection({ ...selection, dimensions: dimensions as Selection['dimensions'] })}
      />
      <p className={styles.hint}>{CONSTRUCTOR_TEXTS.tenParameters}</p>
      <TextInput type="search" className={styles.search} placeholder="Поиск показателей и параметров" value={search} onChange={(e) => setSearch(e.target.value)} data-testid="constructor-search" />
      <div className={styles.tree}>
        {metricOptions.length > 0 ? (
          <div className={styles.group}>
            <div className={styles.groupTitle}>Показатели</div>
            {metricOptions.map((m) => checkbox('metric', m))}
          </div>
        ) : null}
        {groups.map((g) => (
          <div key={g.title} className={styles.group}>
            <div className={styles.groupTitle}>{g.title}</div>
            {g.shown.map((d) => checkbox('dimension', d))}
          </div>
        ))}
        {metricOptions.length === 0 && groups.length === 0 ? <p className={styles.empty}>По вашему запросу ничего не найдено</p> : null}
      </div>
      {graph ? null : (
        <div className={styles.rows}>
          <label className={styles.rowField}>
            <span>Начальная строка</span>
            <TextInput
              inputMode="numeric"
              value={startRow}
              invalid={!startRowValid}
              onChange={(e) => {
                // Digits only (§5); applied by the page after its delay.
                const text = e.target.value.replace(/\D/g, '');
                setStartRow(text);
                const next = parseStartRow(text);
                if (next !== null) onOffset(next);
              }}
              data-testid="constructor-start-row"
            />
          </label>
          <label className={styles.rowField}>
            <span>Количество строк</span>
            <select className={styles.select} value={limit} onChange={(e) => onLimit(Number(e.target.value))} data-testid="constructor-limit">
              {CONSTRUCTOR_LIMITS.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
    </aside>
  );
}

/** A list of chosen items, reorderable by drag, each removable, with clear-all; «Не выбрано» when empty. */
function ChosenList({ title, kind, items, onItems }: { readonly title: string; readonly kind: 'metric' | 'dimension'; readonly items: readonly string[]; readonly onItems: (items: string[]) => void }) {
  const [dragged, setDragged] = useState<number | null>(null);
  const drop = (event: DragEvent, to: number) => {
    event.preventDefault();
    if (dragged !== null && dragged !== to) onItems(moveItem(items, dragged, to));
    setDragged(null);
  };
  return (
    <section className={styles.chosen} data-testid={`constructor-${kind === 'metric' ? 'columns' : 'rows'}`}>
      <div className={styles.chosenHead}>
        <h3 className={styles.chosenTitle}>{title}</h3>
        {items.length > 0 ? (
          <button type="button" className={styles.clear} onClick={() => onItems([])}>
            Очистить
          </button>
        ) : null}
      </div>
      {items.length === 0 ? (
        <p className={styles.empty}>{CONSTRUCTOR_TEXTS.nothingChosen}</p>
      ) : (
        <ol className={styles.items}>
          {items.map((name, i) => (
            <li
              key={name}
              draggable
              onDragStart={() => setDragged(i)}
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => drop(e, i)}
              onDragEnd={() => setDragged(null)}
              className={dragged === i ? `${styles.item} ${styles.dragging}` : styles.item}
              data-testid={`constructor-chosen-${name}`}
            >
              <span className={styles.handle} aria-hidden="true">
                ⋮⋮
              </span>
              <span className={styles.itemTitle}>{itemTitle(kind, name)}</span>
              <button type="button" className={styles.remove} onClick={() => onItems(items.filter((v) => v !== name))} aria-label={`Убрать «${itemTitle(kind, name)}»`}>
                <CloseIcon />
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
