import type { ReactNode } from 'react';
import { ProjectPageTitle } from '../../app/ProjectPageTitle';
import { HintReopen, ReportHints, useHintState, type HintSubject } from './ReportHints';
import styles from './ReportPage.module.css';

/** Props of {@link ReportPage}. */
export interface ReportPageProps {
  readonly title: string;
  readonly hint?: string;
  /** The project id, for the browser tab's title (spec 001 §2); the project layout's when absent. */
  readonly subtitle?: string;
  /** Buttons at the end of the header (spec 001 §2: «Скачать отчёт»). */
  readonly actions?: ReactNode;
  /** The report, for its hints (§2 "Hints"); without it the hint is plain text under the title. */
  readonly hints?: Omit<HintSubject, 'title' | 'hint'>;
  readonly children: ReactNode;
}

/** The frame of every report: title, hints, then toolbar, graphs and table as children. */
export function ReportPage({ title, hint, subtitle, actions, hints, children }: ReportPageProps) {
  return (
    <article className={styles.page}>
      <ProjectPageTitle title={title} {...(subtitle ? { projectId: subtitle } : {})} />
      {hints ? (
        <WithHints subject={{ ...hints, title, ...(hint ? { hint } : {}) }} title={title} actions={actions} />
      ) : (
        <header className={styles.header}>
          <div className={styles.titleRow}>
            <h1 className={styles.title}>{title}</h1>
            {actions ? <div className={styles.actions}>{actions}</div> : null}
          </div>
          {hint ? <p className={styles.hint}>{hint}</p> : null}
        </header>
      )}
      {children}
    </article>
  );
}

/** The header of a report page with its hints: one state for the «?» and the panels. */
function WithHints({ subject, title, actions }: { readonly subject: HintSubject; readonly title: string; readonly actions: ReactNode }) {
  const hints = useHintState(subject.name);
  return (
    <>
      <header className={`${styles.header} ${styles.headerTight}`}>
        <div className={styles.titleRow}>
          <h1 className={styles.title}>{title}</h1>
          <HintReopen subject={subject} hints={hints} />
          {actions ? <div className={styles.actions}>{actions}</div> : null}
        </div>
      </header>
      <ReportHints subject={subject} hints={hints} />
    </>
  );
}

/** A white card holding one block of a report (a graph, a table). */
export function ReportCard({ children, flush = false }: { readonly children: ReactNode; readonly flush?: boolean }) {
  return <section className={flush ? `${styles.card} ${styles.flush}` : styles.card}>{children}</section>;
}
