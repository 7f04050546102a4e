import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import type { RatingPlace } from '@stat/schemas/rating';
import type { ListMetric, ProjectListRow } from '@stat/schemas/projects';
import { ICONS } from '../../app/icons';
import { DEMO_PROJECT_ID } from '../../app/project';
import { useSession } from '../../app/session';
import { useSnackbar } from '../../app/Snackbar';
import { Change } from '../../components/Change';
import { Dropdown } from '../../components/Dropdown';
import { ConfirmDialog, Modal } from '../../components/Modal';
import { SiteIcon } from '../../components/SiteIcon';
import { Tooltip } from '../../components/Tooltip';
import { Badge, Button, Switch, TextInput } from '../../components/ui';
import { calls } from '../../data/calls';
import { ratingCell } from '../../data/rating';
import { canCreateProjects, canSeeAllProjects } from '../../data/roles';
import { isAbortError, statusOf } from '../../lib/api';
import { formatNumber, projectTitle } from '../../lib/format';
import { DELAYS, useDebounced } from '../../lib/hooks';
import { ErrorPage } from '../ErrorPage';
import { hasMore, INITIAL_LIST, LIST_PAGE_SIZE, listReducer, listTotal } from './listState';
import styles from './ProjectsPage.module.css';
import { PageTitle } from '../../app/PageTitle';

/** The five metric columns of the list (spec 000 §2.3). */
/**
 * The metric columns. `optional` ones give way on a narrow card (see the CSS): the depth is the
 * views over the visits, both shown beside it.
 */
const METRIC_COLUMNS: readonly { readonly name: ListMetric; readonly title: string; readonly digits: number; readonly optional?: true }[] = [
  { name: 'page_views', title: 'Просмотры', digits: 0 },
  { name: 'visits', title: 'Визиты', digits: 0 },
  { name: 'visitors', title: 'Посетители', digits: 0 },
  { name: 'events', title: 'События', digits: 0 },
  { name: 'depth', title: 'Глубина', digits: 2, optional: true },
];

/** A metric column's class with `base`: also `optional` when the column may give way. */
const metricClass = (m: (typeof METRIC_COLUMNS)[number], base: string | undefined) => (m.optional ? `${base ?? ''} ${styles.optional ?? ''}` : base);

/** Texts of an empty search (spec 000 §2.3). */
const EMPTY_SEARCH = {
  title: 'По вашему запросу ничего не найдено',
  text: 'Проверьте правильность написания или попробуйте другой запрос',
} as const;

type Dialog = { readonly kind: 'delete' | 'restore'; readonly row: ProjectListRow } | null;

/**
 * My sites (`/stat/projects`) and deleted sites (`/stat/projects/deleted`), spec 000 §2.3: search
 * (500 ms), the staff switch «Показать все доступные проекты», rows with today's metrics and their
 * change, the rating cell, the settings menu for editors, delete and restore, «load more».
 */
export default function ProjectsPage({ deleted = false }: { readonly deleted?: boolean }) {
  const { user } = useSession();
  const snackbar = useSnackbar();
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), DELAYS.tableSearch);
  const [expanded, setExpanded] = useState(false);
  const [state, dispatch] = useReducer(listReducer, INITIAL_LIST);
  const lastId = useRef(0);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [dialogBusy, setDialogBusy] = useState(false);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const location = useLocation();
  const navigate = useNavigate();
  const restored = (location.state as { restored?: 'requested' | 'verified'; projectId?: number } | null)?.restored ?? null;
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const load = useCallback(
    (offset: number) => {
      lastId.current += 1;
      const reqId = lastId.current;
      const more = offset > 0;
      dispatch({ type: 'request', reqId, more });
      calls.projectList({ deleted, expanded, search: query, offset, limit: LIST_PAGE_SIZE }).then(
        (answer) => {
          if (!mounted.current) return;
          setLoadError(null);
          dispatch({ type: 'loaded', reqId, more, answer });
        },
        (error: unknown) => {
          if (!mounted.current || isAbortError(error)) return;
          if (reqId === lastId.current) setLoadError(error);
          dispatch({ type: 'failed', reqId });
        },
      );
    },
    [deleted, expanded, query],
  );

  useEffect(() => load(0), [load]);

  const total = listTotal(state, deleted);
  const closeDialog = () => {
    setDialog(null);
    setDialogError(null);
    setDialogBusy(false);
  };
  const confirm = async () => {
    if (!dialog) return;
    setDialogBusy(true);
    setDialogError(null);
    try {
      if (dialog.kind === 'delete') {
        await calls.deleteProject(dialog.row.id);
        dispatch({ type: 'moved', id: dialog.row.id, from: 'active' });
        snackbar('Счётчик удален');
      } else {
        await calls.restoreProject(dialog.row.id);
        snackbar('Счётчик восстановлен');
        load(0);
      }
      closeDialog();
    } catch (error) {
      setDialogBusy(false);
      setDialogError(statusOf(error) >= 400 && statusOf(error) < 500 ? (error as Error).message : 'Произошла ошибка при запросе на сервер.');
    }
  };

  if (loadError && state.rows.length === 0 && statusOf(loadError) !== 401) {
    return <ErrorPage status={statusOf(loadError) || 500} />;
  }

  const title = deleted ? 'Удаленные сайты' : 'Мои сайты';
  return (
    <div className={styles.page} data-testid={deleted ? 'deleted-projects' : 'projects'}>
      <PageTitle text={`${title} – Статистика`} />
      <header className={styles.header}>
        <h1 className={styles.title}>{title}</h1>
        <div className={styles.search}>
          <span className={styles.searchIcon}>{ICONS.search}</span>
          <TextInput
            type="search"
            value={search}
            maxLength={100}
            onChange={(e) => setSearch(e.target.value)}
            placeholder={deleted ? 'Искать по удаленным сайтам' : 'Искать по моим сайтам'}
            aria-label={deleted ? 'Искать по удаленным сайтам' : 'Искать по моим сайтам'}
            data-testid="projects-search"
          />
        </div>
        <div className={styles.headerEnd}>
          {user && canSeeAllProjects(user.role_id) ? (
            <Switch checked={expanded} onChange={setExpanded} data-testid="show-all">
              Показать все доступные проекты
            </Switch>
          ) : null}
          {!deleted && canCreateProjects(user) ? (
            <Link to="/stat/create" className={styles.addButton} data-testid="add-site">
              {ICONS.plus}
              Добавить сайт
            </Link>
          ) : null}
        </div>
      </header>
      <nav className={styles.tabs} aria-label="Списки сайтов">
        <NavLink to="/stat/projects" end className={({ isActive }) => (isActive ? `${styles.tab} ${styles.tabActive}` : styles.tab)}>
          Мои сайты
          {!state.loading || state.rows.length > 0 ? <span className={styles.count}>{formatNumber(state.totalRows)}</span> : null}
        </NavLink>
        <NavLink to="/stat/projects/deleted" className={({ isActive }) => (isActive ? `${styles.tab} ${styles.tabActive}` : styles.tab)} data-testid="deleted-tab">
          Удаленные сайты
          {!state.loading || state.rows.length > 0 ? <span className={styles.count}>{formatNumber(state.deletedRows)}</span> : null}
        </NavLink>
      </nav>

      <div className={styles.tableWrap}>
        <table className={styles.table} data-testid="projects-table" aria-busy={state.loading}>
          <colgroup>
            <col className={styles.colStatus} />
            <col />
            <col className={deleted ? styles.colId : `${styles.colId} ${styles.optional}`} />
            {deleted ? null : METRIC_COLUMNS.map((m) => <col key={m.name} className={metricClass(m, styles.colMetric)} />)}
            {deleted ? null : <col className={styles.colRating} />}
            <col className={deleted ? styles.colRestore : styles.colMenu} />
          </colgroup>
          <thead>
            <tr>
              <th aria-label="Статус счётчика" />
              <th>Сайт</th>
              <th className={deleted ? undefined : styles.optional}>ID</th>
              {deleted
                ? null
                : METRIC_COLUMNS.map((m) => (
                    <th key={m.name} className={metricClass(m, styles.num)} title={`${m.title} сегодня и изменение по сравнению с предыдущими 24 часами`}>
                      {m.title}
                    </th>
                  ))}
              {deleted ? null : <th>Рейтинг</th>}
              <th aria-label="Действия" />
            </tr>
          </thead>
          <tbody>
            {state.loading && (state.rows.length === 0 || !state.loadingMore)
              ? Array.from({ length: Math.min(LIST_PAGE_SIZE, Math.max(3, state.rows.length || LIST_PAGE_SIZE)) }, (_, i) => <SkeletonRow key={i} deleted={deleted} />)
              : state.rows.map((row) => (
                  <ProjectRow
                    key={row.id}
                    row={row}
                    deleted={deleted}
                    onDelete={() => setDialog({ kind: 'delete', row })}
                    onRestore={() => setDialog({ kind: 'restore', row })}
                  />
                ))}
          </tbody>
        </table>
        {!state.loading && state.rows.length === 0 ? (
          <div className={styles.empty} data-testid="projects-empty">
            {query ? (
              <>
                <div className={styles.emptyTitle}>{EMPTY_SEARCH.title}</div>
                <div>{EMPTY_SEARCH.text}</div>
              </>
            ) : deleted ? (
              <div className={styles.emptyTitle}>Удаленных сайтов нет</div>
            ) : (
              <>
                <div className={styles.emptyTitle}>У вас пока нет сайтов</div>
                <div>Добавьте сайт и установите счётчик, чтобы увидеть статистику.</div>
                {canCreateProjects(user) ? (
                  <Link to="/stat/create" className={styles.addButton}>
                    {ICONS.plus}
                    Добавить сайт
                  </Link>
                ) : null}
                <DemoOffer />
              </>
            )}
          </div>
        ) : null}
        {!deleted && state.rows.length > 0 ? <ListLegend /> : null}
        {hasMore(state, deleted) || state.loadingMore ? (
          <div className={styles.more}>
            <Button variant="ghost" busy={state.loadingMore} onClick={() => load(state.rows.length)} data-testid="load-more">
              Показать ещё
              {!state.loadingMore ? <span className={styles.moreCount}>{`${formatNumber(state.rows.length)} из ${formatNumber(total)}`}</span> : null}
            </Button>
          </div>
        ) : null}
      </div>

      {restored ? (
        <Modal
          title={restored === 'verified' ? 'Доступ восстановлен' : 'Запрос отправлен'}
          onClose={() => navigate('.', { replace: true, state: null })}
          data-testid="restore-success"
          footer={
            <Button variant="primary" onClick={() => navigate('.', { replace: true, state: null })}>
              Понятно
            </Button>
          }
        >
          <p>
            {restored === 'verified'
              ? 'Владение сайтом подтверждено: счётчик появился в списке ваших сайтов, вы можете редактировать его настройки.'
              : 'Владельцы счётчика получат ваш запрос на доступ. Когда его одобрят, сайт появится в списке ваших сайтов.'}
          </p>
        </Modal>
      ) : null}

      {dialog ? (
        <ConfirmDialog
          title={dialog.kind === 'delete' ? 'Удалить счётчик?' : 'Восстановить счётчик?'}
          confirmLabel={dialog.kind === 'delete' ? 'Удалить' : 'Восстановить'}
          danger={dialog.kind === 'delete'}
          busy={dialogBusy}
          error={dialogError}
          onConfirm={() => void confirm()}
          onCancel={closeDialog}
        >
          <p>
            {dialog.kind === 'delete'
              ? `Сайт «${projectTitle(dialog.row.title)}» (счётчик ${dialog.row.id}) перейдет в список удаленных сайтов. Статистика перестанет собираться; восстановить счётчик можно в любой момент.`
              : `Сайт «${projectTitle(dialog.row.title)}» (счётчик ${dialog.row.id}) вернется в список ваших сайтов.`}
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** What the dots and the metric columns mean, under the list. */
function ListLegend() {
  return (
    <div className={styles.legend} data-testid="list-legend">
      <span className={styles.legendItem}>
        <span className={`${styles.status} ${styles.statusOk}`} aria-hidden="true" />
        Счётчик корректно установлен
      </span>
      <span className={styles.legendItem}>
        <span className={styles.status} aria-hidden="true" />
        Счётчик не установлен
      </span>
      <span className={styles.legendNote}>Показатели — за сегодня; изменение — по сравнению с предыдущими 24 часами.</span>
    </div>
  );
}

/**
 * The demo project offered to a user with no sites yet: the reports can be seen before a counter
 * sends anything. The demo is read-only for everyone but administrators (spec 000 §6).
 */
function DemoOffer() {
  return (
    <p className={styles.demo} data-testid="demo-offer">
      Пока сайтов нет, можно{' '}
      <Link to={`/stat/projects/${DEMO_PROJECT_ID}/new/report/summary`} data-testid="demo-link">
        посмотреть демо
      </Link>
      : отчёты демонстрационного сайта, только для просмотра.
    </p>
  );
}

function SkeletonRow({ deleted }: { readonly deleted: boolean }) {
  return (
    <tr className={styles.row} aria-hidden="true">
      <td>
        <span className="skeleton" style={{ width: 8, height: 8, borderRadius: 4 }} />
      </td>
      <td>
        <span className="skeleton" style={{ width: '60%', height: 14, marginBottom: 6 }} />
        <span className="skeleton" style={{ width: '35%', height: 12 }} />
      </td>
      <td className={deleted ? undefined : styles.optional}>
        <span className="skeleton" style={{ width: 60, height: 14 }} />
      </td>
      {deleted
        ? null
        : METRIC_COLUMNS.map((m) => (
            <td key={m.name} className={metricClass(m, styles.num)}>
              <span className="skeleton" style={{ width: 48, height: 14, marginLeft: 'auto', marginBottom: 6 }} />
              <span className="skeleton" style={{ width: 32, height: 10, marginLeft: 'auto' }} />
            </td>
          ))}
      {deleted ? null : (
        <td>
          <span className="skeleton" style={{ width: 90, height: 22 }} />
        </td>
      )}
      <td />
    </tr>
  );
}

/** One site of the list. */
export function ProjectRow({
  row,
  deleted,
  onDelete,
  onRestore,
}: {
  readonly row: ProjectListRow;
  readonly deleted: boolean;
  readonly onDelete: () => void;
  readonly onRestore: () => void;
}) {
  const navigate = useNavigate();
  const base = `/stat/projects/${row.id}`;
  const titleLink = deleted ? (
    <span className={styles.siteTitle}>{projectTitle(row.title)}</span>
  ) : (
    <Link to={`${base}/dashboard`} className={styles.siteTitle} data-testid="project-link">
      {projectTitle(row.title)}
    </Link>
  );
  return (
    <tr className={styles.row} data-testid="project-row" data-project-id={row.id}>
      <td>
        <span
          className={row.counter_is_set && !deleted ? `${styles.status} ${styles.statusOk}` : styles.status}
          title={row.counter_is_set ? 'Счётчик корректно установлен' : 'Счётчик не установлен'}
          aria-label={row.counter_is_set ? 'Счётчик корректно установлен' : 'Счётчик не установлен'}
          role="img"
          data-testid="counter-status"
          data-set={row.counter_is_set}
        />
      </td>
      <td>
        <div className={styles.site}>
        <SiteIcon favicon={row.favicon} size={20} />
        <div className={styles.siteText}>
          <div className={styles.titleLine}>
            {row.has_access_requests && row.can_edit_project && !deleted ? (
              <Tooltip
                data-testid="access-request-tip"
                content={
                  <>
                    У вас новый запрос на доступ к счётчику, перейдите в <Link to={`${base}/settings/access`}>Настройки доступа</Link>
                  </>
                }
              >
                {titleLink}
                <span className={styles.requestDot} aria-label="Новый запрос на доступ" />
              </Tooltip>
            ) : (
              titleLink
            )}
          </div>
          <a href={row.url} target="_blank" rel="noopener noreferrer" className={styles.siteUrl}>
            {row.url.replace(/^https?:\/\//, '')}
          </a>
        </div>
        </div>
      </td>
      <td className={deleted ? styles.id : `${styles.id} ${styles.optional}`}>{row.id}</td>
      {deleted
        ? null
        : METRIC_COLUMNS.map((m) => {
            const metric = row.metrics?.[m.name];
            return (
              <td key={m.name} className={metricClass(m, styles.num)} data-metric={m.name} data-value={metric?.today ?? ''}>
                <div className={styles.metricValue}>{formatNumber(metric?.today, { maxFractionDigits: m.digits })}</div>
                <Change value={metric?.change} />
              </td>
            );
          })}
      {deleted ? null : (
        <td>
          <RatingCellView row={row} />
        </td>
      )}
      <td className={styles.actions}>
        {deleted ? (
          <Button size="s" onClick={onRestore} data-testid="restore">
            Восстановить счётчик
          </Button>
        ) : row.can_edit_project ? (
          <Dropdown
            label="Настройки сайта"
            data-testid="row-menu"
            trigger={ICONS.more}
            items={[
              { label: 'Код счётчика', onSelect: () => navigate(`${base}/settings/counter#code`) },
              { label: 'Счётчик', onSelect: () => navigate(`${base}/settings/counter`) },
              { label: 'Рейтинг', onSelect: () => navigate(`${base}/settings/rating`) },
              { label: 'Доступ', onSelect: () => navigate(`${base}/settings/access`) },
              'separator',
              { label: 'Удалить счётчик', danger: true, onSelect: onDelete, 'data-testid': 'delete-project' },
            ]}
          />
        ) : null}
      </td>
    </tr>
  );
}

/** The rating cell: category and position, «Участвовать», or the status (spec 000 §2.3). */
function RatingCellView({ row }: { readonly row: ProjectListRow }) {
  const cell = ratingCell(row);
  if (cell.kind === 'join') {
    return (
      <Link to={`/stat/projects/${row.id}/settings/rating`} className={styles.join} data-testid="join-rating">
        Участвовать
      </Link>
    );
  }
  if (cell.kind === 'status') {
    return (
      <span data-testid="rating-status">
        <Badge tone={cell.text.tone} title={cell.text.hint}>
          {cell.text.label}
        </Badge>
      </span>
    );
  }
  return <CategoryPosition categories={cell.categories} />;
}

function CategoryPosition({ categories }: { readonly categories: readonly RatingPlace[] }) {
  const [index, setIndex] = useState(0);
  const current = categories[index] ?? categories[0];
  if (!current) return null;
  const position = current.position === null ? '—' : `${formatNumber(current.position)} место`;
  return (
    <div className={styles.position} data-testid="rating-position">
      {categories.length >= 2 ? (
        <select className={styles.categorySelect} value={index} onChange={(e) => setIndex(Number(e.target.value))} aria-label="Тема рейтинга">
          {categories.map((c, i) => (
            <option key={c.id} value={i}>
              {c.title}
            </option>
          ))}
        </select>
      ) : (
        <span className={styles.category} title={current.title}>
          {current.title}
        </span>
      )}
      <span className={styles.place}>{position}</span>
    </div>
  );
}
