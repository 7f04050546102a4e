import { useState } from 'react';
import { useUser } from '../../app/session';
import { Modal } from '../../components/Modal';
import { Button } from '../../components/ui';
import { REPORT_FAILED } from '../../data/messages';
import type { IsoDate } from '@stat/schemas/period';
import { ApiError, type DownloadedFile } from '../../lib/api';
import { formatIsoDate } from '../../lib/dates';
import styles from './CsvDownload.module.css';

/** Props of {@link CsvDownload}. */
export interface CsvDownloadProps {
  /** The report has rows to export (spec 001 §2: the button is disabled without data). */
  readonly hasData: boolean;
  /** The report and its period as the dialog names them. */
  readonly reportTitle: string;
  readonly period: { readonly start: IsoDate; readonly end: IsoDate };
  /** Fetches the file of the current report state. */
  readonly download: () => Promise<DownloadedFile>;
  /** The name when the answer gives none. */
  readonly fallbackName: string;
  /** The button's and the dialog's title (default «Скачать отчёт»). */
  readonly label?: string;
}

/** Hands a fetched file to the browser as a download. */
export function save(file: DownloadedFile, fallbackName: string): void {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName ?? fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the bytes once the click's task ends.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * «Скачать отчёт» (spec 001 §2 "Report page layout", §7 csv): shown only to a user with an
 * e-mail, disabled without data; it opens a dialog of type Csv with the user's e-mail, whose
 * button downloads the whole table of the report as it is set up now (period, grouping,
 * metrics, sort, filters).
 */
export function CsvDownload({ hasData, reportTitle, period, download, fallbackName, label = 'Скачать отчёт' }: CsvDownloadProps) {
  const user = useUser();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!user?.email) return null;

  const close = () => {
    if (busy) return;
    setOpen(false);
    setError(null);
  };
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      save(await download(), fallbackName);
      setOpen(false);
    } catch (e) {
      setError(e instanceof ApiError && e.status !== 500 && e.status !== 0 ? e.message : REPORT_FAILED);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button size="s" disabled={!hasData} onClick={() => setOpen(true)} data-testid="csv-button">
        <DownloadIcon />
        {label}
      </Button>
      {open ? (
        <Modal
          title={label}
          onClose={close}
          width={460}
          data-testid="csv-dialog"
          footer={
            <>
              <Button onClick={close} disabled={busy}>
                Отменить
              </Button>
              <Button variant="primary" onClick={() => void start()} busy={busy} data-testid="csv-download">
                Скачать CSV
              </Button>
            </>
          }
        >
          <p className={styles.text}>
            «{reportTitle}» за {period.start === period.end ? formatIsoDate(period.start) : `${formatIsoDate(period.start)} – ${formatIsoDate(period.end)}`}: вся таблица с итогами, по всем данным (без выборки), в формате CSV — разделитель «;»,
            дробная часть через запятую.
          </p>
          <p className={styles.text}>
            Отчёт для <strong data-testid="csv-email">{user.email}</strong>
          </p>
          {error ? (
            <p className={styles.error} role="alert">
              {error}
            </p>
          ) : null}
        </Modal>
      ) : null}
    </>
  );
}

function DownloadIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <path d="M8 2v8M4.5 6.75 8 10.25l3.5-3.5M2.5 13.5h11" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
