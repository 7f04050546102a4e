import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { CONSTRUCTOR_APPLY_DELAY, CONSTRUCTOR_TEXTS, constructorDefinition, type ConstructorRequest, type ReportRequest } from '@stat/schemas/reports';
import { useSnackbar } from '../../app/Snackbar';
import { useUser } from '../../app/session';
import { Dropdown } from '../../components/Dropdown';
import { Button, Notice } from '../../components/ui';
import { useRequest } from '../../lib/hooks';
import { parsePeriod } from '../../lib/period';
import { DimensionReportBody, type DimensionReportExtras } from '../../reports/dimension/DimensionReport';
import { useServerClock } from '../../reports/framework/hooks';
import { ReportCard, ReportPage } from '../../reports/framework/ReportPage';
import { ReportSkeleton } from '../../reports/framework/ReportSkeleton';
import { createTemplate, downloadConstructorCsv, fetchConstructorGraph, fetchConstructorTable, fetchTemplate, updateTemplate } from './constructorApi';
import { canSave, daysInRange, parseSelection, templateBody, templateSearch, writeSelection, type Selection } from './query';
import { Sidebar } from './Sidebar';
import { modifiedTitle, TitleModal } from './TitleModal';
import styles from './ConstructorReport.module.css';

const HINT = 'Выберите показатели («Столбцы») и параметры («Строки») в панели «Настройки»; каждая строка раскрывается в значения следующего параметра.';

/**
 * `new/report/constructor` (spec 001 §4 "Constructor"): the report framework's page of a
 * drill-down report whose definition is made from the chosen dimensions, with the sidebar
 * «Настройки» and the saving of templates.
 */
export default function ConstructorReport({ projectId }: { readonly projectId: string }) {
  const clock = useServerClock();
  if (!clock) return <ReportSkeleton title={CONSTRUCTOR_TEXTS.title} />;
  return <ConstructorBody projectId={projectId} clock={clock} />;
}

function ConstructorBody({ projectId, clock }: { readonly projectId: string; readonly clock: NonNullable<ReturnType<typeof useServerClock>> }) {
  const [search, setSearch] = useSearchParams();
  const user = useUser();
  const snackbar = useSnackbar();
  const applied = useMemo(() => parseSelection(search), [search]);
  const appliedKey = JSON.stringify(applied);
  const templateId = Number(search.get('template')) || null;

  // The sidebar's choice, applied to the URL (and so requested) after the delays of §4.
  const [pending, setPending] = useState<Selection>(applied);
  useEffect(() => setPending(JSON.parse(appliedKey) as Selection), [appliedKey]);
  const pendingKey = JSON.stringify(pending);
  useEffect(() => {
    if (pendingKey === appliedKey) return undefined;
    const timer = setTimeout(() => setSearch((prev) => writeSelection(prev, JSON.parse(pendingKey) as Selection)), CONSTRUCTOR_APPLY_DELAY.items);
    return () => clearTimeout(timer);
  }, [pendingKey, appliedKey, setSearch]);

  const offset = Number(search.get('offset')) || 0;
  const limit = Number(search.get('limit')) || 10;
  const [pendingOffset, setPendingOffset] = useState(offset);
  useEffect(() => setPendingOffset(offset), [offset]);
  useEffect(() => {
    if (pendingOffset === offset) return undefined;
    const timer = setTimeout(
      () =>
        setSearch((prev) => {
          const next = new URLSearchParams(prev);
          if (pendingOffset > 0) next.set('offset', String(pendingOffset));
          else next.delete('offset');
          return next;
        }),
      CONSTRUCTOR_APPLY_DELAY.offset,
    );
    return () => clearTimeout(timer);
  }, [pendingOffset, offset, setSearch]);

  const onSelection = (next: Selection) => {
    if (next.viewType !== pending.viewType) {
      // The switch of view applies at once; the graph starts again from 10 rows (§4).
      setPending(next);
      setSearch((prev) => {
        const written = writeSelection(prev, next);
        written.delete('limit');
        return written;
      });
      return;
    }
    setPending(next);
  };
  const onLimit = (value: number) =>
    setSearch((prev) => {
      const next = new URLSearchParams(prev);
      if (value === 10) next.delete('limit');
      else next.set('limit', String(value));
      next.delete('offset');
      return next;
    });

  // An opened template: its title and, when it lost items, the notice (validated on load, §4).
  const template = useRequest(templateId === null || !user ? null : `template:${templateId}`, (signal) => fetchTemplate(templateId ?? 0, signal));
  const [dismissed, setDismissed] = useState<number | null>(null);
  useEffect(() => {
    // A bare link to a template (?template=id, no rows chosen): its query is written into the
    // URL. (Not by `metrics`: the report leaves the default metrics out of the URL.)
    const loaded = template.data;
    if (!loaded || search.has('dimensions')) return;
    setSearch(templateSearch(loaded), { replace: true });
  }, [template.data, search, setSearch]);

  const definition = useMemo(() => constructorDefinition(applied.dimensions), [applied.dimensions]);
  const extraBody = useMemo<Partial<ConstructorRequest>>(() => ({ dimensions: [...applied.dimensions] }), [applied.dimensions]);
  const source = useMemo<DimensionReportExtras['source']>(
    () => ({
      table: (body: ReportRequest, signal: AbortSignal) => fetchConstructorTable(projectId, body, signal),
      graph: (body: ReportRequest, signal: AbortSignal) => fetchConstructorGraph(projectId, body, signal),
      csv: (body: ReportRequest) => downloadConstructorCsv(projectId, body),
    }),
    [projectId],
  );

  const [dialog, setDialog] = useState<'new' | 'copy' | null>(null);
  const saveBody = () => {
    const { period } = parsePeriod(search, clock.today);
    return { body: templateBody(search, applied), days_in_range: daysInRange(period.start, period.end) };
  };
  const open = (id: number) =>
    setSearch((prev) => {
      const next = new URLSearchParams(prev);
      next.set('template', String(id));
      return next;
    });
  const saveNew = async (title: string) => {
    const created = await createTemplate({ title, ...saveBody() });
    setDialog(null);
    snackbar(CONSTRUCTOR_TEXTS.saved);
    open(created.id);
  };
  const saveOver = async () => {
    if (templateId === null) return;
    await updateTemplate(templateId, saveBody());
    template.reload();
    snackbar(CONSTRUCTOR_TEXTS.changed);
  };
  const onSaveOver = () => void saveOver().catch((error: unknown) => snackbar(error instanceof Error ? error.message : String(error)));

  const saveDisabled = !canSave(applied) || pendingKey !== appliedKey;
  // An opened template offers «save over» and «save as new» (§4); a choice that cannot be saved, neither.
  const saveButton = !user ? null : templateId !== null && template.data && !saveDisabled ? (
    <Dropdown
      label="Сохранить отчёт"
      trigger={<span data-testid="constructor-save">Сохранить отчёт</span>}
      triggerClassName={styles.saveTrigger}
      items={[
        { label: 'Сохранить текущий', onSelect: onSaveOver, 'data-testid': 'constructor-save-over' },
        { label: 'Сохранить как новый', onSelect: () => setDialog('copy'), 'data-testid': 'constructor-save-new' },
      ]}
    />
  ) : (
    <Button variant="primary" disabled={saveDisabled} onClick={() => setDialog('new')} data-testid="constructor-save">
      Сохранить отчёт
    </Button>
  );

  const notice =
    template.data?.notice && dismissed !== template.data.id ? (
      <Notice tone="warning" onClose={() => setDismissed(template.data?.id ?? null)} data-testid="constructor-notice">
        {template.data.notice}
      </Notice>
    ) : null;
  const title = template.data?.title ?? CONSTRUCTOR_TEXTS.title;

  return (
    <div className={styles.layout}>
      <div className={styles.main}>
        {canSave(applied) ? (
          <DimensionReportBody
            projectId={projectId}
            report={definition}
            clock={clock}
            hint={HINT}
            extras={{ source, body: extraBody, panels: applied.viewType === 'graph' ? 'graph' : 'table', title, actions: saveButton, notice }}
          />
        ) : (
          <ReportPage title={title} subtitle={projectId} hint={HINT} actions={saveButton}>
            {notice}
            <ReportCard>
              <p className={styles.empty} data-testid="constructor-empty">
                Выберите хотя бы один показатель в «Столбцы» и один параметр в «Строки».
              </p>
            </ReportCard>
          </ReportPage>
        )}
      </div>
      <Sidebar selection={pending} onSelection={onSelection} offset={pendingOffset} limit={limit} onOffset={setPendingOffset} onLimit={onLimit} />
      {dialog === 'new' ? <TitleModal heading="Сохранение отчёта" initial="" submitLabel="Сохранить" onSubmit={saveNew} onClose={() => setDialog(null)} /> : null}
      {dialog === 'copy' ? (
        <TitleModal heading="Сохранение отчёта" initial={modifiedTitle(template.data?.title ?? '')} submitLabel="Сохранить" onSubmit={saveNew} onClose={() => setDialog(null)} />
      ) : null}
    </div>
  );
}
