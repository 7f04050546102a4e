import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { COUNTER_STATUS } from '@stat/schemas/site';
import type { Project } from '@stat/schemas/projects';
import { calls } from '../../data/calls';
import { CounterCode, codeOptionsOf } from '../../pages/settings/CounterCode';
import { ReportCard } from './ReportPage';
import styles from './CounterPending.module.css';

/** How often a site without hits asks whether its first one arrived. */
const COUNTER_POLL_MS = 10_000;

/**
 * What a report of a site whose counter has sent nothing yet shows instead of empty graphs and
 * zero tables (issue 11): the counter's status, its install code, the way to its settings; and it
 * asks every few seconds, while the tab is visible, whether the first hit arrived, then reloads
 * the project so that the report takes its place by itself.
 */
export function CounterPending({ project, onSeen }: { readonly project: Project; readonly onSeen: () => void }) {
  useEffect(() => {
    let stopped = false;
    const check = async () => {
      if (document.visibilityState !== 'visible') return;
      try {
        const found = await calls.counterCheck(project.id);
        if (found.seen && !stopped) onSeen();
      } catch {
        // A failed check is tried again at the next tick; the page stays as it is.
      }
    };
    const timer = window.setInterval(() => void check(), COUNTER_POLL_MS);
    const onVisible = () => void check();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [project.id, onSeen]);

  return (
    <ReportCard>
      <div className={styles.root} data-testid="counter-pending">
        <div className={styles.status}>
          <span className={styles.icon} aria-hidden="true">
            !
          </span>
          <div>
            <h2 className={styles.title}>{COUNTER_STATUS.unset}</h2>
            <p className={styles.text}>
              Счётчик сайта ещё не прислал ни одного визита. Установите код на все страницы сайта: отчёт появится здесь сам, как только придёт первый
              визит.
            </p>
          </div>
        </div>
        <CounterCode projectId={project.id} options={codeOptionsOf(project.counter_settings)} />
        <p className={styles.text}>
          Параметры кода и проверка установки — в <Link to={`/stat/projects/${project.id}/settings/counter`}>настройках счётчика</Link>.
        </p>
      </div>
    </ReportCard>
  );
}
