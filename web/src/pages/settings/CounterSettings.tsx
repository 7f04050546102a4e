import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { DEFAULT_COUNTER_SETTINGS } from '@stat/schemas/projects';
import { useNotifications } from '../../app/Notifications';
import { useProject } from '../../app/project';
import { useSnackbar } from '../../app/Snackbar';
import { ConfirmDialog } from '../../components/Modal';
import { Button, Field, Panel, RadioGroup, Switch, TextField, TextInput } from '../../components/ui';
import { calls } from '../../data/calls';
import { SAVE_FAILED } from '../../data/messages';
import { LIMITS } from '../../data/validation';
import { ApiError, statusOf } from '../../lib/api';
import { projectTitle } from '../../lib/format';
import { COUNTER_STATUS, type CounterCheck } from '@stat/schemas/site';
import { readStored, writeStored } from '../../lib/browser';
import { formatDateTime } from '../../lib/dates';
import { DELAYS } from '../../lib/hooks';
import { COUNTER_COLORS } from '../../lib/palette';
import { CounterCode, codeOptionsOf } from './CounterCode';
import { counterPayload, fieldErrorsOf, formFromProject, hasErrors, isRated, unsavedLabels, validateCounterForm, type CounterForm, type CounterFormErrors } from './counterForm';
import styles from './Settings.module.css';
import { ProjectPageTitle } from '../../app/ProjectPageTitle';

/** Where the counter page remembers that its notice of one kind was shown for a site. */
export const counterNoticeKey = (projectId: number, kind: 'set' | 'unset') => `counterNotice:${projectId}:${kind}`;

/** The rated-title hint (spec 000 §2.6). */
export const RATED_TITLE_HINT = 'Название сайта в рейтинге меняется через заявку на вкладке «Рейтинг»';

/**
 * Counter settings (`settings/counter`, spec 000 §2.6): status, code with options, every field of
 * counter_settings, and removal of the counter.
 */
export default function CounterSettings() {
  const { project, setProject, reload } = useProject();
  const snackbar = useSnackbar();
  const { notify, dismiss } = useNotifications();
  const navigate = useNavigate();
  // Only a change of what is stored resets the form (a reload that finds the same keeps edits).
  const savedKey = JSON.stringify(formFromProject(project));
  const saved = useMemo(() => JSON.parse(savedKey) as CounterForm, [savedKey]);
  const [form, setForm] = useState<CounterForm>(saved);
  const [errors, setErrors] = useState<CounterFormErrors>({});
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [check, setCheck] = useState<CounterCheck | 'failed' | null>(null);
  const [removing, setRemoving] = useState<'ask' | 'busy' | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const rated = isRated(project);
  const unsaved = unsavedLabels(form, saved);
  const dirty = unsaved.length > 0;

  useEffect(() => setForm(saved), [saved]);
  useEffect(() => {
    if (tried) setErrors(validateCounterForm(form, rated));
  }, [form, rated, tried]);

  // The notification of this page appears after 4000 ms (spec 000 §2.6, §9), once per site and
  // kind: «Установите счётчик» returning on every visit hid the header and taught nothing new.
  useEffect(() => {
    const kind = project.counter_is_set ? 'set' : 'unset';
    const key = counterNoticeKey(project.id, kind);
    if (readStored(key) !== null) return;
    notify({
      id: 'counter-settings',
      delayMs: DELAYS.counterNotification,
      title: kind === 'set' ? 'Настройки счётчика' : 'Установите счётчик',
      text: kind === 'set'
        ? 'Изменения настроек применяются к новым визитам. Если меняете параметры кода, обновите его на сайте.'
        : 'Скопируйте код и вставьте его на все страницы сайта: данные появятся в отчётах через несколько минут после первых визитов.',
      onShow: () => writeStored(key, '1'),
    });
    return () => dismiss('counter-settings');
  }, [notify, dismiss, project.id, project.counter_is_set]);

  useEffect(() => {
    if (window.location.hash === '#code') document.getElementById('code')?.scrollIntoView();
  }, []);

  // «Проверить» asks the api for the last hit and reloads the project, so the status follows.
  const runCheck = async () => {
    setChecking(true);
    try {
      const found = await calls.counterCheck(project.id);
      setCheck(found);
      if (found.seen !== project.counter_is_set) reload();
    } catch {
      setCheck('failed');
    } finally {
      setChecking(false);
    }
  };

  const set = <K extends keyof CounterForm>(key: K, value: CounterForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const save = async () => {
    setTried(true);
    setFailure(null);
    const found = validateCounterForm(form, rated);
    setErrors(found);
    if (hasErrors(found)) return;
    setSaving(true);
    try {
      const updated = await calls.updateProject(project.id, counterPayload(form, project));
      setProject(updated);
      setTried(false);
      snackbar('Изменения сохранены');
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        const server = fieldErrorsOf(error.fields);
        setErrors(server);
        setFailure(hasErrors(server) ? 'Проверьте поля формы' : error.message);
      } else {
        setFailure(SAVE_FAILED);
      }
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    setRemoving('busy');
    setRemoveError(null);
    try {
      await calls.deleteProject(project.id);
      snackbar('Счётчик удален');
      void navigate('/stat/projects');
    } catch (error) {
      setRemoving('ask');
      setRemoveError(statusOf(error) === 400 ? (error as Error).message : SAVE_FAILED);
    }
  };

  return (
    <div className={styles.page} data-testid="counter-settings">
      <ProjectPageTitle title="Настройки счётчика" />
      <Panel>
        <div className={styles.statusRow} data-testid="counter-status" data-set={project.counter_is_set}>
          <span className={`${styles.statusIcon} ${project.counter_is_set ? styles.statusOk : styles.statusNo}`} aria-hidden="true">
            {project.counter_is_set ? '✓' : '!'}
          </span>
          <div className={styles.statusText}>
            <div className={styles.statusTitle}>{project.counter_is_set ? COUNTER_STATUS.set : COUNTER_STATUS.unset}</div>
            <div className={styles.statusHint}>
              {project.counter_is_set
                ? 'Счётчик присылает данные: визиты видны в отчётах.'
                : 'Пока не пришло ни одного просмотра. Установите код на сайт и проверьте снова.'}
            </div>
          </div>
          <Button busy={checking} onClick={() => void runCheck()} data-testid="check-counter">
            Проверить
          </Button>
        </div>
        {check ? <CheckResult check={check} /> : null}
      </Panel>

      <Panel
        title="Код счётчика"
        description="Вставьте код на все страницы сайта, статистику которых нужно собирать. Код следует сохранённым настройкам: поменяли вид счётчика или сбор данных — сохраните и обновите код на сайте."
      >
        <CounterCode projectId={project.id} options={codeOptionsOf(project.counter_settings)} />
      </Panel>

      <Panel title="Основные настройки">
        <div className={styles.grid}>
          <TextField
            label="Название сайта"
            value={form.title}
            maxLength={LIMITS.titleMax}
            disabled={rated}
            onChange={(e) => set('title', e.target.value)}
            error={errors.title}
            hint={rated ? RATED_TITLE_HINT : undefined}
            aside={rated ? undefined : `${form.title.length} / ${LIMITS.titleMax}`}
            data-testid="settings-title"
          />
          <TextField
            label="Адрес сайта"
            value={project.url}
            readOnly
            hint={rated ? 'Чтобы изменить адрес сайта, участвующего в рейтинге, обратитесь в службу поддержки.' : 'Адрес сайта не меняется. Для другого адреса создайте новый счётчик.'}
          />
          <Field label="Вид счётчика" className={styles.full}>
            <RadioGroup
              name="counter_type"
              inline
              value={form.counter_type}
              onChange={(v) => set('counter_type', v)}
              options={[
                { value: 0, label: 'Невидимый', description: 'Счётчик не виден посетителям' },
                { value: 1, label: 'Виджет', description: 'Кнопка 88×31 с просмотрами за сегодня' },
              ]}
            />
          </Field>
          <Field label="Цвет счётчика и виджета" className={styles.full} hint={`Выбран ${form.color.toUpperCase()}`}>
            <div className={styles.widgetRow}>
              <div className={styles.colors} role="radiogroup" aria-label="Цвет">
                {COUNTER_COLORS.map((c) => (
                  <button
                    key={c}
                    type="button"
                    role="radio"
                    aria-checked={form.color.toUpperCase() === c}
                    aria-label={c}
                    title={c}
                    className={styles.swatch}
                    style={{ background: c }}
                    onClick={() => set('color', c)}
                  />
                ))}
              </div>
              <WidgetPreview color={form.color} />
            </div>
          </Field>
        </div>
      </Panel>

      <Panel title="Сбор данных">
        <div className={styles.stack}>
          <Switch checked={form.merge_subdomains} onChange={(v) => set('merge_subdomains', v)} description="Визиты на поддомены (shop.site.ru) считаются визитами на основной сайт">
            Объединять поддомены
          </Switch>
          <Switch checked={form.separate_www} onChange={(v) => set('separate_www', v)} description="По умолчанию www.site.ru и site.ru считаются одним сайтом">
            Считать www отдельным сайтом
          </Switch>
          <Switch checked={form.track_hashes} onChange={(v) => set('track_hashes', v)} description="Переходы по #адресам считаются просмотрами страниц">
            Учитывать хеш в адресе
          </Switch>
          <Switch checked={form.track_user_id} onChange={(v) => set('track_user_id', v)} description="Сайт передает свой ID пользователя, визиты связываются между устройствами">
            Передавать ID пользователя
          </Switch>
          <Switch checked={form.use_block_analytics} onChange={(v) => set('use_block_analytics', v)} description="Клики и показы элементов, отмеченных data-атрибутом">
            Аналитика блоков
          </Switch>
          {form.use_block_analytics ? (
            <div className={styles.sub}>
              <TextField
                label="Имя data-атрибута"
                value={form.block_analytics_attribute}
                maxLength={64}
                onChange={(e) => set('block_analytics_attribute', e.target.value)}
                error={errors.block_analytics_attribute}
                hint={`Элементы размечаются так: <div data-${form.block_analytics_attribute || DEFAULT_COUNTER_SETTINGS.block_analytics_attribute}="блок">`}
              />
            </div>
          ) : null}
        </div>
      </Panel>

      <Panel title="Фильтры адресов">
        <div className={styles.stack}>
          <Switch checked={form.use_whitelist} onChange={(v) => setForm((f) => ({ ...f, use_whitelist: v, whitelisted_urls: v && f.whitelisted_urls.length === 0 ? [''] : f.whitelisted_urls }))} description="Учитывать визиты только на страницы этих сайтов">
            Белый список адресов
          </Switch>
          {form.use_whitelist ? (
            <UrlList
              values={form.whitelisted_urls}
              onChange={(v) => set('whitelisted_urls', v)}
              errors={errors.whitelist ?? {}}
              listError={errors.whitelisted_urls}
              placeholder="https://example.ru"
              testId="whitelist"
            />
          ) : null}
          <Switch checked={form.use_blacklist} onChange={(v) => setForm((f) => ({ ...f, use_blacklist: v, blacklisted_urls: v && f.blacklisted_urls.length === 0 ? [''] : f.blacklisted_urls }))} description="Не учитывать визиты с этих доменов">
            Черный список доменов
          </Switch>
          {form.use_blacklist ? (
            <UrlList
              values={form.blacklisted_urls}
              onChange={(v) => set('blacklisted_urls', v)}
              errors={errors.blacklist ?? {}}
              listError={errors.blacklisted_urls}
              placeholder="spam.example"
              testId="blacklist"
            />
          ) : null}
        </div>
      </Panel>

      {/* Sticky while something is unsaved: then «Сохранить» stays in reach from the first field to the last. */}
      <div className={dirty || failure ? `${styles.footerBar} ${styles.footerBarSticky}` : styles.footerBar} data-testid="save-bar">
        <Button variant="primary" onClick={() => void save()} busy={saving} disabled={!dirty} data-testid="save-counter">
          Сохранить
        </Button>
        <Button variant="ghost" onClick={() => { setForm(saved); setTried(false); setErrors({}); setFailure(null); }} disabled={!dirty || saving}>
          Отменить изменения
        </Button>
        {failure ? (
          <span className={styles.error} role="alert" data-testid="save-failure">
            {failure}
          </span>
        ) : (
          <span className={styles.footerNote} data-testid="unsaved">
            {dirty ? `Не сохранено: ${unsaved.join(', ')}` : 'Все изменения сохранены'}
          </span>
        )}
      </div>

      <Panel title="Удаление счётчика">
        <div className={styles.danger}>
          <span className={styles.dangerText}>Сайт перейдет в список удаленных, сбор статистики прекратится. Восстановить счётчик можно в списке удаленных сайтов.</span>
          <Button variant="danger" onClick={() => setRemoving('ask')} data-testid="delete-counter">
            Удалить счётчик
          </Button>
        </div>
      </Panel>

      {removing ? (
        <ConfirmDialog
          title="Удалить счётчик?"
          confirmLabel="Удалить"
          danger
          busy={removing === 'busy'}
          error={removeError}
          onConfirm={() => void remove()}
          onCancel={() => {
            setRemoving(null);
            setRemoveError(null);
          }}
        >
          <p>
            Счётчик {project.id} сайта «{projectTitle(project.title)}» будет удален.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** What «Проверить» found: the last hit's Moscow time and page, or why nothing is seen yet. */
function CheckResult({ check }: { readonly check: CounterCheck | 'failed' }) {
  if (check === 'failed') {
    return (
      <p className={styles.checkResult} role="status" data-testid="counter-check">
        Не удалось проверить счётчик. Попробуйте еще раз.
      </p>
    );
  }
  if (!check.last_hit) {
    return (
      <p className={styles.checkResult} role="status" data-testid="counter-check">
        Просмотров с сайта пока не было. Проверьте, что код стоит на страницах сайта, откройте любую из них и нажмите «Проверить» снова: данные доходят за несколько секунд.
      </p>
    );
  }
  const at = formatDateTime(Date.parse(check.last_hit.at) / 1000);
  return (
    <p className={styles.checkResult} role="status" data-testid="counter-check">
      Счётчик работает: последний просмотр {at} (МСК) на странице{' '}
      <a href={check.last_hit.url} target="_blank" rel="noopener noreferrer" className={styles.checkUrl}>
        {check.last_hit.url}
      </a>
      .
    </p>
  );
}

/** An editable list of addresses with a remove button per entry and «Добавить». */
function UrlList({
  values,
  onChange,
  errors,
  listError,
  placeholder,
  testId,
}: {
  readonly values: readonly string[];
  readonly onChange: (values: readonly string[]) => void;
  readonly errors: Record<number, string>;
  readonly listError: string | undefined;
  readonly placeholder: string;
  readonly testId: string;
}) {
  return (
    <div className={styles.list} data-testid={testId}>
      {values.map((value, i) => (
        <div key={i} className={styles.listRow}>
          <Field error={errors[i]}>
            <TextInput value={value} placeholder={placeholder} maxLength={LIMITS.urlMax + 20} invalid={Boolean(errors[i])} onChange={(e) => onChange(values.map((v, j) => (j === i ? e.target.value : v)))} aria-label={`Адрес ${i + 1}`} />
          </Field>
          <Button variant="ghost" onClick={() => onChange(values.filter((_, j) => j !== i))} aria-label="Удалить адрес">
            Удалить
          </Button>
        </div>
      ))}
      {listError ? <div className={styles.error}>{listError}</div> : null}
      <div>
        <Button size="s" onClick={() => onChange([...values, ''])} disabled={values.length >= 100}>
          Добавить адрес
        </Button>
      </div>
    </div>
  );
}

/** The widget as the site will show it (the api draws the same badge). */
function WidgetPreview({ color }: { readonly color: string }): ReactNode {
  return (
    <svg width="88" height="31" viewBox="0 0 88 31" role="img" aria-label="Виджет счётчика">
      <rect width="88" height="31" rx="3" fill={color} />
      <text x="44" y="14" fill="#fff" fontFamily="Arial,sans-serif" fontSize="11" fontWeight="bold" textAnchor="middle">
        1 234
      </text>
      <text x="44" y="26" fill="#fff" fontFamily="Arial,sans-serif" fontSize="8" textAnchor="middle">
        просмотров сегодня
      </text>
    </svg>
  );
}

