import { lazy, Suspense, useContext, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Metric } from '@stat/schemas/catalogue';
import { DEMO_PROJECT_ID, ProjectContext } from '../../app/project';
import { useOptionalSession } from '../../app/session';
import { dimensionChips, metricChips, withoutChip, type Chip } from './chips';
import { apiToForm, formToApi } from './form';
import { SavedFilters } from './SavedFilters';
import { useValueTitles, type ReportFiltersState } from './useReportFilters';
import styles from './filters.module.css';

/**
 * The filter dialog: its code (the sections, the value lists) loads when it first opens, or when
 * the pointer or focus comes to «Фильтры» just before; a report's first drawing shows none of it.
 */
const loadFilterDialog = () => import('./FilterDialog');
const FilterDialog = lazy(() => loadFilterDialog().then((module) => ({ default: module.FilterDialog })));
/** Starts loading the dialog's code; a failure shows when it opens (lazy asks again). */
const prefetchFilterDialog = () => {
  loadFilterDialog().catch(() => undefined);
};

/** Chips taller than this are folded under «Показать ещё» (spec 001 §4). */
const CHIPS_FOLDED_PX = 40;

/** Props of {@link FilterBar}. */
export interface FilterBarProps {
  readonly projectId: string;
  /** The report's metrics: metric filters of other metrics are dropped. */
  readonly metrics: readonly Metric[];
  /** The period whose values the dialog lists. */
  readonly period: { readonly start: string; readonly end: string };
  readonly state: ReportFiltersState;
}

/**
 * Who gets filters and saved filters (spec 001 §6): filters a logged-in user, one who may edit
 * the project, and everyone on the demo project; saved filters a logged-in user, on the demo
 * project only one who may edit it.
 */
function useFilterAccess(projectId: string): { filters: boolean; saved: boolean } {
  const session = useOptionalSession();
  const project = useContext(ProjectContext);
  const loggedIn = session?.user != null;
  const canEdit = project?.project.permissions.can_edit_project ?? false;
  const demo = projectId === String(DEMO_PROJECT_ID);
  return { filters: loggedIn || canEdit || demo, saved: loggedIn && (!demo || canEdit) };
}

/**
 * The filter row under the toolbar: «Фильтры» (the dialog), the saved filter templates, and the
 * chips of the current filters with «Сбросить», folded to one line with «Показать ещё».
 */
export function FilterBar({ projectId, metrics, period, state }: FilterBarProps) {
  const access = useFilterAccess(projectId);
  const { filters, apply } = state;
  const titleOf = useValueTitles(filters.dimension);
  const blocks = useMemo(() => apiToForm(filters.dimension, titleOf), [filters.dimension, titleOf]);
  const chips = useMemo(() => [...dimensionChips(blocks), ...metricChips(filters.metric)], [blocks, filters.metric]);
  const [open, setOpen] = useState(false);

  if (!access.filters) return null;
  const removeChip = (chip: Chip) => {
    if (chip.id.startsWith('m:')) {
      const index = Number(chip.id.slice(2));
      apply({ dimension: filters.dimension, metric: filters.metric.filter((_, i) => i !== index) });
    } else {
      apply({ dimension: formToApi(withoutChip(blocks, chip.id)), metric: filters.metric });
    }
  };

  return (
    <div className={styles.bar} data-testid="filter-bar">
      <div className={styles.barRow}>
        <button
          type="button"
          className={styles.filtersButton}
          onClick={() => setOpen(true)}
          onPointerEnter={prefetchFilterDialog}
          onFocus={prefetchFilterDialog}
          aria-haspopup="dialog"
          data-testid="filters-button"
        >
          <FunnelIcon />
          Фильтры
        </button>
        {access.saved ? <SavedFilters projectId={projectId} metrics={metrics} filters={filters} apply={apply} /> : null}
      </div>
      {chips.length > 0 ? <Chips chips={chips} onRemove={removeChip} onReset={() => apply({ dimension: [], metric: [] })} /> : null}
      {open ? (
        <Suspense fallback={null}>
          <FilterDialog
            projectId={projectId}
            period={period}
            initial={blocks}
            metrics={metrics}
            initialMetrics={filters.metric}
            onCancel={() => setOpen(false)}
            onApply={(next, metricRules) => {
              setOpen(false);
              apply({ dimension: formToApi(next), metric: metricRules });
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

function Chips({ chips, onRemove, onReset }: { readonly chips: readonly Chip[]; readonly onRemove: (chip: Chip) => void; readonly onReset: () => void }) {
  const box = useRef<HTMLUListElement>(null);
  const [overflows, setOverflows] = useState(false);
  const [expanded, setExpanded] = useState(false);
  useLayoutEffect(() => {
    const measure = () => setOverflows((box.current?.scrollHeight ?? 0) > CHIPS_FOLDED_PX);
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [chips]);
  return (
    <div className={styles.chipsRow}>
      <ul ref={box} className={expanded ? styles.chips : `${styles.chips} ${styles.chipsFolded}`} data-testid="filter-chips">
        {chips.map((chip) => (
          <li key={chip.id} className={chip.negative ? `${styles.chip} ${styles.chipNegative}` : styles.chip} data-testid="filter-chip" data-negative={chip.negative}>
            <span className={styles.chipText}>
              <span className={styles.chipLabel}>{chip.label}:</span> {chip.text}
            </span>
            <button type="button" className={styles.chipRemove} onClick={() => onRemove(chip)} aria-label={`Убрать фильтр ${chip.label}`} data-testid="filter-chip-remove">
              ×
            </button>
          </li>
        ))}
      </ul>
      <div className={styles.chipsTools}>
        {overflows ? (
          <button type="button" className={styles.link} onClick={() => setExpanded((v) => !v)} data-testid="chips-more">
            {expanded ? 'Свернуть' : 'Показать ещё'}
          </button>
        ) : null}
        <button type="button" className={styles.link} onClick={onReset} data-testid="filters-reset">
          Сбросить
        </button>
      </div>
    </div>
  );
}

function FunnelIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <path d="M2 3h12l-4.5 5.2V13l-3 1.2V8.2z" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" />
    </svg>
  );
}
