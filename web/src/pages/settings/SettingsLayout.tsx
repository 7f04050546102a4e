import { NavLink, Outlet } from 'react-router-dom';
import { useProject } from '../../app/project';
import { ErrorPage } from '../ErrorPage';
import styles from './Settings.module.css';

/** The site settings menu (spec 000 §2.2): counter, rating, access. */
const TABS = [
  { to: 'counter', label: 'Счётчик' },
  { to: 'rating', label: 'Рейтинг' },
  { to: 'access', label: 'Доступ' },
] as const;

/**
 * The frame of the settings pages: they need can_edit_project (the project's or the role's
 * permission), otherwise the 403 page (spec 000 §5).
 */
export default function SettingsLayout() {
  const { project } = useProject();
  if (!project.can_edit_project) return <ErrorPage status={403} />;
  return (
    <div className={styles.layout}>
      <header className={styles.header}>
        <h1 className={styles.heading}>Настройки сайта</h1>
        <nav className={styles.tabs} aria-label="Настройки сайта">
          {TABS.map((t) => (
            <NavLink key={t.to} to={t.to} className={({ isActive }) => (isActive ? `${styles.tab} ${styles.tabActive}` : styles.tab)} data-testid={`settings-tab-${t.to}`}>
              {t.label}
            </NavLink>
          ))}
        </nav>
      </header>
      <Outlet />
    </div>
  );
}
