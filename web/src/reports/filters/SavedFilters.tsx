import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { Metric } from '@stat/schemas/catalogue';
import { SAVED_FILTER_TEXTS, SAVED_FILTER_TITLE_MAX, type SavedFilter, type SavedFilterBody, type SavedFilterType } from '@stat/schemas/filters';
import { useSnackbar } from '../../app/Snackbar';
import { ConfirmDialog, Modal } from '../../components/Modal';
import { Button, Checkbox } from '../../components/ui';
import { ApiError } from '../../lib/api';
import { REPORT_FAILED } from '../../data/messages';
import { createSavedFilter, deleteSavedFilter, listSavedFilters, updateSavedFilter } from './filtersApi';
import { usePopover } from '../../components/usePopover';
import { parseFilters, sameFilters, writeFilters, type ReportFilters } from './url';
import styles from './filters.module.css';

/** The delete modal opens after the menu closed (spec 001 §4: a 200 ms delay). */
const DELETE_MODAL_DELAY_MS = 200;

/** A template's filters as the URL would hold them, so that they compare with the current ones. */
export function templateFilters(body: SavedFilterBody, metrics: readonly Metric[]): ReportFilters {
  return parseFilters(writeFilters(new URLSearchParams(), { dimension: body.dimension_filters ?? [], metric: body.metric_filters ?? [] }), metrics).filters;
}

/** What a template keeps of the current filters. */
function bodyOf(filters: ReportFilters): SavedFilterBody {
  return {
    ...(filters.dimension.length > 0 ? { dimension_filters: [...filters.dimension] } : {}),
    ...(filters.metric.length > 0 ? { metric_filters: [...filters.metric] } : {}),
  };
}

/** What is wrong with a title among the other templates' titles (§5), or null. (Its length the input's maxLength keeps.) */
export function titleError(title: string, others: readonly SavedFilter[]): string | null {
  const trimmed = title.trim();
  if (trimmed === '') return SAVED_FILTER_TEXTS.titleRequired;
  if (others.some((f) => f.title === trimmed)) return SAVED_FILTER_TEXTS.titleTaken;
  return null;
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

interface TemplateFormProps {
  readonly editing: SavedFilter | null;
  readonly others: readonly SavedFilter[];
  readonly onSubmit: (title: string, type: SavedFilterType) => Promise<void>;
  readonly onCancel: () => void;
}

/**
 * «Сохранение шаблона» / «Редактирование шаблона»: the title (required, unique, at most 255,
 * with «Осталось символов: N»; checked on change, blur and submit) and «Публичный шаблон».
 */
function TemplateForm({ editing, others, onSubmit, onCancel }: TemplateFormProps) {
  const [title, setTitle] = useState(editing?.title ?? '');
  const [shared, setShared] = useState(editing?.type === 'shared');
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const error = touched ? (serverError ?? titleError(title, others)) : null;
  const left = SAVED_FILTER_TITLE_MAX - [...title].length;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    setTouched(true);
    if (titleError(title, others) !== null) return;
    setBusy(true);
    try {
      await onSubmit(title.trim(), shared ? 'shared' : 'private');
    } catch (failure) {
      setServerError(failure instanceof ApiError ? (failure.fields.title?.[0] ?? failure.message) : REPORT_FAILED);
      setBusy(false);
    }
  };

  return (
    <Modal
      title={editing ? 'Редактирование шаблона' : 'Сохранение шаблона'}
      onClose={onCancel}
      width={460}
      data-testid="template-form"
      footer={
        <>
          <Button onClick={onCancel} disabled={busy}>
            Отменить
          </Button>
          <Button variant="primary" onClick={() => void submit()} busy={busy} data-testid="template-submit">
            Сохранить
          </Button>
        </>
      }
    >
      <form className={styles.templateForm} onSubmit={(e) => void submit(e)} noValidate>
        <label className={styles.templateField}>
          <span>Название</span>
          <input
            value={title}
            maxLength={SAVED_FILTER_TITLE_MAX}
            aria-invalid={error !== null}
            onChange={(e) => {
              setTitle(e.target.value);
              setServerError(null);
              setTouched(true);
            }}
            onBlur={() => setTouched(true)}
            data-testid="template-title"
          />
        </label>
        <div className={styles.templateMeta}>
          {error ? (
            <span className={styles.fieldError} role="alert">
              {error}
            </span>
          ) : (
            <span />
          )}
          <span className={styles.counter}>Осталось символов: {left}</span>
        </div>
        <Checkbox checked={shared} onChange={setShared} data-testid="template-shared">
          Публичный шаблон
        </Checkbox>
      </form>
    </Modal>
  );
}
