import { ReportCard, ReportPage } from './ReportPage';
import styles from './ReportSkeleton.module.css';

/**
 * What a report shows while its code or the server time loads: the same blocks at the same
 * heights as the loaded report, so nothing moves when it arrives. Not the hint: whether it shows
 * is the user's choice, which the loaded report reads (a closed hint must not flash here).
 */
export function ReportSkeleton({ title }: { readonly title: string; readonly hint?: string }) {
  return (
    <ReportPage title={title}>
      <div className={styles.toolbar} aria-busy="true">
        <span className={`skeleton ${styles.pill}`} />
        <span className={`skeleton ${styles.pillShort}`} />
      </div>
      <ReportCard>
        <div className={styles.graph} aria-busy="true">
          <span className="skeleton" />
        </div>
      </ReportCard>
      <ReportCard flush>
        <div className={styles.table} aria-busy="true">
          {Array.from({ length: 8 }, (_v, i) => (
            <span key={i} className={`skeleton ${styles.row}`} />
          ))}
        </div>
      </ReportCard>
    </ReportPage>
  );
}
