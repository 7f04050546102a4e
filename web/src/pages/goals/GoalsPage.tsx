import { useCallback, useEffect, useMemo, useState } from 'react';
import { AUTOGOALS_PAGE, GOAL_TEXTS, GOALS_TABLE_PAGE, goalCountedRules, type AutogoalEntry, type Goal, type GoalCount } from '@stat/schemas/goals';
import { EVENT_CLASS_TITLES } from '@stat/schemas/filters';
import { refusalText, useProject } from '../../app/project';
import { useUser } from '../../app/session';
import { useSnackbar } from '../../app/Snackbar';
import { Dropdown } from '../../components/Dropdown';
import { ConfirmDialog, Modal } from '../../components/Modal';
import { Badge, Button, DisabledReason, PageHeader, Spinner, Switch, TextInput } from '../../components/ui';
import type { ConversionBody } from '../../data/calls';
import { calls } from '../../data/calls';
import { formatInteger } from '../../lib/format';
import { DELAYS, useDebounced, useRequest } from '../../lib/hooks';
import { usePagePeriod } from '../../reports/framework/hooks';
import { PeriodPicker } from '../../reports/framework/Toolbar';
import { ConversionForm } from '../conversions/ConversionForm';
import { CONVERSION_PAGE_TEXTS, conversionFailure } from '../conversions/conversionState';
import { dimensionChips } from '../../reports/filters/chips';
import { apiToForm } from '../../reports/filters/form';
import { rememberTitle, useValueTitles } from '../../reports/filters/useReportFilters';
import { GoalForm, type GoalFormMode } from './GoalForm';
import { createGoal, deleteGoal, goalCounts, listAutogoals, listGoals, updateGoal, type GoalFormValues } from './goalsApi';
import { copyTitle, goalFailure, goalRights, readShowCommon, rowActions, writeShowCommon } from './goalState';
import styles from './Goals.module.css';
import { ProjectPageTitle } from '../../app/ProjectPageTitle';

/** The kinds of hit (schemas HIT_TYPES) in words, for the conditions of autogoals. */
const HIT_TYPE_TITLES: Readonly<Record<string, string>> = {
  pageview: 'просмотр страницы',
  event: 'событие',
  click: 'клик по блоку',
  show: 'показ блока',
  outbound: 'клик по ссылке',
  engagement: 'время на странице',
  read: 'глубина чтения',
};
for (const [value, title] of Object.entries(HIT_TYPE_TITLES)) rememberTitle('event_type', value, title);
for (const [value, title] of Object.entries(EVENT_CLASS_TITLES)) rememberTitle('event_class', value, title);

/** Conditions longer than this are cut in the table (spec 002 §9). */
const CONDITION_TEXT_MAX = 300;

/** The conditions of a goal in words, as the filter chips say them: what it counts (page views, when no condition chooses an event). */
function ConditionsText({ goal }: { readonly goal: Goal }) {
  const rules = useMemo(() => goalCountedRules(goal.body), [goal.body]);
  const titleOf = useValueTitles(rules);
  const text = useMemo(
    () =>
      dimensionChips(apiToForm(rules, titleOf))
        .map((c) => `${c.label}: ${c.text}`)
        .join('; '),
    [rules, titleOf],
  );
  return <span title={text.length > CONDITION_TEXT_MAX ? text : undefined}>{text.length > CONDITION_TEXT_MAX ? `${text.slice(0, CONDITION_TEXT_MAX)}…` : text}</span>;
}

/** A goal's count in the table: the number, or an ellipsis while it is counted. */
function Count({ value, testId }: { readonly value: number | undefined; readonly testId: string }) {
  return (
    <td className={styles.count} data-testid={testId}>
      {value === undefined ? '…' : formatInteger(value)}
    </td>
  );
}

/**
 * «Целевые события» (spec 002 §2 "Goals page"): search by title, «Новое целевое событие»,
 * «Выбрать из автоцелей», the switch «Показать публичные целевые события» kept per user, the
 * table of goals with how many times each was reached and by how many visitors over a period
 * (the reports' «Период:» picker, kept in the URL as the conversions page keeps it; the last 7 days
 * unless chosen), its row actions, GoalForm (add, edit, auto), snackbars of 3 s.
 */
export default function GoalsPage() {
  const { project } = useProject();
  const projectId = String(project.id);
  const user = useUser();
  const snackbar = useSnackbar();
  const dates = usePagePeriod();
  const span = dates?.period ?? null;
  const canEdit = project.permissions.can_edit_project;
  const rights = goalRights(projectId, user !== null, canEdit);
  const refusal = rights.refusal === null ? null : refusalText(rights.refusal, 'цели');
  const [search, setSearch] = useState('');
  const settled = useDebounced(search, DELAYS.tableSearch);
  const [showCommon, setShowCommon] = useState(() => readShowCommon(user?.id ?? 0, projectId));
  const [limit, setLimit] = useState(GOALS_TABLE_PAGE);
  const [form, setForm] = useState<GoalFormMode | null>(null);
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<{ goal: Goal; busy: boolean } | null>(null);
  const [choosing, setChoosing] = useState(false);
  const [converting, setConverting] = useState<{ goalId: number; busy: boolean; error: string | null } | null>(null);

  useEffect(() => setShowCommon(readShowCommon(user?.id ?? 0, projectId)), [user?.id, projectId]);
  useEffect(() => setLimit(GOALS_TABLE_PAGE), [settled, showCommon, projectId]);
  const list = useRequest(`goals:${projectId}:${settled}:${showCommon}:${limit}`, (signal) => listGoals(projectId, { search: settled, showCommon, limit, offset: 0 }, { signal }));
  const goals = list.data?.goals ?? [];
  const total = list.data?.totals ?? 0;
  // The counts of the goals shown, all in one call (one query); asked again when the rows or the period change.
  const ids = goals.map((g) => g.id);
  const counted = useRequest(ids.length === 0 || span === null ? null : `goal-counts:${projectId}:${ids.join(',')}:${span.start}:${span.end}`, (signal) =>
    // Asked only with a period (the key is null without one).
    goalCounts(projectId, ids, span!.start, span!.end, { signal }),
  );
  const countOf = useMemo(() => {
    const byId = new Map<number, GoalCount>((counted.data?.goals ?? []).map((c) => [c.goal_id, c]));
    // Counts of another period are not shown while this one is counted.
    return (id: number): GoalCount | undefined => (counted.loading ? undefined : byId.get(id));
  }, [counted.data, counted.loading]);

  const toggleCommon = (on: boolean) => {
    setShowCommon(on);
    writeShowCommon(user?.id ?? 0, on);
  };
  const closeForm = () => {
    setForm(null);
    setFormError(null);
  };
  const save = useCallback(
    async (values: GoalFormValues) => {
      if (!form) return;
      setSaving(true);
      setFormError(null);
      try {
        if (form.kind === 'edit') {
          await updateGoal(form.goal.id, values);
          snackbar(GOAL_TEXTS.updated);
        } else {
          await createGoal(projectId, values, form.kind === 'auto' ? form.template.id : null);
          snackbar(GOAL_TEXTS.created);
        }
        setForm(null);
        list.reload();
      } catch (error) {
        const text = goalFailure(error);
        // The rate limit is a snackbar (spec 002 §7); other refusals stay in the form.
        if (text === GOAL_TEXTS.rateLimit) snackbar(text);
        else setFormError(text);
      } finally {
        setSaving(false);
      }
    },
    [form, projectId, snackbar, list],
  );
  const makePublic = async (goal: Goal) => {
    try {
      await updateGoal(goal.id, { access: 'common' });
      snackbar(GOAL_TEXTS.madePublic);
      list.reload();
    } catch (error) {
      snackbar(goalFailure(error));
    }
  };
  const addConversion = async (goalId: number, body: ConversionBody) => {
    setConverting({ goalId, busy: true, error: null });
    try {
      await calls.createConversion({ project_id: Number(projectId), ...body });
      snackbar(CONVERSION_PAGE_TEXTS.created);
      setConverting(null);
    } catch (error) {
      setConverting({ goalId, busy: false, error: conversionFailure(error) });
    }
  };
  const remove = async () => {
    if (!removing) return;
    setRemoving({ ...removing, busy: true });
    try {
      await deleteGoal(removing.goal.id);
      snackbar(GOAL_TEXTS.deleted);
      setRemoving(null);
      list.reload();
    } catch (error) {
      snackbar(goalFailure(error));
      setRemoving(null);
    }
  };

  return (
    <div className={styles.page} data-testid="goals-page">
      <ProjectPageTitle title={GOAL_TEXTS.pageTitle} />
      <PageHeader
        title={GOAL_TEXTS.pageTitle}
        actions={
          <>
            <DisabledReason reason={refusal}>
              <Button variant="primary" disabled={!rights.write} onClick={() => setForm({ kind: 'add' })} data-testid="goal-new">
                {GOAL_TEXTS.create}
              </Button>
            </DisabledReason>
            <DisabledReason reason={refusal}>
              <Button disabled={!rights.write} onClick={() => setChoosing(true)} data-testid="goal-from-auto">
                {GOAL_TEXTS.fromAutogoals}
              </Button>
            </DisabledReason>
          </>
        }
      />
      <div className={styles.toolbar}>
        {dates ? <PeriodPicker period={dates.period} today={dates.today} onChange={dates.setDates} projectId={projectId} /> : null}
        <TextInput
          type="search"
          className={styles.search}
          placeholder={GOAL_TEXTS.search}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          aria-label={GOAL_TEXTS.search}
          data-testid="goal-search"
        />
        <Switch checked={showCommon} onChange={toggleCommon} data-testid="goal-show-common">
          {GOAL_TEXTS.showCommon}
        </Switch>
        {list.loading || counted.loading ? <Spinner size={16} label="Загрузка" /> : null}
      </div>
      <div className={styles.tableWrap}>
        <table className={styles.table} data-testid="goals-table">
          <thead>
            <tr>
              <th className={styles.colTitle}>{GOAL_TEXTS.columnTitle}</th>
              <th>{GOAL_TEXTS.columnConditions}</th>
              <th className={styles.colCount}>{GOAL_TEXTS.columnReaches}</th>
              <th className={styles.colCount}>{GOAL_TEXTS.columnVisitors}</th>
              <th className={styles.colAccess}>{GOAL_TEXTS.columnAccess}</th>
              <th className={styles.colOwner}>{GOAL_TEXTS.columnOwner}</th>
              <th className={styles.colActions} aria-label={GOAL_TEXTS.actions} />
            </tr>
          </thead>
          <tbody>
            {goals.length === 0 && !list.loading ? (
              <tr>
                <td colSpan={7} className={styles.empty} data-testid="goals-empty">
                  {GOAL_TEXTS.empty}
                </td>
              </tr>
            ) : null}
            {goals.map((goal) => {
              const can = rowActions(goal, rights, canEdit);
              const actions = [
                ...(can.addConversion ? [{ label: GOAL_TEXTS.addConversion, onSelect: () => setConverting({ goalId: goal.id, busy: false, error: null }), 'data-testid': 'goal-add-conversion' }] : []),
                ...(can.makePublic ? [{ label: GOAL_TEXTS.makePublic, onSelect: () => void makePublic(goal), 'data-testid': 'goal-make-public' }] : []),
                ...(can.edit ? [{ label: GOAL_TEXTS.edit, onSelect: () => setForm({ kind: 'edit', goal }), 'data-testid': 'goal-edit' }] : []),
                ...(can.copy ? [{ label: GOAL_TEXTS.copy, onSelect: () => setForm({ kind: 'add', from: { ...goal, title: copyTitle(goal.title) } }), 'data-testid': 'goal-copy' }] : []),
                ...(can.remove ? [{ label: GOAL_TEXTS.remove, danger: true, onSelect: () => setRemoving({ goal, busy: false }), 'data-testid': 'goal-remove' }] : []),
              ];
              return (
                <tr key={goal.id} data-testid="goal-row" data-id={goal.id}>
                  <td>
                    <div className={styles.goalTitle} data-testid="goal-row-title">
                      {goal.title}
                    </div>
                    {goal.description ? <div className={styles.muted}>{goal.description}</div> : null}
                    {goal.email ? <div className={`${styles.muted} ${styles.ownerInline}`}>{goal.email}</div> : null}
                  </td>
                  <td className={styles.conditionsCell}>
                    <ConditionsText goal={goal} />
                  </td>
                  <Count value={countOf(goal.id)?.reaches} testId="goal-reaches" />
                  <Count value={countOf(goal.id)?.visitors} testId="goal-visitors" />
                  <td>
                    <div className={styles.badges}>
                      <Badge tone={goal.access === 'common' ? 'accent' : 'neutral'}>{goal.access === 'common' ? GOAL_TEXTS.accessCommon : GOAL_TEXTS.accessOwn}</Badge>
                      {goal.is_protected ? <Badge tone="progress">{GOAL_TEXTS.protectedBadge}</Badge> : null}
                    </div>
                  </td>
                  <td className={styles.owner}>{goal.email ?? '—'}</td>
                  <td>
                    {/* No «⋯» for a row the caller may do nothing with: an empty menu is a dead end. */}
                    {actions.length > 0 ? <Dropdown trigger="⋯" label={GOAL_TEXTS.actions} data-testid="goal-actions" items={actions} /> : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {total > goals.length ? (
        <Button variant="link" onClick={() => setLimit((l) => l + GOALS_TABLE_PAGE)} data-testid="goals-more">
          {GOAL_TEXTS.showMore}
        </Button>
      ) : null}
      {form ? <GoalForm projectId={projectId} mode={form} busy={saving} error={formError} onSave={(v) => void save(v)} onCancel={closeForm} /> : null}
      {converting ? (
        <ConversionForm
          projectId={projectId}
          conversion={null}
          goalId={converting.goalId}
          busy={converting.busy}
          error={converting.error}
          onSave={(body) => void addConversion(converting.goalId, body)}
          onCancel={() => setConverting(null)}
        />
      ) : null}
      {choosing ? (
        <AutogoalsModal
          projectId={projectId}
          onCancel={() => setChoosing(false)}
          onChoose={(template) => {
            setChoosing(false);
            setForm({ kind: 'auto', template });
          }}
        />
      ) : null}
      {removing ? (
        <ConfirmDialog title={GOAL_TEXTS.removeTitle} confirmLabel={GOAL_TEXTS.remove} danger busy={removing.busy} onConfirm={() => void remove()} onCancel={() => setRemoving(null)}>
          «{removing.goal.title}»
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** «Выбрать из автоцелей» (spec 002 §2 "Autogoals"): the templates, 30 a page; one already made cannot be chosen. */
function AutogoalsModal({ projectId, onChoose, onCancel }: { readonly projectId: string; readonly onChoose: (t: AutogoalEntry) => void; readonly onCancel: () => void }) {
  const [limit, setLimit] = useState(AUTOGOALS_PAGE);
  const list = useRequest(`autogoals:${projectId}:${limit}`, (signal) => listAutogoals(projectId, 0, limit, { signal }));
  const items = list.data?.autogoals ?? [];
  return (
    <Modal title={GOAL_TEXTS.autogoalsTitle} onClose={onCancel} width={620} data-testid="autogoals">
      {list.loading && items.length === 0 ? <Spinner label="Загрузка" /> : null}
      <ul className={styles.autogoals}>
        {items.map((t) => (
          <li key={t.id} className={styles.autogoal} data-testid="autogoal" data-id={t.id}>
            <div>
              <div className={styles.goalTitle}>{t.title_for_ui}</div>
              <div className={styles.muted}>{t.description}</div>
            </div>
            <Button size="s" disabled={t.goal_id !== null} onClick={() => onChoose(t)} data-testid="autogoal-choose">
              {t.goal_id !== null ? GOAL_TEXTS.alreadyCreated : GOAL_TEXTS.choose}
            </Button>
          </li>
        ))}
      </ul>
      {(list.data?.totals ?? 0) > items.length ? (
        <Button variant="link" onClick={() => setLimit((l) => l + AUTOGOALS_PAGE)}>
          {GOAL_TEXTS.showMore}
        </Button>
      ) : null}
    </Modal>
  );
}
