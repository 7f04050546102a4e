import { useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { METRIC_INFO, type Metric } from '@stat/schemas/catalogue';
import type { CurrentUser } from '@stat/schemas/accounts';
import { DEMO_PROJECT_ID, ProjectContext } from '../../app/project';
import { useOptionalSession } from '../../app/session';
import { useSnackbar } from '../../app/Snackbar';
import { Modal } from '../../components/Modal';
import { Button } from '../../components/ui';
import {
  closeAllHints,
  closeMetaTip,
  closeReportHint,
  countView,
  metaTipOf,
  openReportHint,
  reportHintShown,
  type HintState,
  type MetaTip,
} from '@stat/schemas/hints';
import { calls } from '../../data/calls';
import { GUEST_HINTS_KEY, META_TIP_TEXTS, readHints, writeHints } from './hints';
import styles from './ReportHints.module.css';

/** What the report header knows of its report, for the hints. */
export interface HintSubject {
  readonly name: string;
  readonly title: string;
  readonly hint?: string;
  readonly metrics: readonly Metric[];
  /** the meta tips that apply to this report's tools */
  readonly tips: readonly MetaTip[];
}

/** The documentation page of a report's «Узнать подробнее» (§2: its own for usability and custom_vars). */
function docsOf(report: string): string {
  return report === 'usability' || report === 'custom_vars' ? `/stat/docs/${report}` : '/stat/docs';
}

/**
 * A user's hint state and how to change it; the state is null while the session is still being
 * read (whose state it is, the visitor's in this browser or the user's on the server, is not known).
 */
export type Hints = readonly [HintState | null, (edit: (s: HintState) => HintState) => void];

/**
 * Where a user's hint state lives: a logged-in user's on the server (read with the session, kept
 * here for the page's life so every report sees the latest without asking again), a visitor's in
 * this browser.
 */
interface HintStore {
  read(): HintState;
  write(state: HintState): void;
}

const serverHints = new Map<number, HintState>();

function hintStoreOf(user: CurrentUser | null): HintStore {
  if (!user) return { read: () => readHints(GUEST_HINTS_KEY), write: (state) => writeHints(GUEST_HINTS_KEY, state) };
  return {
    read: () => serverHints.get(user.id) ?? user.hints,
    write: (state) => {
      serverHints.set(user.id, state);
      // A lost write only shows a hint again: the page goes on.
      calls.saveHints(state).catch((error: unknown) => console.warn('hints not saved:', error));
    },
  };
}

/**
 * The user's hint state; a report page counts as one view when it opens. Until the session is
 * known (a report of the demo project shows before it is) there is no state: no hint shows and no
 * view is counted, so a logged-in user never sees for a moment a hint they closed, nor counts a
 * view for this browser's visitor.
 */
export function useHintState(report: string): Hints {
  const session = useOptionalSession();
  // Outside the session provider (a view rendered alone) nobody is logged in.
  const known = session === null || session.state.status !== 'loading';
  const user = session?.user ?? null;
  const store = useMemo(() => (known ? hintStoreOf(user) : null), [known, user?.id]); // eslint-disable-line react-hooks/exhaustive-deps
  // The state with the store it is of: a state of another store (before the session changed) is none.
  const [held, setHeld] = useState<{ readonly store: HintStore | null; readonly state: HintState | null }>(() => ({ store, state: store?.read() ?? null }));
  useEffect(() => {
    if (!store) return;
    const before = store.read();
    const counted = countView(before);
    if (counted !== before) store.write(counted);
    // This page's tip is chosen by the views before it: the view is counted, the tip stays.
    setHeld({ store, state: { ...counted, views: before.views } });
  }, [store, report]);
  const state = held.store === store ? held.state : null;
  // Written in the click's own handler, not in a state updater (which React may run later, or twice).
  const current = useRef(state);
  current.current = state;
  const update = useCallback(
    (edit: (s: HintState) => HintState) => {
      if (!store || !current.current) return;
      const next = edit(current.current);
      store.write({ ...next, views: store.read().views });
      current.current = next;
      setHeld({ store, state: next });
    },
    [store],
  );
  return [state, update] as const;
}

/**
 * The hints of a report page (spec 001 §2 "Hints"): the demo project's message, always shown; the
 * report's hint with «Узнать подробнее», «Закрыть» and «Закрыть все подсказки» (a «?» at the title
 * brings it back); one meta tip on the tools while the user is new to the reports.
 */
export function ReportHints({ subject, hints: [state, update] }: { readonly subject: HintSubject; readonly hints: Hints }) {
  const [details, setDetails] = useState(false);
  const snackbar = useSnackbar();
  // The address names the project before it is read (a demo report shows before): no jump when it comes.
  const params = useParams();
  const projectId = useContext(ProjectContext)?.project.id ?? Number(params.projectId);
  const filling = useDemoFilling(projectId === DEMO_PROJECT_ID);
  const shown = state !== null && subject.hint !== undefined && reportHintShown(state, subject.name);
  const tip = state === null ? null : metaTipOf(state, subject.tips);

  return (
    <>
      {projectId === DEMO_PROJECT_ID ? (
        <div className={styles.demo} data-testid="demo-hint">
          <p className={styles.text}>
            Это демонстрационный сайт: его данные похожи на настоящие, и здесь можно открыть любой отчёт. Чтобы видеть статистику своего сайта,
            добавьте его и установите счётчик.
            {filling ? (
              <span data-testid="demo-filling"> Данные демо-сайта ещё загружаются, начиная с самых ранних дней: через несколько минут отчёты будут полными.</span>
            ) : null}
          </p>
          <Link className={styles.demoLink} to="/stat/create">
            Добавить сайт
          </Link>
        </div>
      ) : null}
      {shown ? (
        <div className={styles.hint} data-testid="report-hint">
          <p className={styles.text}>{subject.hint}</p>
          <div className={styles.actions}>
            <Button variant="link" size="s" onClick={() => setDetails(true)} data-testid="hint-more">
              Узнать подробнее
            </Button>
            <Button variant="link" size="s" onClick={() => update((s) => closeReportHint(s, subject.name))} data-testid="hint-close">
              Закрыть
            </Button>
            <Button
              variant="link"
              size="s"
              onClick={() => {
                update(closeAllHints);
                snackbar('Подсказки скрыты. Подсказку отчёта можно открыть снова кнопкой «?» у заголовка.');
              }}
              data-testid="hint-close-all"
            >
              Закрыть все подсказки
            </Button>
          </div>
        </div>
      ) : null}
      {tip ? (
        <div className={styles.tip} data-testid="meta-tip" data-tip={tip}>
          <span className={styles.tipLabel}>Совет</span>
          <p className={styles.text}>{META_TIP_TEXTS[tip]}</p>
          <Button variant="link" size="s" onClick={() => update((s) => closeMetaTip(s, tip))} data-testid="tip-close">
            Понятно
          </Button>
        </div>
      ) : null}
      {details ? <HintDetails subject={subject} onClose={() => setDetails(false)} /> : null}
    </>
  );
}

/** The «?» beside a report's title when its hint is hidden: shows it again. */
export function HintReopen({ subject, hints: [state, update] }: { readonly subject: HintSubject; readonly hints: Hints }) {
  if (state === null || subject.hint === undefined || reportHintShown(state, subject.name)) return null;
  return (
    <button type="button" className={styles.reopen} title="Показать подсказку" aria-label="Показать подсказку" onClick={() => update((s) => openReportHint(s, subject.name))} data-testid="hint-reopen">
      ?
    </button>
  );
}

/** «Узнать подробнее»: what the report shows and what each of its metrics counts. */
function HintDetails({ subject, onClose }: { readonly subject: HintSubject; readonly onClose: () => void }) {
  return (
    <Modal
      title={subject.title}
      onClose={onClose}
      width={640}
      data-testid="hint-details"
      footer={
        <Button variant="primary" onClick={onClose}>
          Закрыть
        </Button>
      }
    >
      {subject.hint ? <p className={styles.lead}>{subject.hint}</p> : null}
      {/* Above the list: the first link takes the focus, and a long list must not scroll to it. */}
      <p className={styles.docs}>
        Как считается каждый показатель — ниже; как установить счётчик и разметить сайт — в{' '}
        <Link to={docsOf(subject.name)} onClick={onClose}>
          документации
        </Link>
        .
      </p>
      <h3 className={styles.subtitle}>Показатели отчёта</h3>
      <dl className={styles.metrics}>
        {subject.metrics.map((m) => (
          <div key={m} className={styles.metric}>
            <dt>{METRIC_INFO[m].title}</dt>
            <dd>{METRIC_INFO[m].about}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}

/**
 * Whether the server said the demo is filled, for the page's life: a fill that ended does not
 * start again while the service runs, so later demo reports need not ask.
 */
let demoFilled = false;

/** For tests: forgets that the demo is filled, as a new page would. */
export function forgetDemoFilled(): void {
  demoFilled = false;
}

/**
 * Whether the demo's traffic is still being generated (an embedded service fills it for some
 * minutes after «ready», the oldest day first): asked when a demo report opens, and again every
 * 20 s while it is, until the server says it is done; a failed answer says nothing.
 */
function useDemoFilling(isDemo: boolean): boolean {
  const [filling, setFilling] = useState(false);
  useEffect(() => {
    if (!isDemo || demoFilled) return undefined;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = (): void => {
      calls.demoState().then(
        (state) => {
          if (state?.filling === false) demoFilled = true;
          if (!live) return;
          setFilling(state?.filling === true);
          if (state?.filling === true) timer = setTimeout(ask, DEMO_FILLING_POLL_MS);
        },
        () => undefined,
      );
    };
    ask();
    return () => {
      live = false;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [isDemo]);
  return filling;
}

const DEMO_FILLING_POLL_MS = 20_000;
