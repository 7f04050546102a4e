import { useCallback, useEffect, useRef, useState, type UIEvent } from 'react';
import { FILTER_LIMITS, type FilterOption } from '@stat/schemas/filters';
import { formatInteger } from '../../lib/format';
import { isAbortError } from '../../lib/api';
import { fetchFilterValues } from './filtersApi';
import type { ChosenValue } from './form';
import { rememberTitle } from './useReportFilters';
import styles from './filters.module.css';

/** Search inputs send after this pause in typing (spec 001 §5). */
const SEARCH_DELAY_MS = 600;
/** Infinite scroll asks for the next page at most this often (§4: 300 ms throttle). */
const SCROLL_THROTTLE_MS = 300;
/** How close to the list's end the next page is asked for. */
const NEAR_END_PX = 60;

/** Props of {@link ValueList}. */
export interface ValueListProps {
  readonly projectId: string;
  /** A dimension, or `events` for event names (with the class as parent). */
  readonly dimension: string;
  readonly parents?: readonly (string | number)[];
  readonly period: { readonly start: string; readonly end: string };
  readonly chosen: readonly ChosenValue[];
  /** One value (radio) or many (checkbox). */
  readonly single: boolean;
  readonly onChange: (chosen: ChosenValue[]) => void;
}

/**
 * The values of a dimension that the period has, by visits, 50 a page: searched (after a pause),
 * loaded further when scrolled near the end, never asked again once all are loaded (§4).
 */
export function ValueList({ projectId, dimension, parents, period, chosen, single, onChange }: ValueListProps) {
  const parentsKey = JSON.stringify(parents ?? []);
  // Titles are remembered under the dimension the rules name.
  const titleKey = dimension === 'events' ? 'event_name' : dimension;
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [options, setOptions] = useState<FilterOption[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const lastScroll = useRef(0);
  const live = useRef<AbortController | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setQuery(search.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const load = useCallback(
    (offset: number) => {
      live.current?.abort();
      const controller = new AbortController();
      live.current = controller;
      setLoading(true);
      setFailed(false);
      const above = JSON.parse(parentsKey) as (string | number)[];
      const body = { date_start: period.start, date_end: period.end, offset, ...(query ? { search: query } : {}), ...(above.length > 0 ? { parents: above } : {}) };
      fetchFilterValues(projectId, dimension, body, { signal: controller.signal }).then(
        (page) => {
          for (const o of page.data) rememberTitle(titleKey, o.value, o.title);
          setOptions((prev) => (offset === 0 ? [...page.data] : [...prev, ...page.data]));
          setTotal(page.meta.total);
          setLoading(false);
        },
        (error: unknown) => {
          if (isAbortError(error)) return;
          setFailed(true);
          setLoading(false);
        },
      );
    },
    [projectId, dimension, parentsKey, titleKey, period.start, period.end, query],
  );

  useEffect(() => {
    load(0);
    return () => live.current?.abort();
  }, [load]);

  const onScroll = (e: UIEvent<HTMLUListElement>) => {
    const list = e.currentTarget;
    if (loading || total === null || options.length >= total) return;
    if (list.scrollHeight - list.scrollTop - list.clientHeight > NEAR_END_PX) return;
    const now = Date.now();
    if (now - lastScroll.current < SCROLL_THROTTLE_MS) return;
    lastScroll.current = now;
    load(options.length);
  };

  const isChosen = (value: string | number) => chosen.some((c) => String(c.value) === String(value));
  const full = !single && chosen.length >= FILTER_LIMITS.values;
  const toggle = (o: FilterOption) => {
    if (single) return onChange([{ value: o.value, title: o.title }]);
    if (isChosen(o.value)) return onChange(chosen.filter((c) => String(c.value) !== String(o.value)));
    return onChange([...chosen, { value: o.value, title: o.title }]);
  };

  return (
    <div className={styles.values}>
      <input
        className={styles.valueSearch}
        type="search"
        placeholder="Поиск"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        aria-label="Поиск значения"
        data-testid="value-search"
      />
      <ul className={styles.valueList} onScroll={onScroll} data-testid="value-list" data-total={total ?? ''}>
        {options.map((o) => {
          const checked = isChosen(o.value);
          const disabled = full && !checked;
          return (
            <li key={String(o.value)}>
              <label className={styles.valueRow} title={disabled ? `Можно выбрать не больше ${FILTER_LIMITS.values}` : undefined}>
                <input
                  type={single ? 'radio' : 'checkbox'}
                  checked={checked}
                  disabled={disabled}
                  onChange={() => toggle(o)}
                  data-testid="value-option"
                  data-value={String(o.value)}
                />
                <span className={styles.valueTitle}>{o.title || 'Название не задано'}</span>
                <span className={styles.valueVisits}>{formatInteger(o.visits)}</span>
              </label>
            </li>
          );
        })}
        {loading ? <li className={styles.valueNote}>Загрузка…</li> : null}
        {!loading && failed ? <li className={styles.valueNote}>Произошла ошибка при запросе на сервер</li> : null}
        {!loading && !failed && total === 0 ? <li className={styles.valueNote}>{query ? 'По вашему запросу ничего не найдено' : 'Нет данных для отображения'}</li> : null}
      </ul>
    </div>
  );
}
