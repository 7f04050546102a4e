import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { Metric } from '@stat/schemas/catalogue';
import { SAVED_FILTER_TEXTS, type SavedFilter, type SavedFilterBody } from '@stat/schemas/filters';
import { useSnackbar } from '../../app/Snackbar';
import { ConfirmDialog } from '../../components/Modal';
import { Button } from '../../components/ui';
import { ApiError } from '../../lib/api';
import { REPORT_FAILED } from '../../data/messages';
import { createSavedFilter, deleteSavedFilter, listSavedFilters, updateSavedFilter } from './filtersApi';
import { usePopover } from '../../components/usePopover';
import { parseFilters, sameFilters, writeFilters, type ReportFilters } from './url';
import styles from './filters.module.css';

/** The delete modal opens after the menu closed (spec 001 §4: a 200 ms delay). */
const DELETE_MODAL_DELAY_MS = 200;

/** The template form: code loaded when it first opens (nothing of it shows on a report's first drawing). */
const TemplateForm = lazy(() => import('./TemplateForm'));

/** A template's filters as the URL would hold them, so that they compare with the current ones. */
function templateFilters(body: SavedFilterBody, metrics: readonly Metric[]): ReportFilters {
  return parseFilters(writeFilters(new URLSearchParams(), { dimension: body.dimension_filters ?? [], metric: body.metric_filters ?? [] }), metrics).filters;
}

/** What a template keeps of the current filters. */
function bodyOf(filters: ReportFilters): SavedFilterBody {
  return {
    ...(filters.dimension.length > 0 ? { dimension_filters: [...filters.dimension] } : {}),
    ...(filters.metric.length > 0 ? { metric_filters: [...filters.metric] } : {}),
  };
}

/** Props of {@link SavedFilters}. */
export interface SavedFiltersProps {
  readonly projectId: string;
  readonly metrics: readonly Metric[];
  readonly filters: ReportFilters;
  readonly apply: (filters: ReportFilters) => void;
}

type Dialog = { kind: 'create' } | { kind: 'edit'; filter: SavedFilter } | { kind: 'delete'; filter: SavedFilter } | null;

/**
 * The saved filter templates (spec 001 §4 "Filters and saved filters"): a dropdown of them
 * (choosing one applies its filters; «(изменён)» once the current filters differ), a save button
 * («Сохранить текущий» / «Сохранить как новый» when one is chosen), and per template
 * «Редактировать» / «Удалить», with the modals and snackbars of §4 and §8.
 */
export function SavedFilters({ projectId, metrics, filters, apply }: SavedFiltersProps) {
  const snackbar = useSnackbar();
  const [items, setItems] = useState<SavedFilter[]>([]);
  const [loading, setLoading] = useState(true);
  const [busy, setBusy] = useState(false);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const list = usePopover<HTMLDivElement>();
  const saveMenu = usePopover<HTMLDivElement>();

  const reload = useCallback(() => {
    setLoading(true);
    return listSavedFilters(projectId).then(
      ({ data }) => {
        setItems(data);
        setLoading(false);
      },
      () => setLoading(false),
    );
  }, [projectId]);
  useEffect(() => {
    void reload();
  }, [reload]);

  // A chosen template that vanished from the list is no longer chosen (§4).
  const selected = items.find((f) => f.id === selectedId) ?? null;
  const changed = selected !== null && !sameFilters(templateFilters(selected.body, metrics), filters);
  const hasFilters = filters.dimension.length > 0 || filters.metric.length > 0;

  const choose = (filter: SavedFilter) => {
    list.setOpen(false);
    setSelectedId(filter.id);
    apply(templateFilters(filter.body, metrics));
  };

  const saveCurrent = async () => {
    saveMenu.setOpen(false);
    if (!selected) return;
    setBusy(true);
    try {
      const saved = await updateSavedFilter(projectId, selected.id, { body: bodyOf(filters) });
      setItems((prev) => prev.map((f) => (f.id === saved.id ? saved : f)));
      snackbar(SAVED_FILTER_TEXTS.updated);
    } catch (error) {
      snackbar(error instanceof ApiError ? error.message : REPORT_FAILED);
      void reload();
    } finally {
      setBusy(false);
    }
  };

  const remove = async (filter: SavedFilter) => {
    setBusy(true);
    try {
      await deleteSavedFilter(projectId, filter.id);
      setItems((prev) => prev.filter((f) => f.id !== filter.id));
      setDialog(null);
      snackbar(SAVED_FILTER_TEXTS.deleted);
    } catch (error) {
      snackbar(error instanceof ApiError ? error.message : REPORT_FAILED);
      setDialog(null);
      void reload();
    } finally {
      setBusy(false);
    }
  };

  const label = selected ? `${selected.title}${changed ? ' (изменён)' : ''}` : 'Шаблоны фильтров';
  return (
    <>
      <div className={styles.popRoot} ref={list.root}>
        <button
          type="button"
          className={styles.templateButton}
          disabled={loading || items.length === 0}
          aria-expanded={list.open}
          aria-haspopup="menu"
          onClick={() => list.setOpen((v) => !v)}
          data-testid="saved-filters"
        >
          <span className={styles.templateLabel}>{label}</span>
          <span aria-hidden="true">▾</span>
        </button>
        {list.open ? (
          <ul className={styles.popover} role="menu" data-testid="saved-filters-menu">
            {items.map((f) => (
              <li key={f.id} className={styles.templateRow}>
                <button type="button" role="menuitem" className={f.id === selectedId ? `${styles.templateItem} ${styles.templateItemActive}` : styles.templateItem} onClick={() => choose(f)} data-testid="saved-filter" data-id={f.id}>
                  <span>{f.title}</span>
                  {f.type === 'shared' ? <span className={styles.shared}>публичный</span> : null}
                </button>
                {f.editable ? (
                  <TemplateActions
                    onEdit={() => {
                      list.setOpen(false);
                      setDialog({ kind: 'edit', filter: f });
                    }}
                    onDelete={() => {
                      list.setOpen(false);
                      setTimeout(() => setDialog({ kind: 'delete', filter: f }), DELETE_MODAL_DELAY_MS);
                    }}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className={styles.popRoot} ref={saveMenu.root}>
        <Button
          size="s"
          disabled={!hasFilters || loading || busy}
          onClick={() => (selected ? saveMenu.setOpen((v) => !v) : setDialog({ kind: 'create' }))}
          aria-haspopup={selected ? 'menu' : 'dialog'}
          data-testid="save-filter"
        >
          Сохранить
        </Button>
        {saveMenu.open ? (
          <ul className={styles.popover} role="menu">
            <li>
              <button type="button" role="menuitem" className={styles.templateItem} onClick={() => void saveCurrent()} data-testid="save-current">
                Сохранить текущий
              </button>
            </li>
            <li>
              <button
                type="button"
                role="menuitem"
                className={styles.templateItem}
                onClick={() => {
                  saveMenu.setOpen(false);
                  setDialog({ kind: 'create' });
                }}
                data-testid="save-as-new"
              >
                Сохранить как новый
              </button>
            </li>
          </ul>
        ) : null}
      </div>
      {dialog?.kind === 'create' || dialog?.kind === 'edit' ? (
        <Suspense fallback={null}>
          <TemplateForm
            editing={dialog.kind === 'edit' ? dialog.filter : null}
            others={items.filter((f) => dialog.kind !== 'edit' || f.id !== dialog.filter.id)}
            onCancel={() => setDialog(null)}
            onSubmit={async (title, type) => {
              if (dialog.kind === 'edit') {
                const saved = await updateSavedFilter(projectId, dialog.filter.id, { title, type });
                setItems((prev) => prev.map((f) => (f.id === saved.id ? saved : f)));
                snackbar(SAVED_FILTER_TEXTS.updated);
              } else {
                const saved = await createSavedFilter(projectId, { title, type, body: bodyOf(filters) });
                setItems((prev) => [...prev, saved]);
                // Create also selects the new filter (§4).
                setSelectedId(saved.id);
                snackbar(SAVED_FILTER_TEXTS.created);
              }
              setDialog(null);
            }}
          />
        </Suspense>
      ) : null}
      {dialog?.kind === 'delete' ? (
        <ConfirmDialog
          title="Удаление шаблона"
          confirmLabel="Удалить"
          cancelLabel="Отменить"
          danger
          busy={busy}
          onCancel={() => setDialog(null)}
          onConfirm={() => void remove(dialog.filter)}
        >
          <p>Шаблон «{dialog.filter.title}» будет удалён{dialog.filter.type === 'shared' ? ' у всех участников проекта' : ''}.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

function TemplateActions({ onEdit, onDelete }: { readonly onEdit: () => void; readonly onDelete: () => void }) {
  const menu = usePopover<HTMLDivElement>();
  return (
    <div className={styles.popRoot} ref={menu.root}>
      <button type="button" className={styles.more} aria-label="Действия с шаблоном" aria-expanded={menu.open} onClick={() => menu.setOpen((v) => !v)} data-testid="saved-filter-actions">
        ⋯
      </button>
      {menu.open ? (
        <ul className={`${styles.popover} ${styles.popoverRight}`} role="menu">
          <li>
            <button type="button" role="menuitem" className={styles.templateItem} onClick={onEdit} data-testid="saved-filter-edit">
              Редактировать
            </button>
          </li>
          <li>
            <button type="button" role="menuitem" className={`${styles.templateItem} ${styles.danger}`} onClick={onDelete} data-testid="saved-filter-delete">
              Удалить
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
