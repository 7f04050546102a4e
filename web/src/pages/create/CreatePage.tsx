import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { parseSiteUrl } from '@stat/schemas/site';
import type { CaptchaNeed, Project, SameUrlProject } from '@stat/schemas/projects';
import { TERMS_URL } from '../../app/links';
import { useSession } from '../../app/session';
import { useSnackbar } from '../../app/Snackbar';
import { SiteIcon } from '../../components/SiteIcon';
import { Badge, Button, Checkbox, Notice, Panel, Spinner, Switch, TextField } from '../../components/ui';
import { calls } from '../../data/calls';
import { SAVE_FAILED, SNACKS } from '../../data/messages';
import { canCreateProjects } from '../../data/roles';
import { checkSiteUrl, checkTerms, checkTitle, collect, isValid, LIMITS, serverFieldErrors, type FieldErrors } from '../../data/validation';
import { ApiError, isAbortError, statusOf } from '../../lib/api';
import { formatNumber, projectTitle } from '../../lib/format';
import { DELAYS, useDebounced } from '../../lib/hooks';
import { solveProofOfWork } from '../../lib/pow';
import { CounterCode, codeOptionsOf } from '../settings/CounterCode';
import { formFromProject } from '../settings/counterForm';
import styles from './CreatePage.module.css';
import { PageTitle } from '../../app/PageTitle';

/** The same-url hint (spec 000 §8). */
const SAME_URL_HINT = 'Сайт с таким URL уже есть в каталоге Топ-100';

/** What the projects list shows after a restore of access (spec 000 §4: a success dialog). */
interface RestoreDialogState {
  readonly restored: 'requested' | 'verified';
  readonly projectId: number;
}

type Field = 'url' | 'title' | 'agree';

/** The proof-of-work captcha: not needed, being solved, solved, or failed. */
type Captcha =
  | { readonly state: 'checking' }
  | { readonly state: 'none' }
  | { readonly state: 'solving' }
  | { readonly state: 'solved'; readonly answer: string }
  | { readonly state: 'failed' };

/**
 * Add a site (`/stat/create`, spec 000 §2.5): 1 create (address, name fetched from the site,
 * terms, the captcha when the server demands it), 2 settings and code, 3 restore access when
 * sites with the same address exist.
 */
export default function CreatePage() {
  const { user } = useSession();
  const navigate = useNavigate();
  const [step, setStep] = useState<1 | 2 | 3>(1);
  const [url, setUrl] = useState('');
  const [title, setTitle] = useState('');
  const titleEdited = useRef(false);
  const [agree, setAgree] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [captcha, setCaptcha] = useState<Captcha>({ state: 'checking' });
  const [captchaRound, setCaptchaRound] = useState(0);
  const [created, setCreated] = useState<Project | null>(null);
  const [titleLoading, setTitleLoading] = useState(false);
  const [same, setSame] = useState<{ readonly url: string; readonly data: readonly SameUrlProject[]; readonly total: number } | null>(null);

  // The captcha: asked once on entry and again after a refused answer; solved in the browser.
  useEffect(() => {
    const controller = new AbortController();
    setCaptcha({ state: 'checking' });
    calls
      .captchaNeeded()
      .then(async (need: CaptchaNeed) => {
        if (!need.need_captcha || !need.captcha) return setCaptcha({ state: 'none' });
        setCaptcha({ state: 'solving' });
        const answer = await solveProofOfWork(need.captcha.challenge, need.captcha.difficulty, controller.signal);
        setCaptcha({ state: 'solved', answer });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted && !isAbortError(error)) setCaptcha({ state: 'failed' });
      });
    return () => controller.abort();
  }, [captchaRound]);

  // A valid address, left alone for a second: the site's title and the sites with the same address.
  const settledUrl = useDebounced(url.trim(), DELAYS.metadata);
  useEffect(() => {
    if (!parseSiteUrl(settledUrl)) {
      setSame(null);
      return undefined;
    }
    const controller = new AbortController();
    if (!titleEdited.current) {
      setTitleLoading(true);
      calls
        .fetchMetadata(settledUrl, { signal: controller.signal })
        .then(
          ({ title: fetched }) => {
            const clean = fetched.trim().slice(0, LIMITS.titleMax);
            if (clean && !titleEdited.current) setTitle(clean);
          },
          () => undefined, // An unreachable site leaves the name to the user (400 is expected here).
        )
        .finally(() => !controller.signal.aborted && setTitleLoading(false));
    }
    calls.sameUrl(settledUrl, 0, { signal: controller.signal }).then(
      (answer) => setSame({ url: settledUrl, data: answer.data, total: answer.total }),
      () => undefined,
    );
    return () => controller.abort();
  }, [settledUrl]);

  const validate = useCallback(
    (): FieldErrors<Field> => collect({ url: checkSiteUrl(url), title: checkTitle(title, 'create'), agree: checkTerms(agree) }),
    [url, title, agree],
  );
  useEffect(() => {
    // Re-checked as the user types, once a submit showed the errors.
    if (submitted) setErrors(validate());
  }, [validate, submitted]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    const found = validate();
    setErrors(found);
    if (!isValid(found)) return;
    if (captcha.state === 'solving' || captcha.state === 'checking') return;
    setBusy(true);
    try {
      const body = { url: url.trim(), title: title.trim(), agree, ...(captcha.state === 'solved' ? { captcha_response: captcha.answer } : {}) };
      const { project_id } = await calls.createProject(body);
      const project = await calls.project(project_id);
      setCreated(project);
      setStep(2);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        const captchaRefused = error.message === 'Not valid captcha';
        setFailure('Ошибка валидации');
        setErrors(serverFieldErrors(error.fields, ['url', 'title', 'agree'] as const));
        // A challenge answers once: a refused or spent one is replaced.
        if (captchaRefused || captcha.state === 'solved') setCaptchaRound((n) => n + 1);
      } else if (statusOf(error) === 403) {
        setFailure('Доступ запрещен: ваша роль не позволяет создавать счётчики.');
      } else if (error instanceof ApiError && error.status === 429) {
        setFailure(error.message);
      } else {
        setFailure('Произошла ошибка при запросе на сервер.');
      }
    } finally {
      setBusy(false);
    }
  };

  const sameForUrl = same && same.url === url.trim() && same.total > 0 ? same : null;
  const mayCreate = canCreateProjects(user);

  return (
    <div className={styles.page} data-testid="create-page">
      <PageTitle text="Добавить сайт – Статистика" />
      <Link to="/stat/projects" className={styles.back}>
        ← Мои сайты
      </Link>
      <h1 className={styles.heading}>Добавить сайт</h1>
      <ol className={styles.steps} aria-label="Шаги">
        {/* Step 3 applies only when the address is already registered: drawn only then. */}
        {['Создание счётчика', 'Настройки и код', ...(sameForUrl || step === 3 ? ['Восстановление доступа'] : [])].map((label, i) => (
          <li key={label} className={step === i + 1 ? `${styles.step} ${styles.stepActive}` : step > i + 1 && i < 2 && step !== 3 ? `${styles.step} ${styles.stepDone}` : styles.step} aria-current={step === i + 1 ? 'step' : undefined}>
            <span className={styles.stepNumber}>{i + 1}</span>
            {label}
          </li>
        ))}
      </ol>

      {step === 1 ? (
        <div className={styles.columns}>
          <Panel title="Сайт" description="Укажите адрес сайта и его название: так он будет подписан в списке ваших сайтов.">
            {!mayCreate ? <Notice tone="warning">Ваша роль не позволяет создавать счётчики. Обратитесь к администратору.</Notice> : null}
            <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate data-testid="create-form">
              {failure ? (
                <Notice tone="danger" data-testid="create-failure">
                  {failure}
                </Notice>
              ) : null}
              <TextField
                label="Адрес сайта"
                name="url"
                placeholder="https://example.ru"
                value={url}
                maxLength={LIMITS.urlMax + 50}
                onChange={(e) => setUrl(e.target.value)}
                onBlur={() => submitted || !url ? undefined : setErrors((e) => ({ ...e, url: checkSiteUrl(url) ?? undefined }))}
                error={errors.url}
                hint="С протоколом: https://example.ru"
                data-testid="create-url"
                autoFocus
              />
              <TextField
                label="Название сайта"
                name="title"
                value={title}
                maxLength={LIMITS.titleMax}
                onChange={(e) => {
                  titleEdited.current = true;
                  setTitle(e.target.value);
                }}
                error={errors.title}
                aside={titleLoading ? 'Получаем название с сайта…' : `${title.length} / ${LIMITS.titleMax}`}
                data-testid="create-title"
              />
              <div>
                <Checkbox checked={agree} onChange={setAgree} data-testid="create-agree">
                  Я принимаю условия{' '}
                  <a href={TERMS_URL} target="_blank" rel="noopener noreferrer">
                    Пользовательского соглашения
                  </a>
                </Checkbox>
                {errors.agree ? (
                  <div className={styles.error} role="alert" data-testid="field-error">
                    {errors.agree}
                  </div>
                ) : null}
              </div>
              {captcha.state !== 'none' && captcha.state !== 'checking' ? <CaptchaStatus captcha={captcha} onRetry={() => setCaptchaRound((n) => n + 1)} /> : null}
              <div className={styles.actions}>
                <Button type="submit" variant="primary" busy={busy} disabled={!mayCreate || captcha.state === 'solving' || captcha.state === 'checking'} data-testid="create-submit">
                  Создать счётчик
                </Button>
                <Link to="/stat/projects">Отмена</Link>
              </div>
            </form>
          </Panel>
          <div className={styles.aside}>
            {sameForUrl ? (
              <Notice tone="warning" data-testid="same-url-hint">
                <div className={styles.sameTitle}>{SAME_URL_HINT}</div>
                <p className={styles.sameText}>
                  Найдено счётчиков с этим адресом: {formatNumber(sameForUrl.total)}. Если это ваш сайт и вы потеряли доступ к счётчику, его можно восстановить.
                </p>
                <Button size="s" onClick={() => setStep(3)} data-testid="restore-access">
                  Восстановить доступ
                </Button>
              </Notice>
            ) : (
              <div className={styles.tips}>
                <h3>Что дальше</h3>
                <p>После создания вы получите код счётчика. Установите его на все страницы сайта — статистика появится в отчётах через несколько минут.</p>
              </div>
            )}
          </div>
        </div>
      ) : null}

      {step === 2 && created ? <CreatedStep project={created} onDone={() => navigate('/stat/projects')} /> : null}

      {step === 3 && same ? (
        <RestoreStep url={same.url} first={same} onBack={() => setStep(1)} onDone={(state) => navigate('/stat/projects', { state })} />
      ) : null}
    </div>
  );
}

function CaptchaStatus({ captcha, onRetry }: { readonly captcha: Captcha; readonly onRetry: () => void }) {
  return (
    <div className={styles.captcha} data-testid="captcha" data-state={captcha.state}>
      {captcha.state === 'solving' ? (
        <>
          <Spinner size={16} /> Проверяем, что вы не робот…
        </>
      ) : captcha.state === 'solved' ? (
        <>
          <span className={styles.captchaOk}>✓</span> Проверка пройдена: за сутки вы создали несколько счётчиков, поэтому понадобилась проверка.
        </>
      ) : (
        <>
          Не удалось пройти проверку.{' '}
          <Button variant="link" onClick={onRetry}>
            Повторить
          </Button>
        </>
      )}
    </div>
  );
}

/** Step 2: the counter is created; its main settings, its code with the options, and where to go next. */
function CreatedStep({ project: created, onDone }: { readonly project: Project; readonly onDone: () => void }) {
  const snackbar = useSnackbar();
  const [project, setProject] = useState(created);
  const [form, setForm] = useState(() => formFromProject(created));
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const saved = formFromProject(project);
  const dirty = (['merge_subdomains', 'separate_www', 'track_hashes', 'track_user_id'] as const).some((k) => form[k] !== saved[k]);
  const save = async () => {
    setSaving(true);
    setFailure(null);
    try {
      const updated = await calls.updateProject(project.id, {
        counter_settings: { merge_subdomains: form.merge_subdomains, merge_www: !form.separate_www, track_hashes: form.track_hashes, track_user_id: form.track_user_id },
      });
      setProject(updated);
      snackbar(SNACKS.saved);
    } catch (error) {
      setFailure(statusOf(error) === 400 ? (error as Error).message : SAVE_FAILED);
    } finally {
      setSaving(false);
    }
  };
  const toggle = (key: 'merge_subdomains' | 'separate_www' | 'track_hashes' | 'track_user_id') => (value: boolean) => setForm((f) => ({ ...f, [key]: value }));
  return (
    <div className={styles.created} data-testid="create-done">
      <Notice tone="success">
        Счётчик <b>{project.id}</b> для сайта «{projectTitle(project.title)}» создан. Осталось установить код на сайт.
      </Notice>
      <Panel title="Настройки" description="Основные параметры сбора данных; остальные — в настройках счётчика.">
        <div className={styles.settingsGrid}>
          <Switch checked={form.merge_subdomains} onChange={toggle('merge_subdomains')} description="Визиты на поддомены считаются визитами на сайт">
            Объединять поддомены
          </Switch>
          <Switch checked={form.separate_www} onChange={toggle('separate_www')} description="По умолчанию www.site.ru и site.ru — один сайт">
            Считать www отдельным сайтом
          </Switch>
          <Switch checked={form.track_hashes} onChange={toggle('track_hashes')} description="Переходы по #адресам — просмотры страниц">
            Учитывать хеш в адресе
          </Switch>
          <Switch checked={form.track_user_id} onChange={toggle('track_user_id')} description="Визиты одного пользователя связываются между устройствами">
            Передавать ID пользователя
          </Switch>
        </div>
        <div className={styles.actions}>
          <Button onClick={() => void save()} busy={saving} disabled={!dirty} data-testid="create-save-settings">
            Сохранить настройки
          </Button>
          {failure ? <span className={styles.error}>{failure}</span> : null}
        </div>
      </Panel>
      <Panel title="Код счётчика" description="Скопируйте код и вставьте его на все страницы сайта.">
        <CounterCode projectId={project.id} options={codeOptionsOf(project.counter_settings)} />
      </Panel>
      <div className={styles.actions}>
        <Link className={styles.primaryLink} to={`/stat/projects/${project.id}/settings/counter`}>
          Перейти к настройкам счётчика
        </Link>
        <Button onClick={onDone}>К списку сайтов</Button>
      </div>
    </div>
  );
}

/**
 * Step 3: the sites with the same address (15 a page); for each, ask its owners for access or
 * prove ownership with a meta tag. «Создать новый счётчик» goes back to step 1.
 */
function RestoreStep({
  url,
  first,
  onBack,
  onDone,
}: {
  readonly url: string;
  readonly first: { readonly data: readonly SameUrlProject[]; readonly total: number };
  readonly onBack: () => void;
  readonly onDone: (state: RestoreDialogState) => void;
}) {
  const [rows, setRows] = useState<readonly SameUrlProject[]>(first.data);
  const [total, setTotal] = useState(first.total);
  const [loadingMore, setLoadingMore] = useState(false);
  const [active, setActive] = useState<{ id: number; kind: 'request' | 'verify'; metaTag?: string; busy: boolean; error?: string } | null>(null);

  const more = () => {
    setLoadingMore(true);
    calls
      .sameUrl(url, rows.length)
      .then((answer) => {
        setRows((r) => [...r, ...answer.data.filter((d) => !r.some((x) => x.id === d.id))]);
        setTotal(answer.total);
      }, () => undefined)
      .finally(() => setLoadingMore(false));
  };

  const request = async (id: number) => {
    setActive({ id, kind: 'request', busy: true });
    try {
      await calls.requestAccess(id);
      onDone({ restored: 'requested', projectId: id });
    } catch (error) {
      setActive({ id, kind: 'request', busy: false, error: statusOf(error) === 400 ? (error as Error).message : 'Произошла ошибка при запросе на сервер.' });
    }
  };
  const verify = async (id: number) => {
    setActive((a) => ({ id, kind: 'verify', busy: true, ...(a?.id === id && a.metaTag ? { metaTag: a.metaTag } : {}) }));
    try {
      const answer = await calls.verifyOwnership(id);
      if (answer.verified) onDone({ restored: 'verified', projectId: id });
      else setActive({ id, kind: 'verify', busy: false, metaTag: answer.meta_tag });
    } catch (error) {
      setActive((a) => ({
        id,
        kind: 'verify',
        busy: false,
        ...(a?.metaTag ? { metaTag: a.metaTag } : {}),
        error: statusOf(error) === 400 || statusOf(error) === 429 ? (error as Error).message : 'Произошла ошибка при запросе на сервер.',
      }));
    }
  };

  return (
    <Panel
      title="Восстановление доступа"
      description={`${SAME_URL_HINT}. Выберите счётчик, доступ к которому нужно восстановить.`}
      data-testid="restore-step"
      actions={
        <Button onClick={onBack} data-testid="create-new">
          Создать новый счётчик
        </Button>
      }
    >
      <div className={styles.sameList}>
        {rows.map((p) => (
          <div key={p.id} className={styles.sameRow} data-testid="same-url-row">
            <div className={styles.sameMain}>
              <SiteIcon favicon={p.favicon} size={20} />
              <div className={styles.sameInfo}>
                <div className={styles.sameName}>{projectTitle(p.title)}</div>
                <div className={styles.sameMeta}>
                  <span>Счётчик {p.id}</span>
                  <span>{p.url.replace(/^https?:\/\//, '')}</span>
                  <span>создан {new Date(p.created).toLocaleDateString('ru-RU', { timeZone: 'Europe/Moscow' })}</span>
                  {p.in_rating ? <Badge tone="success">В рейтинге</Badge> : null}
                </div>
              </div>
              <div className={styles.sameActions}>
                <Button size="s" busy={active?.id === p.id && active.kind === 'request' && active.busy} onClick={() => void request(p.id)}>
                  Запросить доступ
                </Button>
                <Button size="s" variant="primary" busy={active?.id === p.id && active.kind === 'verify' && active.busy} onClick={() => void verify(p.id)}>
                  {active?.id === p.id && active.metaTag ? 'Проверить' : 'Подтвердить владение'}
                </Button>
              </div>
            </div>
            {active?.id === p.id && active.metaTag ? (
              <div className={styles.metaTag}>
                Разместите этот тег в &lt;head&gt; главной страницы сайта и нажмите «Проверить»:
                <pre>{active.metaTag}</pre>
              </div>
            ) : null}
            {active?.id === p.id && active.error ? <div className={styles.error}>{active.error}</div> : null}
          </div>
        ))}
      </div>
      {rows.length < total ? (
        <div>
          <Button variant="ghost" busy={loadingMore} onClick={more}>
            Показать ещё
          </Button>
        </div>
      ) : null}
    </Panel>
  );
}
