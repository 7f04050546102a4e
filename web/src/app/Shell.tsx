import type { ReactNode } from 'react';
import { Link, NavLink, Outlet } from 'react-router-dom';
import { FOOTER_LINKS } from './links';
import styles from './Shell.module.css';

/** The note every report page carries (spec 000 §1). */
export const MOSCOW_TIME_NOTE = 'Отчёты созданы по московскому времени (GMT+3)';

/** Logo: a mark in the accent colour and the product name. */
export function Logo() {
  return (
    <Link to="/stat/projects" className={styles.logo} aria-label="Статистика — мои сайты">
      <svg className={styles.logoMark} viewBox="0 0 24 24" aria-hidden="true">
        <rect width="24" height="24" rx="6" fill="currentColor" />
        <path d="M6.5 17v-4M12 17V7M17.5 17v-6.5" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" />
      </svg>
      <span className={styles.logoText}>Статистика</span>
    </Link>
  );
}

/** Header, content and footer around every screen (spec 000 §2.2). */
export function Shell({ children }: { readonly children?: ReactNode }) {
  return (
    <div className={styles.shell}>
      <header className={styles.header}>
        <div className={styles.headerInner}>
          <Logo />
          <nav className={styles.headerNav} aria-label="Основное меню">
            <NavLink to="/stat/projects" end className={({ isActive }) => (isActive ? styles.navActive : styles.navLink)}>
              Мои сайты
            </NavLink>
            <NavLink to="/stat/create" className={({ isActive }) => (isActive ? styles.navActive : styles.navLink)}>
              Добавить сайт
            </NavLink>
          </nav>
        </div>
      </header>
      <main className={styles.main}>{children ?? <Outlet />}</main>
      <footer className={styles.footer}>
        <div className={styles.footerInner}>
          <nav className={styles.footerLinks} aria-label="Информация">
            {FOOTER_LINKS.map((l) => (
              <a key={l.label} href={l.href}>
                {l.label}
              </a>
            ))}
          </nav>
          <div className={styles.footerMeta}>
            <span className={styles.timeNote}>{MOSCOW_TIME_NOTE}</span>
            <span className={styles.age} title="Возрастное ограничение">
              18+
            </span>
          </div>
        </div>
      </footer>
    </div>
  );
}
