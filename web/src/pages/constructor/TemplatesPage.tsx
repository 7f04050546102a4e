import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { CONSTRUCTOR_TEXTS, READY_TEMPLATE_GROUPS, READY_TEMPLATES, type ConstructorTemplate, type ReadyTemplate } from '@stat/schemas/reports';
import { useSnackbar } from '../../app/Snackbar';
import { useUser } from '../../app/session';
import { ConfirmDialog } from '../../components/Modal';
import { Button, TextInput } from '../../components/ui';
import { ApiError } from '../../lib/api';
import { formatDateTime } from '../../lib/dates';
import { useDebounced, useRequest } from '../../lib/hooks';
import { useServerClock } from '../../reports/framework/hooks';
import { deleteTemplate, listTemplates, updateTemplate } from './constructorApi';
import { readyTemplateSearch, templateSearch } from './query';
import { TitleModal } from './TitleModal';
import styles from './TemplatesPage.module.css';
import { ProjectPageTitle } from '../../app/ProjectPageTitle';

/** Ready template cards shown before «Показать все шаблоны» (§4). */
const FIRST_CARDS = 3;
/** §5: search inputs send after 600 ms. */
const SEARCH_DELAY = 600;

/**
 * `/stat/projects/:projectId/constructor`, «Конструктор отчётов» (spec 001 §4): the ready
 * templates by group, «Создать новый отчёт», and the user's «Мои отчёты» with search, rename and
 * delete; a click opens a report in the constructor.
 */
export default function TemplatesPage() {
  const { projectId = '' } = useParams();
  const clock = useServerClock();
  const user = useUser();
  const navigate = useNavigate();
  const [all, setAll] = useState(false);
  const constructorPath = `/stat/projects/${encodeURIComponent(projectId)}/new/report/constructor`;
  // A ready template's period ends on the server's today: a click before the clock is known is
  // kept and carried out when it comes, never dropped.
  const [chosen, setChosen] = useState<ReadyTemplate | null>(null);
  useEffect(() => {
    if (chosen && clock) void navigate(`${constructorPath}?${readyTemplateSearch(chosen, clock.today).toString()}`);
  }, [chosen, clock, constructorPath, navigate]);
  const openReady = (template: ReadyTemplate) => setChosen(template);
  const card = (template: ReadyTemplate) => (
    <button key={template.id} type="button" className={styles.card} onClick={() => openReady(template)} data-testid={`ready-template-${template.id}`}>
      <span className={styles.cardTitle}>{template.title}</span>
      <span className={styles.cardText}>{template.description}</span>
    </button>
  );

  return (
    <div className={styles.page}>
      <ProjectPageTitle title={CONSTRUCTOR_TEXTS.title} projectId={projectId} />
      <h1 className={styles.title}>{CONSTRUCTOR_TEXTS.title}</h1>
      <div className={styles.cards}>
        <Link to={constructorPath} className={`${styles.card} ${styles.create}`} data-testid="constructor-create">
          <span className={styles.cardTitle}>Создать новый отчёт</span>
          <span className={styles.cardText}>Новый отчёт можно сохранить и использовать в качестве шаблона.</span>
        </Link>
        {all ? null : READY_TEMPLATES.slice(0, FIRST_CARDS).map(card)}
      </div>
      {all ? (
        READY_TEMPLATE_GROUPS.map((group) => (
          <section key={group.id} className={styles.group}>
            <h2 className={styles.groupTitle}>{group.title}</h2>
            <div className={styles.cards}>{READY_TEMPLATES.filter((t) => t.group === group.id).map(card)}</div>
          </section>
        ))
      ) : (
        <Button variant="ghost" onClick={() => setAll(true)} data-testid="constructor-show-all">
          Показать все шаблоны
        </Button>
      )}
      {user ? <MyReports constructorPath={constructorPath} /> : null}
    </div>
  );
}

/** «Мои отчёты»: the user's saved reports, found by title, renamed and deleted here. */
function MyReports({ constructorPath }: { readonly constructorPath: string }) {
  const snackbar = useSnackbar();
  const [search, setSearch] = useState('');
  const settled = useDebounced(search.trim(), SEARCH_DELAY);
  const [version, setVersion] = useState(0);
  const list = useRequest(`templates:${settled}:${version}`, (signal) => listTemplates({ search: settled }, signal));
  // Further pages of the list («Показать ещё»), for the same search and version.
  const [more, setMore] = useState<{ key: string; rows: ConstructorTemplate[] }>({ key: '', rows: [] });
  const listKey = `${settled}:${version}`;
  const extra = more.key === listKey ? more.rows : [];
  const [loadingMore, setLoadingMore] = useState(false);
  const showMore = async () => {
    setLoadingMore(true);
    try {
      const page = await listTemplates({ search: settled, offset: (list.data?.constructor_template.length ?? 0) + extra.length });
      setMore({ key: listKey, rows: [...extra, ...page.constructor_template] });
    } finally {
      setLoadingMore(false);
    }
  };
  const [renaming, setRenaming] = useState<ConstructorTemplate | null>(null);
  const [deleting, setDeleting] = useState<ConstructorTemplate | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const rows = [...(list.data?.constructor_template ?? []), ...extra];

  const rename = async (title: string) => {
    if (!renaming) return;
    await updateTemplate(renaming.id, { title });
    setRenaming(null);
    snackbar(CONSTRUCTOR_TEXTS.changed);
    setVersion((v) => v + 1);
  };
  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    setFailure(null);
    try {
      await deleteTemplate(deleting.id);
      setDeleting(null);
      snackbar(CONSTRUCTOR_TEXTS.deleted);
      setVersion((v) => v + 1);
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={styles.mine} data-testid="my-reports">
      <div className={styles.mineHead}>
        <h2 className={styles.groupTitle}>
          Мои отчёты{list.data ? <span className={styles.count}> {list.data.totals}</span> : null}
        </h2>
        <TextInput type="search" placeholder="Поиск по названию" value={search} onChange={(e) => setSearch(e.target.value)} className={styles.search} data-testid="my-reports-search" />
      </div>
      <table className={styles.table}>
        <thead>
          <tr>
            <th>Название отчёта</th>
            <th>Создатель</th>
            <th>Последнее изменение</th>
            <th aria-label="Действия" />
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <tr key={t.id} data-testid={`my-report-${t.id}`}>
              <td>
                <Link to={`${constructorPath}?${templateSearch(t).toString()}`} className={styles.name} data-testid="my-report-open">
                  {t.title}
                </Link>
              </td>
              <td>{t.email}</td>
              <td>{formatDateTime(Date.parse(t.update_date) / 1000)}</td>
              <td className={styles.actions}>
                <Button size="s" variant="ghost" onClick={() => setRenaming(t)} data-testid="my-report-rename">
                  Переименовать
                </Button>
                <Button size="s" variant="ghost" onClick={() => setDeleting(t)} data-testid="my-report-delete">
                  Удалить
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data && rows.length < list.data.totals ? (
        <Button variant="ghost" busy={loadingMore} onClick={() => void showMore()} data-testid="my-reports-more">
          Показать ещё
        </Button>
      ) : null}
      {list.data && rows.length === 0 ? (
        <p className={styles.none}>{settled ? 'По вашему запросу ничего не найдено' : 'Сохранённых отчётов пока нет.'}</p>
      ) : null}
      {list.error ? <p className={styles.none}>Произошла ошибка при запросе на сервер</p> : null}
      {renaming ? <TitleModal heading="Переименование отчёта" initial={renaming.title} submitLabel="Сохранить" onSubmit={rename} onClose={() => setRenaming(null)} /> : null}
      {deleting ? (
        <ConfirmDialog title="Удаление отчёта" confirmLabel="Удалить" danger busy={busy} error={failure} onConfirm={() => void remove()} onCancel={() => setDeleting(null)}>
          Удалить отчёт «{deleting.title}»?
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
