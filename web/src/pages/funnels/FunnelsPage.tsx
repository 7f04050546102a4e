import { useEffect, useState } from 'react';
import { FUNNEL_METRIC_TITLES, FUNNEL_METRICS, FUNNEL_PERCENT_METRICS, FUNNEL_TEXTS, funnelPercentText, type Funnel, type FunnelGraphStep } from '@stat/schemas/funnels';
import { refusalText, useProject } from '../../app/project';
import { useUser } from '../../app/session';
import { useSnackbar } from '../../app/Snackbar';
import { ConfirmDialog } from '../../components/Modal';
import { Badge, Button, DisabledReason, PageHeader, Select, Spinner, Switch, TextInput } from '../../components/ui';
import { ApiError, statusOf } from '../../lib/api';
import { formatInteger } from '../../lib/format';
import { useRequest } from '../../lib/hooks';
import { ErrorPage } from '../ErrorPage';
import { goalRights } from '../goals/goalState';
import { FunnelForm } from './FunnelForm';
import { Dropdown } from '../../components/Dropdown';
import { save as saveFile } from '../../reports/framework/CsvDownload';
import { usePagePeriod } from '../../reports/framework/hooks';
import { PeriodPicker } from '../../reports/framework/Toolbar';
import { createFunnel, deleteFunnel, funnelCsv, funnelReport, listFunnels, stepGoals, updateFunnel } from './funnelsApi';
import { funnelPng } from './funnelPng';
import { chooseFunnel, copyOf, funnelFileName, rememberFunnel, STEP_TITLE_TIP, type StepDraft } from './funnelState';
import styles from './Funnels.module.css';
import { ProjectPageTitle } from '../../app/ProjectPageTitle';

type FormState = { kind: 'create' | 'copy'; initial: { title: string; steps: StepDraft[] } } | { kind: 'edit'; funnel: Funnel } | null;

const failure = (error: unknown): string => (error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : FUNNEL_TEXTS.failed);

/** The graph «Воронка»: a bar per step, its visitors from the previous step and (with the legend on) the others. */
function FunnelGraph({ steps, withNot }: { readonly steps: readonly FunnelGraphStep[]; readonly withNot: boolean }) {
  const max = Math.max(1, ...steps.map((s) => (withNot ? s.visitorsSum : s.visitorsPrevStep)));
  return (
    <div className={styles.graph} data-testid="funnel-graph">
      {steps.map((s) => (
        <div key={s.stepNumber} className={styles.bar} data-testid="funnel-bar">
          <div className={styles.barTitle} title={s.stepTitle.length > STEP_TITLE_TIP ? s.stepTitle : undefined} data-testid="funnel-bar-title">
            {s.stepNumber}. {s.stepTitle}
          </div>
          <div className={styles.barTrack}>
            <div className={styles.barPrev} style={{ width: `${(100 * s.visitorsPrevStep) / max}%` }} />
            {withNot ? <div className={styles.barNot} style={{ width: `${(100 * s.visitorsNotPrevStep) / max}%` }} /> : null}
          </div>
          <div className={styles.barValue}>
            {formatInteger(withNot ? s.visitorsSum : s.visitorsPrevStep)} · {funnelPercentText(withNot ? s.convFirstStepSum : s.convFirstStep)} %
          </div>
        </div>
      ))}
    </div>
  );
}

/**
 * «Воронки» (spec 002 §2 "Funnels page"): create, choose, edit, copy and delete funnels; the
 * graph «Воронка» and the table «Детализация» of the chosen one over a period, with the legend
 * «Посетители не с предыдущего шага»; the last opened funnel is remembered.
 */
export default function FunnelsPage() {
  const { project } = useProject();
  const projectId = String(project.id);
  const user = useUser();
  const snackbar = useSnackbar();
  const rights = goalRights(projectId, user !== null, project.permissions.can_edit_project);
  const refusal = rights.refusal === null ? null : refusalText(rights.refusal, 'воронки');
  const list = useRequest(`funnels:${projectId}`, (signal) => listFunnels(projectId, { signal }));
  const funnels = list.data?.funnels ?? [];
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [search, setSearch] = useState('');
  const dates = usePagePeriod();
  const period = dates?.period;
  const [withNot, setWithNot] = useState(false);
  const [form, setForm] = useState<FormState>(null);
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<{ funnel: Funnel; busy: boolean } | null>(null);
  const goals = useRequest(form ? `funnel-goals:${projectId}` : null, (signal) => stepGoals(projectId, { signal }));

  useEffect(() => setSelectedId(null), [projectId]);
  const selected = funnels.find((f) => f.id === selectedId) ?? chooseFunnel(funnels, projectId);
  const report = useRequest(selected && period ? `funnel-report:${projectId}:${selected.id}:${period.start}:${period.end}:${JSON.stringify(selected.steps)}` : null, (signal) =>
    funnelReport(projectId, { funnel_id: selected!.id, date_start: period!.start, date_end: period!.end }, { signal }),
  );

  const choose = (id: number) => {
    setSelectedId(id);
    rememberFunnel(projectId, id);
  };
  const save = async (title: string, steps: StepDraft[]) => {
    if (!form) return;
    setSaving(true);
    setFormError(null);
    const body = { title, steps: steps.map((s) => ({ step_title: s.title, goals: [...s.goals] })) };
    try {
      const saved = form.kind === 'edit' ? await updateFunnel(projectId, form.funnel.id, body) : await createFunnel(projectId, body);
      snackbar(form.kind === 'edit' ? FUNNEL_TEXTS.updated : FUNNEL_TEXTS.created);
      setForm(null);
      choose(saved.id);
      list.reload();
    } catch (error) {
      setFormError(failure(error));
    } finally {
      setSaving(false);
    }
  };
  const remove = async () => {
    if (!removing) return;
    setRemoving({ ...removing, busy: true });
    try {
      await deleteFunnel(projectId, removing.funnel.id);
      snackbar(FUNNEL_TEXTS.deleted);
      setSelectedId(null);
      list.reload();
    } catch (error) {
      snackbar(failure(error));
    }
    setRemoving(null);
  };

  const downloadCsv = async (funnel: Funnel) => {
    if (!period) return;
    try {
      saveFile(await funnelCsv(projectId, { funnel_id: funnel.id, date_start: period.start, date_end: period.end }), funnelFileName(funnel.title, period, 'csv'));
    } catch (error) {
      snackbar(failure(error));
    }
  };
  const downloadPng = async (funnel: Funnel) => {
    const blob = await funnelPng(`${FUNNEL_TEXTS.graph}: ${funnel.title}`, report.data?.graph ?? [], withNot);
    if (!blob) return;
    const fileName = period ? funnelFileName(funnel.title, period, 'png') : `funnel-${funnel.id}.png`;
    saveFile({ blob, fileName }, fileName);
  };
  const table = report.data?.table ?? [];
  const periodPicker = dates ? <PeriodPicker period={dates.period} today={dates.today} onChange={dates.setDates} projectId={projectId} /> : null;
  const failed = report.error !== undefined ? statusOf(report.error) : null;
  return (
    <div className={styles.page} data-testid="funnels-page">
      <ProjectPageTitle title={FUNNEL_TEXTS.pageTitle} />
      <PageHeader
        title={
          <>
            {FUNNEL_TEXTS.pageTitle} <Badge tone="accent">{FUNNEL_TEXTS.label}</Badge>
          </>
        }
      />
      <div className={styles.toolbar}>
        <DisabledReason reason={refusal}>
          <Button variant="primary" disabled={!rights.write} onClick={() => setForm({ kind: 'create', initial: { title: '', steps: [{ title: '', goals: [] }, { title: '', goals: [] }] } })} data-testid="funnel-create">
            {FUNNEL_TEXTS.create}
          </Button>
        </DisabledReason>
        {funnels.length > 1 ? (
          <TextInput type="search" className={styles.search} placeholder="Поиск воронки" value={search} onChange={(e) => setSearch(e.target.value)} aria-label="Поиск воронки" data-testid="funnel-search" />
        ) : null}
        {funnels.length > 0 ? (
          <Select value={selected?.id ?? ''} onChange={(e) => choose(Number(e.target.value))} aria-label={FUNNEL_TEXTS.choose} data-testid="funnel-select">
            {funnels.filter((f) => f.id === selected?.id || f.title.toLowerCase().includes(search.trim().toLowerCase())).map((f) => (
              <option key={f.id} value={f.id}>
                {f.title}
              </option>
            ))}
          </Select>
        ) : null}
        {selected ? (
          <>
            <DisabledReason reason={refusal}>
              <Button disabled={!rights.write} onClick={() => setForm({ kind: 'edit', funnel: selected })} data-testid="funnel-edit">
                {FUNNEL_TEXTS.edit}
              </Button>
            </DisabledReason>
            <DisabledReason reason={refusal}>
              <Button disabled={!rights.write} onClick={() => setForm({ kind: 'copy', initial: copyOf(selected) })} data-testid="funnel-copy">
                {FUNNEL_TEXTS.copy}
              </Button>
            </DisabledReason>
            <Dropdown
              trigger="Скачать"
              label="Скачать"
              align="left"
              triggerClassName={styles.download}
              data-testid="funnel-download"
              items={[
                { label: 'PNG', onSelect: () => void downloadPng(selected), 'data-testid': 'funnel-png' },
                ...(user ? [{ label: 'CSV', onSelect: () => void downloadCsv(selected), 'data-testid': 'funnel-csv' }] : []),
              ]}
            />
            <DisabledReason reason={refusal}>
              <Button variant="danger" disabled={!rights.write} onClick={() => setRemoving({ funnel: selected, busy: false })} data-testid="funnel-delete">
                {FUNNEL_TEXTS.remove}
              </Button>
            </DisabledReason>
          </>
        ) : null}
        <span className={styles.grow} />
        {periodPicker}
      </div>
      {list.loading && !list.data ? <Spinner label="Загрузка" /> : null}
      {list.data && funnels.length === 0 ? (
        <div className={styles.placeholder} data-testid="funnels-empty">
          <h2>{FUNNEL_TEXTS.noFunnels}</h2>
          <p className={styles.muted}>{FUNNEL_TEXTS.noFunnelsText}</p>
        </div>
      ) : null}
      {/* Over the memory or scan limit (507): a shorter period instead of the report (§4). */}
      {selected && failed !== null ? (
        <ErrorPage compact status={failed}>
          {failed === 507 ? periodPicker : null}
        </ErrorPage>
      ) : null}
      {selected && failed === null ? (
        <>
          <section className={styles.panel}>
            <header className={styles.panelHead}>
              <h2>{FUNNEL_TEXTS.graph}</h2>
              <Switch checked={withNot} onChange={setWithNot} data-testid="funnel-not-prev">
                {FUNNEL_TEXTS.notPrevStep}
              </Switch>
              {report.loading ? <Spinner size={16} label="Загрузка" /> : null}
            </header>
            {selected.steps.length === 0 ? <p className={styles.muted}>{FUNNEL_TEXTS.noSteps}</p> : <FunnelGraph steps={report.data?.graph ?? []} withNot={withNot} />}
          </section>
          <section className={styles.panel}>
            <header className={styles.panelHead}>
              <h2>{FUNNEL_TEXTS.table}</h2>
            </header>
            <table className={styles.table} data-testid="funnel-table">
              <thead>
                <tr>
                  <th>{FUNNEL_TEXTS.stepColumn}</th>
                  {(report.data?.metrics ?? FUNNEL_METRICS).map((m) => (
                    <th key={m} className={styles.num}>
                      {FUNNEL_METRIC_TITLES[m]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.map((row) => (
                  <tr key={row.stepNumber} data-testid="funnel-row">
                    <td>
                      {row.stepNumber}. {row.stepTitle}
                    </td>
                    {(withNot ? row.metricsWithNotPrevStep : row.metrics).map((value, i) => {
                      const metric = report.data?.metrics[i] ?? 'visitors_all';
                      return (
                        <td key={metric} className={styles.num}>
                          {FUNNEL_PERCENT_METRICS.has(metric) ? funnelPercentText(value) : value === null ? '—' : formatInteger(value)}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      ) : null}
      {form ? (
        <FunnelForm
          heading={form.kind === 'edit' ? FUNNEL_TEXTS.formEdit : FUNNEL_TEXTS.formCreate}
          initial={form.kind === 'edit' ? copyOfSelf(form.funnel) : form.initial}
          goals={goals.data?.goals ?? []}
          busy={saving}
          error={formError}
          onSave={(title, steps) => void save(title, steps)}
          onCancel={() => {
            setForm(null);
            setFormError(null);
          }}
        />
      ) : null}
      {removing ? (
        <ConfirmDialog title={FUNNEL_TEXTS.removeTitle} confirmLabel={FUNNEL_TEXTS.remove} danger busy={removing.busy} onConfirm={() => void remove()} onCancel={() => setRemoving(null)}>
          «{removing.funnel.title}»
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** A funnel's own title and steps, for its edit form. */
function copyOfSelf(funnel: Funnel): { title: string; steps: StepDraft[] } {
  const { steps } = copyOf(funnel);
  return { title: funnel.title, steps };
}
