import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import styles from './ErrorPage.module.css';
import { PageTitle } from '../app/PageTitle';

/** The statuses that have their own error page (spec 000 §2.9). */
export type ErrorStatus = 400 | 403 | 404 | 500 | 504 | 507;

/** Title and text of each error page. Titles are the spec's; texts are ours. */
const ERROR_PAGES: Readonly<Record<ErrorStatus, { readonly title: string; readonly text: string }>> = {
  400: {
    title: 'Ошибка запроса',
    text: 'Сервер не смог разобрать запрос. Проверьте адрес страницы и параметры отчёта.',
  },
  403: {
    title: 'Доступ запрещен',
    text: 'У вас нет доступа к этой странице. Попросите владельца счётчика открыть вам доступ.',
  },
  404: {
    title: 'Страница не найдена',
    text: 'Возможно, она была удалена или в адресе есть ошибка.',
  },
  500: {
    title: 'Ошибка сервера',
    text: 'Что-то пошло не так. Попробуйте обновить страницу через несколько минут.',
  },
  504: {
    title: 'Шлюз не отвечает',
    text: 'Сервер не ответил вовремя. Попробуйте обновить страницу через несколько минут.',
  },
  507: {
    title: 'Превышен лимит памяти',
    text: 'Для отчёта за этот период не хватило памяти. Сократите период и попробуйте снова.',
  },
};

/** The error page shown for an HTTP status: its own for the statuses above, 500's otherwise. */
function errorStatusOf(status: number): ErrorStatus {
  return status in ERROR_PAGES ? (status as ErrorStatus) : status === 408 ? 504 : 500;
}

/** Props of {@link ErrorPage}. */
export interface ErrorPageProps {
  /** HTTP status; statuses without a page of their own show the 500 page. */
  readonly status: number;
  /** Replaces the default text (for instance the server's message). */
  readonly text?: string;
  /** Shown under the text: the 507 page puts a period picker here on report pages. */
  readonly children?: ReactNode;
  /** Inside a report (less vertical space) rather than a whole screen. */
  readonly compact?: boolean;
}

/**
 * An error page: illustration, title, text and the link «Мои сайты» to /stat/projects
 * (spec 000 §2.9).
 */
export function ErrorPage({ status, text, children, compact = false }: ErrorPageProps) {
  const page = ERROR_PAGES[errorStatusOf(status)];
  return (
    <section className={compact ? `${styles.page} ${styles.compact}` : styles.page} data-testid="error-page" data-status={status}>
      <PageTitle text={`${page.title} – Статистика`} />
      <ErrorIllustration status={status} />
      <h1 className={styles.title}>{page.title}</h1>
      <p className={styles.text}>{text ?? page.text}</p>
      {children ? <div className={styles.extra}>{children}</div> : null}
      <Link to="/stat/projects" className={styles.home}>
        Мои сайты
      </Link>
    </section>
  );
}

function ErrorIllustration({ status }: { readonly status: number }) {
  // A chart card with a broken line under the status code.
  return (
    <svg className={styles.illustration} viewBox="0 0 240 140" role="img" aria-label={`Ошибка ${status}`}>
      <rect x="30" y="8" width="180" height="124" rx="14" fill="var(--accent-softer)" stroke="var(--border)" />
      <text x="120" y="66" textAnchor="middle" fontSize="46" fontWeight="700" fill="var(--accent)" fontFamily="var(--font)">
        {status}
      </text>
      <path d="M52 112 L82 96 L104 104" fill="none" stroke="var(--accent)" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" opacity="0.45" />
      <path d="M136 100 L160 84 L188 92" fill="none" stroke="var(--accent)" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" opacity="0.45" />
      <path d="M114 96 l8 8 M122 96 l-8 8" stroke="var(--danger)" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}
