import { NavLink, Outlet, useLocation, useParams } from 'react-router-dom';
import { ErrorPage } from '../pages/ErrorPage';
import { useSnackbar } from './Snackbar';
import styles from './ProjectLayout.module.css';

/** Query parameters a report link carries over, so the period stays when switching reports. */
const CARRIED_PARAMS = ['dateStart', 'dateEnd', 'groupBy'] as const;

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

interface MenuItem {
  readonly to: string;
  readonly label: string;
  /** Keep the period in the link (report pages). */
  readonly carry?: boolean;
}

const MENU: ReadonlyArray<{ readonly title?: string; readonly items: readonly MenuItem[] }> = [
  { items: [{ to: 'dashboard', label: 'Дашборд' }] },
  { title: 'Отчёты', items: [{ to: 'new/report/summary', label: 'Посещаемость', carry: true }] },
  {
    title: 'Инструменты',
    items: [
      { to: 'constructor', label: 'Конструктор отчётов' },
      { to: 'goals', label: 'Цели' },
      { to: 'conversions', label: 'Конверсии' },
      { to: 'funnels', label: 'Воронки' },
    ],
  },
  { title: 'Сайт', items: [{ to: 'settings/counter', label: 'Настройки' }] },
];

/** A project's pages: the project header (spec 000 §2.4), the report menu and the page itself. */
export function ProjectLayout() {
  const { projectId = '' } = useParams();
  const { search } = useLocation();
  const snackbar = useSnackbar();
  if (!/^[1-9]\d{0,18}$/.test(projectId)) return <ErrorPage status={404} />;

  const base = `/stat/projects/${projectId}`;
  const copyId = () => {
    void navigator.clipboard?.writeText(projectId).then(
      () => snackbar('Id проекта скопирован'),
      () => undefined,
    );
  };

  return (
    <div className={styles.layout}>
      <div className={styles.projectBar}>
        <NavLink to="/stat/projects" className={styles.mySites}>
          Мои сайты
        </NavLink>
        <span className={styles.sep} aria-hidden="true">
          /
        </span>
        <span className={styles.projectId}>
          Счётчик <b>{projectId}</b>
        </span>
        <button type="button" className={styles.copy} onClick={copyId} title="Скопировать id проекта" aria-label="Скопировать id проекта">
          <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
            <rect x="5" y="5" width="8.5" height="8.5" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
            <path d="M3 10.5V3.8C3 3.36 3.36 3 3.8 3h6.7" fill="none" stroke="currentColor" strokeWidth="1.4" />
          </svg>
        </button>
      </div>
      <div className={styles.body}>
        <nav className={styles.menu} aria-label="Меню проекта">
          {MENU.map((group, i) => (
            <div key={group.title ?? i} className={styles.menuGroup}>
              {group.title ? <div className={styles.menuTitle}>{group.title}</div> : null}
              {group.items.map((item) => (
                <NavLink
                  key={item.to}
                  to={`${base}/${item.to}${item.carry ? carriedQuery(search) : ''}`}
                  className={({ isActive }) => (isActive ? `${styles.menuItem} ${styles.menuActive}` : styles.menuItem)}
                >
                  {item.label}
                </NavLink>
              ))}
            </div>
          ))}
        </nav>
        <div className={styles.content}>
          <Outlet />
        </div>
      </div>
    </div>
  );
}
