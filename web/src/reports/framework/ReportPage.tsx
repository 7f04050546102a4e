import type { ReactNode } from 'react';
import styles from './ReportPage.module.css';

/** Props of {@link ReportPage}. */
export interface ReportPageProps {
  readonly title: string;
  readonly hint?: string;
  /** Shown in the browser tab after the title (the project id). */
  readonly subtitle?: string;
  /** Buttons at the end of the header (spec 001 §2: «Скачать отчёт»). */
  readonly actions?: ReactNode;
  readonly children: ReactNode;
}

/** The frame of every report: title, hint, then toolbar, graphs and table as children. */
export function ReportPage({ title, hint, subtitle, actions, children }: ReportPageProps) {
  return (
    <article className={styles.page}>
      <title>{subtitle ? `${title} – ${subtitle} – Статистика` : `${title} – Статистика`}</title>
      <header className={styles.header}>
        <div className={styles.titleRow}>
          <h1 className={styles.title}>{title}</h1>
          {actions ? <div className={styles.actions}>{actions}</div> : null}
        </div>
        {hint ? <p className={styles.hint}>{hint}</p> : null}
      </header>
      {children}
    </article>
  );
}

/** A white card holding one block of a report (a graph, a table). */
export function ReportCard({ children, flush = false }: { readonly children: ReactNode; readonly flush?: boolean }) {
  return <section className={flush ? `${styles.card} ${styles.flush}` : styles.card}>{children}</section>;
}
