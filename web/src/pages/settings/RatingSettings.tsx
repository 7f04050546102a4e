import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useProject } from '../../app/project';
import { useSnackbar } from '../../app/Snackbar';
import { TreeSelect } from '../../components/TreeSelect';
import { Badge, Button, Field, Notice, Panel, RadioGroup, Spinner, Switch, TextArea, TextField } from '../../components/ui';
import { calls } from '../../data/calls';
import { LISTED_STATUSES, ratingFormRules, statusText } from '../../data/rating';
import { LIMITS } from '../../data/validation';
import { ApiError } from '../../lib/api';
import { formatNumber } from '../../lib/format';
import { useRequest } from '../../lib/hooks';
import { SAVE_FAILED } from '../../data/messages';
import { ratingFormOf, ratingPayload, validateRatingForm, type RatingField, type RatingFormValues } from './ratingForm';
import styles from './Settings.module.css';
import { ProjectPageTitle } from '../../app/ProjectPageTitle';

/** The title hint of the rating form (spec 000 §2.7). */
const RATED_TITLE_MAX_HINT = `Для сайтов в рейтинге название — не длиннее ${LIMITS.ratedTitleMax} символов`;

/**
 * Rating participation (`settings/rating`, spec 000 §2.7, §4): the status with its hint, the
 * participation switch, title, keywords, public statistics, themes, regions and types.
 */
export default function RatingSettings() {
  const { project, setProject } = useProject();
  const snackbar = useSnackbar();
  const config = useRequest('rating-config', (signal) => calls.ratingConfig({ signal }));
  const savedKey = JSON.stringify(ratingFormOf(project));
  const saved = useMemo(() => JSON.parse(savedKey) as RatingFormValues, [savedKey]);
  const [form, setForm] = useState<RatingFormValues>(saved);
  const [tried, setTried] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<RatingField, string>>>({});
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const status = statusText(project.status);
  const rules = ratingFormRules(project.status, form.in_rating, project.can_be_in_rate);
  const dirty = JSON.stringify(form) !== JSON.stringify(saved);

  useEffect(() => setForm(saved), [saved]);
  useEffect(() => {
    if (tried) setErrors(validateRatingForm(form));
  }, [form, tried]);

  const set = <K extends keyof RatingFormValues>(key: K, value: RatingFormValues[K]) => setForm((f) => ({ ...f, [key]: value }));

  const save = async () => {
    setTried(true);
    setFailure(null);
    const found = validateRatingForm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      const updated = await calls.updateProject(project.id, ratingPayload(form));
      setProject(updated);
      setTried(false);
      snackbar('Изменения сохранены');
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        const fields = error.fields;
        const server: Partial<Record<RatingField, string>> = {};
        for (const key of ['title', 'keywords', 'public_stats', 'categories', 'regions', 'types'] as const) {
          const text = fields[key]?.[0];
          if (text) server[key] = text;
        }
        setErrors(server);
        setFailure(Object.keys(server).length > 0 ? 'Проверьте поля формы' : error.message);
      } else {
        setFailure(SAVE_FAILED);
      }
    } finally {
      setSaving(false);
    }
  };

  const fieldsDisabled = !rules.editable;
  return (
    <div className={styles.page} data-testid="rating-settings">
      <ProjectPageTitle title="Рейтинг" />
      <Panel>
        <div className={styles.statusRow}>
          <div className={styles.statusText}>
            <div className={styles.statusTitle}>
              Статус:{' '}
              <span data-testid="rating-status" data-status={project.status}>
                <Badge tone={status.tone}>{status.label}</Badge>
              </span>
            </div>
            <div className={styles.statusHint} data-testid="rating-hint">
              {status.hint}
            </div>
            {LISTED_STATUSES.has(project.status) && project.categories.length > 0 ? (
              <ul className={styles.positions} data-testid="rating-positions">
                {project.categories.map((c) => (
                  <li key={c.id}>
                    {c.parent_title ? `${c.parent_title} / ` : ''}
                    {c.title}: <b>{c.position === null ? 'место появится после ближайшего пересчета' : `${formatNumber(c.position)} место`}</b>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        </div>
        {!project.can_be_in_rate ? <Notice tone="warning">Этот сайт не может участвовать в рейтинге.</Notice> : null}
        {project.rating_blockers.ununique ? <Notice tone="warning">Есть другие счётчики с таким же адресом сайта: в рейтинге сайт может участвовать только с одним счётчиком.</Notice> : null}
        {project.status === 'deleted' ? (
          <Notice tone="danger">
            Счётчик удален. <Link to="/stat/projects/deleted">Восстановите сайт из списка удаленных</Link>, чтобы участвовать в рейтинге.
          </Notice>
        ) : null}
      </Panel>

      <Panel title="Участие в рейтинге" description="Сайты рейтинга показываются в открытом каталоге по темам; место в теме зависит от посещаемости.">
        <div className={styles.stack}>
          <Switch checked={form.in_rating} onChange={(v) => set('in_rating', v)} disabled={!rules.switchEnabled} data-testid="rating-switch">
            Участвовать в рейтинге
          </Switch>
          {form.in_rating ? (
            config.loading && !config.data ? (
              <div className={styles.muted}>
                <Spinner size={16} /> Загружаем темы и регионы…
              </div>
            ) : (
              <div className={styles.grid}>
                <TextField
                  label="Название сайта в рейтинге"
                  value={form.title}
                  maxLength={LIMITS.titleMax}
                  onChange={(e) => set('title', e.target.value)}
                  disabled={fieldsDisabled}
                  error={errors.title}
                  hint={RATED_TITLE_MAX_HINT}
                  aside={`${form.title.length} / ${LIMITS.ratedTitleMax}`}
                  data-testid="rating-title"
                />
                <Field label="Статистика сайта" error={errors.public_stats}>
                  <RadioGroup
                    name="public_stats"
                    value={form.public_stats === null ? null : form.public_stats ? 'open' : 'closed'}
                    onChange={(v) => set('public_stats', v === 'open')}
                    disabled={fieldsDisabled}
                    options={[
                      { value: 'open', label: 'Открытая', description: 'Посещаемость видна в каталоге' },
                      { value: 'closed', label: 'Закрытая', description: 'В каталоге видно только место' },
                    ]}
                  />
                </Field>
                <Field label="Ключевые слова" error={errors.keywords} hint="Через запятую, от 3 до 500 символов" aside={`${form.keywords.length} / ${LIMITS.keywordsMax}`} className={styles.full}>
                  <TextArea
                    value={form.keywords}
                    maxLength={LIMITS.keywordsMax + 50}
                    rows={3}
                    disabled={fieldsDisabled}
                    invalid={Boolean(errors.keywords)}
                    onChange={(e) => set('keywords', e.target.value)}
                    placeholder="новости, спорт, погода"
                    data-testid="rating-keywords"
                  />
                </Field>
                <Field label="Темы" error={errors.categories} hint={`От 1 до ${LIMITS.themes}`} className={styles.full}>
                  <TreeSelect
                    nodes={config.data?.categories ?? []}
                    value={form.categories}
                    onChange={(ids) => set('categories', ids)}
                    max={LIMITS.themes}
                    disabled={fieldsDisabled}
                    invalid={Boolean(errors.categories)}
                    placeholder="Выбрать темы"
                    data-testid="rating-categories"
                  />
                </Field>
                <Field label="Регионы" error={errors.regions} hint={`Не более ${LIMITS.regions}`}>
                  <TreeSelect
                    nodes={config.data?.regions ?? []}
                    value={form.regions}
                    onChange={(ids) => set('regions', ids)}
                    max={LIMITS.regions}
                    parentsSelectable
                    disabled={fieldsDisabled}
                    invalid={Boolean(errors.regions)}
                    placeholder="Выбрать регионы"
                    data-testid="rating-regions"
                  />
                </Field>
                <Field label="Типы сайта" error={errors.types} hint={`Не более ${LIMITS.types}`}>
                  <TreeSelect
                    nodes={config.data?.types ?? []}
                    value={form.types}
                    onChange={(ids) => set('types', ids)}
                    max={LIMITS.types}
                    disabled={fieldsDisabled}
                    invalid={Boolean(errors.types)}
                    placeholder="Выбрать типы"
                    data-testid="rating-types"
                  />
                </Field>
              </div>
            )
          ) : (
            <p className={styles.muted}>Включите участие, чтобы заполнить заявку: название, темы, ключевые слова и регионы сайта.</p>
          )}
        </div>
      </Panel>

      {rules.saveVisible ? (
        <div className={styles.footerBar}>
          <Button variant="primary" onClick={() => void save()} busy={saving} disabled={!dirty} data-testid="save-rating">
            {form.in_rating ? 'Сохранить и отправить на модерацию' : 'Сохранить'}
          </Button>
          <Button variant="ghost" onClick={() => { setForm(saved); setTried(false); setErrors({}); setFailure(null); }} disabled={!dirty || saving}>
            Отменить изменения
          </Button>
          {failure ? (
            <span className={styles.error} role="alert" data-testid="save-failure">
              {failure}
            </span>
          ) : !form.in_rating && dirty ? (
            <span className={styles.footerNote}>Сайт выйдет из рейтинга, данные заявки будут очищены</span>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
