import { useState } from 'react';
import { EXPORT_DEFAULT_LIMIT, EXPORT_FIELD_INFO, EXPORT_FIELDS, exportLimitOf, type ExportField, type ExportLink } from '@stat/schemas/export';
import { useProject } from '../../app/project';
import { useSnackbar } from '../../app/Snackbar';
import { Badge, Button, Checkbox, Field, Panel, TextInput } from '../../components/ui';
import { calls } from '../../data/calls';
import { ApiError } from '../../lib/api';
import { copyText } from '../../lib/browser';
import { formatIsoDate } from '../../lib/dates';
import { useServerClock } from '../../reports/framework/hooks';
import styles from './ExportPage.module.css';
import { ProjectPageTitle } from '../../app/ProjectPageTitle';

/**
 * «Выгрузка данных» (spec 002 §2, staff only): a period, a limit and fields give a data address
 * that streams the project's raw events as CSV for 7 days; the address is shown or hidden and
 * copied. What the file holds: the time (Moscow), the hit's type and page, then the fields.
 */
export default function ExportPage() {
  const { project } = useProject();
  const clock = useServerClock();
  const snackbar = useSnackbar();
  const today = clock?.today ?? null;
  const [dates, setDates] = useState<{ start: string; end: string } | null>(null);
  const [limitText, setLimitText] = useState(String(EXPORT_DEFAULT_LIMIT));
  const [fields, setFields] = useState<ExportField[]>([]);
  const [link, setLink] = useState<ExportLink | null>(null);
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const period = dates ?? (today ? { start: today, end: today } : null);

  const toggle = (field: ExportField, on: boolean) => {
    setFields((current) => EXPORT_FIELDS.filter((f) => (f === field ? on : current.includes(f))));
    setLink(null);
  };
  const make = async () => {
    if (!period) return;
    setBusy(true);
    setError(null);
    try {
      const limit = exportLimitOf(limitText);
      setLimitText(String(limit));
      setLink(await calls.exportLink(project.id, { date_start: period.start, date_end: period.end, limit, fields }));
      setShown(true);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Не удалось получить ссылку');
    } finally {
      setBusy(false);
    }
  };
  const copy = () => {
    if (link) void copyText(link.url).then((ok) => snackbar(ok ? 'Скопировано' : 'Не удалось скопировать: выделите ссылку и скопируйте вручную'));
  };

  return (
    <div className={styles.page} data-testid="export-page">
      <ProjectPageTitle title="Выгрузка данных" />
      <h1 className={styles.title}>
        Выгрузка данных <Badge tone="accent">Бета</Badge>
      </h1>
      <Panel description="Сырые события сайта за период в файле CSV (точка с запятой, кодировка UTF-8): время по Москве, тип события, адрес страницы и выбранные поля. Ссылка действует 7 дней, открыть её может любой, у кого она есть.">
        <div className={styles.form}>
          <div className={styles.row}>
            <Field label="Начало периода" htmlFor="export-start">
              <TextInput
                id="export-start"
                type="date"
                value={period?.start ?? ''}
                max={period?.end ?? undefined}
                disabled={!period}
                onChange={(e) => period && e.target.value && (setDates({ start: e.target.value, end: period.end < e.target.value ? e.target.value : period.end }), setLink(null))}
                data-testid="export-start"
              />
            </Field>
            <Field label="Конец периода" htmlFor="export-end">
              <TextInput
                id="export-end"
                type="date"
                value={period?.end ?? ''}
                min={period?.start ?? undefined}
                max={today ?? undefined}
                disabled={!period}
                onChange={(e) => period && e.target.value && (setDates({ start: period.start > e.target.value ? e.target.value : period.start, end: e.target.value }), setLink(null))}
                data-testid="export-end"
              />
            </Field>
            <Field label="Количество строк" htmlFor="export-limit" hint="Только цифры">
              <TextInput
                id="export-limit"
                inputMode="numeric"
                value={limitText}
                // Digits only (§5); a value that is no number becomes 1 when the field is left.
                onChange={(e) => (setLimitText(e.target.value.replace(/\D+/g, '')), setLink(null))}
                onBlur={() => setLimitText(String(exportLimitOf(limitText)))}
                data-testid="export-limit"
              />
            </Field>
          </div>
          <fieldset className={styles.fields}>
            <legend className={styles.legend}>Поля</legend>
            {EXPORT_FIELDS.map((field) => {
              const info = EXPORT_FIELD_INFO[field];
              return (
                <Checkbox
                  key={field}
                  checked={fields.includes(field)}
                  disabled={!info.collected}
                  onChange={(on) => toggle(field, on)}
                  description={info.collected ? field : `${field} — не собирается`}
                  data-testid={`export-field-${field}`}
                >
                  {info.title}
                </Checkbox>
              );
            })}
          </fieldset>
          <div className={styles.actions}>
            <Button variant="primary" busy={busy} disabled={!period} onClick={() => void make()} data-testid="export-make">
              Получить ссылку
            </Button>
            {error ? (
              <span className={styles.error} role="alert">
                {error}
              </span>
            ) : null}
          </div>
          {link ? (
            <div className={styles.link} data-testid="export-link">
              <div className={styles.linkRow}>
                <code className={styles.url} data-testid="export-url">
                  {shown ? link.url : '•'.repeat(48)}
                </code>
                <Button size="s" onClick={() => setShown((s) => !s)} data-testid="export-show">
                  {shown ? 'Скрыть ссылку' : 'Показать ссылку'}
                </Button>
                <Button size="s" onClick={copy} data-testid="export-copy">
                  Скопировать
                </Button>
              </div>
              <p className={styles.note}>
                Действует до {formatIsoDate(link.expires_at.slice(0, 10))}. Файл: строк не больше {limitText}, за {period ? `${formatIsoDate(period.start)} – ${formatIsoDate(period.end)}` : ''}.
              </p>
            </div>
          ) : null}
        </div>
      </Panel>
    </div>
  );
}
