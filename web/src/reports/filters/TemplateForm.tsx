/**
 * The saved filter template's form (spec 001 §4 "Filters and saved filters"), apart from the
 * dropdown: loaded when a user first saves or edits a template, so that a report page's code
 * carries no modal that its first drawing does not show.
 */
import { useState, type FormEvent } from 'react';
import { SAVED_FILTER_TEXTS, SAVED_FILTER_TITLE_MAX, sameTemplateTitle, type SavedFilter, type SavedFilterType } from '@stat/schemas/filters';
import { Modal } from '../../components/Modal';
import { Button, Checkbox } from '../../components/ui';
import { ApiError } from '../../lib/api';
import { REPORT_FAILED } from '../../data/messages';
import styles from './filters.module.css';

/** What is wrong with a title among the other templates' titles (§5), or null. (Its length the input's maxLength keeps.) */
export function titleError(title: string, others: readonly SavedFilter[]): string | null {
  const trimmed = title.trim();
  if (trimmed === '') return SAVED_FILTER_TEXTS.titleRequired;
  if (others.some((f) => sameTemplateTitle(f.title, trimmed))) return SAVED_FILTER_TEXTS.titleTaken;
  return null;
}

/** Props of {@link TemplateForm}. */
export interface TemplateFormProps {
  readonly editing: SavedFilter | null;
  readonly others: readonly SavedFilter[];
  readonly onSubmit: (title: string, type: SavedFilterType) => Promise<void>;
  readonly onCancel: () => void;
}

/**
 * «Сохранение шаблона» / «Редактирование шаблона»: the title (required, unique, at most 255,
 * with «Осталось символов: N»; checked on change, blur and submit) and «Публичный шаблон».
 */
export default function TemplateForm({ editing, others, onSubmit, onCancel }: TemplateFormProps) {
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
