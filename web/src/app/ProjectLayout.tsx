import { lazy, memo, Suspense, useCallback, useEffect, useMemo, useState, type MouseEvent } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate, useParams } from 'react-router-dom';
import type { Project } from '@stat/schemas/projects';
import { SiteIcon } from '../components/SiteIcon';
import { Notice, Spinner } from '../components/ui';
import { projectTitle } from '../lib/format';
import { calls } from '../data/calls';
import { ratingReportsAllowed } from '../data/rating';
import { loginAddress, statusOf } from '../lib/api';
import { copyText } from '../lib/browser';
import { useRequest } from '../lib/hooks';
import { ErrorPage } from '../pages/ErrorPage';
import { ICONS } from './icons';
import { takeEarlyProject } from './preload';
import { isRestrictedUser, isStaffLike, visibleMenu } from './menu';
import { DEMO_PROJECT_ID, ProjectContext, type ProjectContextValue } from './project';
import { useSession } from './session';
import { useSnackbar } from './Snackbar';
import { GLOBAL_FILTERS } from '../reports/filters/params';
import styles from './ProjectLayout.module.css';

const ProjectSwitcher = lazy(() => import('./ProjectSwitcher'));

/** Query parameters a report link carries over, so the period and the chosen accuracy stay when switching reports. */
// The global filters too (§3 "Global state"); a table's metric filters stay with its report.
const CARRIED_PARAMS = ['dateStart', 'dateEnd', 'groupBy', 'sample', GLOBAL_FILTERS] as const;

function carriedQuery(search: string): string {
  const from = new URLSearchParams(search);
  const to = new URLSearchParams();
  for (const key of CARRIED_PARAMS) {
    const value = from.get(key);
    if (value !== null) to.set(key, value);
  }
  const text = to.toString();
  return text ? `?${text}` : '';
}

/**
 * A project's pages: the project is read first (spec 000 §4 "Report pages load: project, …"),
 * then the project header (spec 000 §2.4), the report menu and the page itself. Visitors who are
 * not logged in may read only the demo project; others go to the login page. The demo project
 * shows while the session is still being read, and its reports while the project is.
 */
export function ProjectLayout() {
  const { projectId = '' } = useParams();
  const session = useSession();
  const location = useLocation();
  const valid = /^[1-9]\d{0,9}$/.test(projectId);
  const isDemo = Number(projectId) === DEMO_PROJECT_ID;
  // The demo is public: its pages do not wait for the session (a logged-in user's own view of it
  // is read again once the session is known, the key below changing with the user).
  const ready = valid && (session.state.status === 'user' || isDemo);
  const request = useRequest(ready ? `${projectId}:${session.user?.id ?? 0}` : null, (signal) => {
    const again = () => calls.project(projectId, { signal });
    return takeEarlyProject(projectId, again) ?? again();
  });
  const [current, setCurrent] = useState<Project | null>(null);
  useEffect(() => {
    if (request.data) setCurrent(request.data);
  }, [request.data]);
  const project = current && String(current.id) === projectId ? current : request.data;
  const { reload } = request;
  const setProject = useCallback((p: Project) => setCurrent(p), []);
  const reloadProject = useCallback(() => reload(), [reload]);
  const context = useMemo<ProjectContextValue | null>(() => (project ? { project, setProject, reload: reloadProject } : null), [project, setProject, reloadProject]);

  if (!valid) return <ErrorPage status={404} />;
  if (session.state.status === 'anonymous' && !isDemo) {
    return <Navigate to={loginAddress(`${location.pathname}${location.search}${location.hash}`)} replace />;
  }
  if (request.error !== undefined && !project) {
    const status = statusOf(request.error);
    if (status === 401) return <LayoutSkeleton />;
    if (status === 404) return <ErrorPage status={404} text="Счётчик не найден" />;
    return <ErrorPage status={status || 500} />;
  }
  const loaded = context !== null && project !== undefined && String(project.id) === projectId;
  // A report of the demo project (not its rating, which reads the project's categories) needs
  // nothing of the project: it shows, and draws its graph, while the project is still read; the
  // header and the menu fill in when the project comes (the same frame: the report stays).
  if (!loaded && !(isDemo && earlyReport(location.pathname))) return <LayoutSkeleton />;

  return (
    <ProjectContext.Provider value={loaded ? context : null}>
      <ProjectFrame project={loaded ? project : null} />
    </ProjectContext.Provider>
  );
}

/** A report page whose view shows before its project is read (the demo's): every report but the rating. */
function earlyReport(pathname: string): boolean {
  const name = /\/new\/report\/([a-z_]+)\/?$/.exec(pathname)?.[1];
  return name !== undefined && name !== 'rating';
}

/** The project's header, its menu and the page; their skeletons until the project comes (the page the same element throughout). */
function ProjectFrame({ project }: { readonly project: Project | null }) {
  const [switcherOpen, setSwitcherOpen] = useState(false);
  const openSwitcher = useCallback(() => setSwitcherOpen(true), []);
  // The page is one element for the frame's life: a new project answer, session or address
  // re-renders the frame, not the report below it (the page follows its route and the project
  // through their contexts).
  const page = useMemo(() => <Outlet />, []);
  return (
    <div className={styles.layout} {...(project ? {} : { 'aria-busy': true })}>
      {project ? <ProjectBar project={project} onSwitcher={openSwitcher} /> : <BarSkeleton />}
      {project?.deleted ? (
        <Notice tone="danger">
          Счётчик удален. Восстановить его можно в <Link to="/stat/projects/deleted">списке удаленных сайтов</Link>.
        </Notice>
      ) : null}
      <div className={styles.body}>
        {project ? <ProjectMenu project={project} /> : <MenuSkeleton />}
        <div className={styles.content}>{page}</div>
      </div>
      {switcherOpen && project ? (
        <Suspense fallback={null}>
          <ProjectSwitcher currentId={project.id} onClose={() => setSwitcherOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}

/** The project bar (spec 000 §2.4): «Мои сайты», the site's title and address, its id and settings. */
const ProjectBar = memo(function ProjectBar({ project, onSwitcher }: { readonly project: Project; readonly onSwitcher: () => void }) {
  const { user } = useSession();
  const snackbar = useSnackbar();
  const base = `/stat/projects/${project.id}`;
  const canEdit = project.can_edit_project;
  const copyId = () => {
    void copyText(String(project.id)).then((ok) => ok && snackbar('Id проекта скопирован'));
  };
  return (
    <div className={styles.projectBar} data-testid="project-bar">
      {user ? (
        <button type="button" className={styles.mySites} onClick={onSwitcher} data-testid="switcher-open">
          Мои сайты
          {ICONS.chevronDown}
        </button>
      ) : (
        <Link to="/stat/projects" className={styles.mySites}>
          Мои сайты
        </Link>
      )}
      <span className={styles.sep} aria-hidden="true" />
      <span className={styles.projectTitle} title={projectTitle(project.title)}>
        <SiteIcon favicon={project.favicon} size={18} />
        <span className={styles.titleText} data-testid="project-title">
          {projectTitle(project.title)}
        </span>
      </span>
      <a className={styles.siteLink} href={project.url} target="_blank" rel="noopener noreferrer" data-testid="project-url">
        {project.cleanedUrl || project.url}
        {ICONS.external}
      </a>
      <span className={styles.idBlock}>
        <Link to={canEdit ? `${base}/settings/counter` : `${base}/dashboard`} className={styles.projectId} data-testid="project-id">
          Счётчик {project.id}
        </Link>
        <button type="button" className={styles.iconButton} onClick={copyId} title="Скопировать id проекта" aria-label="Скопировать id проекта" data-testid="copy-id">
          {ICONS.copy}
        </button>
      </span>
      {canEdit ? (
        <Link to={`${base}/settings/counter`} className={styles.gear} title="Настройки сайта" aria-label="Настройки сайта" data-testid="project-settings">
          {ICONS.gear}
        </Link>
      ) : null}
    </div>
  );
});

/** The report menu of the project, as the user may see it: drawn again only when the project, the user or the address changes. */
const ProjectMenu = memo(function ProjectMenu({ project }: { readonly project: Project }) {
  const { user } = useSession();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const base = `/stat/projects/${project.id}`;
  const carried = carriedQuery(search);
  // Plain links followed by the router (what a NavLink does, without the price of one per item
  // on every drawing of the menu: each works out and matches its own address).
  const follow = useCallback(
    (event: MouseEvent<HTMLAnchorElement>) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      void navigate(event.currentTarget.getAttribute('href') ?? base);
    },
    [navigate, base],
  );
  const menu = visibleMenu({
    availableReports: project.available_reports,
    restricted: isRestrictedUser(user?.email),
    staff: isStaffLike(user),
    canEdit: project.can_edit_project,
    ratingAllowed: ratingReportsAllowed(project.status, project.id),
  });
  return (
    <nav className={styles.menu} aria-label="Меню проекта" data-testid="report-menu">
      {menu.map((group, i) => (
        <div key={group.title ?? i} className={styles.menuGroup}>
          {group.title ? <div className={styles.menuTitle}>{group.title}</div> : null}
          {group.items.map((item) => {
            const path = `${base}/${item.to}`;
            const active = pathname === path || pathname.startsWith(`${path}/`);
            return (
              <a
                key={item.to}
                href={`${path}${item.carry ? carried : ''}`}
                onClick={follow}
                className={active ? `${styles.menuItem} ${styles.menuActive}` : styles.menuItem}
                {...(active ? { 'aria-current': 'page' as const } : {})}
              >
                {item.label}
              </a>
            );
          })}
        </div>
      ))}
    </nav>
  );
});

function BarSkeleton() {
  return (
    <div className={styles.projectBar}>
      <span className="skeleton" style={{ width: 90, height: 18 }} />
      <span className="skeleton" style={{ width: 220, height: 18 }} />
      <span className="skeleton" style={{ width: 140, height: 18 }} />
    </div>
  );
}

function MenuSkeleton() {
  return (
    <div className={styles.menu}>
      {[70, 120, 100, 130, 80, 110].map((w, i) => (
        <span key={i} className="skeleton" style={{ width: w, height: 16, margin: '8px 10px' }} />
      ))}
    </div>
  );
}

/** The layout's shape while the project loads: no jump when it arrives. */
function LayoutSkeleton() {
  return (
    <div className={styles.layout} aria-busy="true">
      <BarSkeleton />
      <div className={styles.body}>
        <MenuSkeleton />
        <div className={styles.contentLoading}>
          <Spinner size={28} label="Загрузка" />
        </div>
      </div>
    </div>
  );
}
