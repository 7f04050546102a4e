import { useMemo, useState, type FormEvent } from 'react';
import {
  GOAL_CONDITION_KEYS,
  GOAL_DESCRIPTION_MAX,
  GOAL_EVENT_KEYS,
  GOAL_TEXTS,
  GOAL_TITLE_MAX,
  goalConditionFilled,
  goalTitleProblem,
  switchGoalFlag,
  type AutogoalTemplate,
  type Goal,
  type GoalFlags,
} from '@stat/schemas/goals';
import type { DimensionFilterRule } from '@stat/schemas/filters';
import { FormFooter, Modal } from '../../components/Modal';
import { Button, Checkbox, Field, Switch, TextArea, TextField } from '../../components/ui';
import { moscowToday } from '../../lib/dates';
import { dimensionChips } from '../../reports/filters/chips';
import { FilterDialog } from '../../reports/filters/FilterDialog';
import { apiToForm, formToApi } from '../../reports/filters/form';
import { useValueTitles } from '../../reports/filters/useReportFilters';
import type { GoalFormValues } from './goalsApi';
import styles from './Goals.module.css';

/** What the form is for: a new goal (maybe a copy), a change, or a goal from an autogoal. */
export type GoalFormMode = { kind: 'add'; from?: Goal } | { kind: 'edit'; goal: Goal } | { kind: 'auto'; template: AutogoalTemplate };

/** Props of {@link GoalForm}. */
export interface GoalFormProps {
  readonly projectId: string;
  readonly mode: GoalFormMode;
  readonly busy: boolean;
  /** The api's refusal of the last save. */
  readonly error: string | null;
  readonly onSave: (values: GoalFormValues) => void;
  readonly onCancel: () => void;
}

/** The days whose values the condition dialog lists: the last 30. */
function lastMonth(): { start: string; end: string } {
  const end = moscowToday();
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  return { start, end };
}

/**
 * GoalForm (spec 002 §2, §4, §5): title, description, conditions (the report filters' dialog,
 * offering the dimensions of events), and the public / protected / sending flags that force
 * each other. From an autogoal, the template's conditions and the three flags on, fixed.
 */
export function GoalForm({ projectId, mode, busy, error, onSave, onCancel }: GoalFormProps) {
  const source = mode.kind === 'edit' ? mode.goal : mode.kind === 'add' ? mode.from : undefined;
  const auto = mode.kind === 'auto';
  const [title, setTitle] = useState(() => (auto ? mode.template.title : (source?.title ?? '')));
  const [description, setDescription] = useState(() => (auto ? mode.template.description : (source?.description ?? '')));
  const [rules, setRules] = useState<DimensionFilterRule[]>(() => [...(auto ? mode.template.conditions : (source?.conditions ?? []))]);
  const [flags, setFlags] = useState<GoalFlags>(() =>
    auto
      ? { access: 'common', is_protected: true, is_td_sending: true }
      : { access: source?.access ?? 'own', is_protected: source?.is_protected ?? false, is_td_sending: source?.is_td_sending ?? false },
  );
  const [picking, setPicking] = useState(false);
  const [tried, setTried] = useState(false);
  const titleOf = useValueTitles(rules);
  const blocks = useMemo(() => apiToForm(rules, titleOf), [rules, titleOf]);
  const chips = useMemo(() => dimensionChips(blocks), [blocks]);
  const period = useMemo(lastMonth, []);

  const titleError = tried ? goalTitleProblem(title) : null;
  const conditionsError = !tried ? null : rules.length === 0 ? GOAL_TEXTS.conditionsRequired : rules.every(goalConditionFilled) ? null : GOAL_TEXTS.conditionsIncomplete;
  const heading = mode.kind === 'edit' ? GOAL_TEXTS.formEdit : auto ? GOAL_TEXTS.formAuto : GOAL_TEXTS.formAdd;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (goalTitleProblem(title) !== null || rules.length === 0 || !rules.every(goalConditionFilled)) return;
    onSave({ title: title.trim(), description: description.trim(), ...flags, body: { dimension_filters: rules } });
  };
  const flag = <K extends keyof GoalFlags>(key: K, value: GoalFlags[K]) => setFlags((f) => switchGoalFlag(f, key, value));

  return (
    <>
      <Modal
        title={heading}
        onClose={onCancel}
        width={620}
        data-testid="goal-form"
        footer={<FormFooter form="goal-form" saveLabel={GOAL_TEXTS.save} cancelLabel={GOAL_TEXTS.cancel} busy={busy} error={error} onCancel={onCancel} saveTestId="goal-save" errorTestId="goal-form-error" />}
      >
        <form id="goal-form" className={styles.form} onSubmit={submit} noValidate>
          <TextField
            label={GOAL_TEXTS.fieldTitle}
            value={title}
            maxLength={GOAL_TITLE_MAX}
            onChange={(e) => setTitle(e.target.value)}
            error={titleError}
            data-testid="goal-title"
            aside={`${[...title].length} / ${GOAL_TITLE_MAX}`}
          />
          <Field label={GOAL_TEXTS.fieldDescription} htmlFor="goal-description">
            <TextArea id="goal-description" value={description} maxLength={GOAL_DESCRIPTION_MAX} rows={2} onChange={(e) => setDescription(e.target.value)} data-testid="goal-description" />
          </Field>
          <Field label={GOAL_TEXTS.fieldConditions} error={conditionsError}>
            <div className={styles.conditions} data-testid="goal-conditions">
              {chips.length === 0 ? <span className={styles.muted}>{GOAL_TEXTS.noConditions}</span> : null}
              {chips.map((chip) => (
                <span key={chip.id} className={chip.negative ? `${styles.chip} ${styles.chipNegative}` : styles.chip} data-testid="goal-condition">
                  {chip.label}: {chip.text}
                </span>
              ))}
              {auto ? null : (
                <Button size="s" variant="link" onClick={() => setPicking(true)} data-testid="goal-pick-conditions">
                  {GOAL_TEXTS.chooseConditions}
                </Button>
              )}
            </div>
            {rules.length > 0 && !rules.some((r) => GOAL_EVENT_KEYS.includes(r.key)) ? (
              <div className={styles.muted} data-testid="goal-page-views-note">
                {GOAL_TEXTS.pageViewsNote}
              </div>
            ) : null}
          </Field>
          <div className={styles.flags}>
            <Switch checked={flags.access === 'common'} disabled={auto} onChange={(on) => flag('access', on ? 'common' : 'own')} data-testid="goal-public">
              {GOAL_TEXTS.flagPublic}
            </Switch>
            <Checkbox checked={flags.is_protected} disabled={auto} onChange={(on) => flag('is_protected', on)} data-testid="goal-protected">
              {GOAL_TEXTS.flagProtected}
            </Checkbox>
            <Checkbox checked={flags.is_td_sending} disabled={auto} onChange={(on) => flag('is_td_sending', on)} data-testid="goal-sending">
              {GOAL_TEXTS.flagSending}
            </Checkbox>
          </div>
        </form>
      </Modal>
      {picking ? (
        <FilterDialog
          projectId={projectId}
          period={period}
          initial={blocks}
          metrics={[]}
          initialMetrics={[]}
          keys={GOAL_CONDITION_KEYS}
          onCancel={() => setPicking(false)}
          onApply={(next) => {
            setPicking(false);
            setRules(formToApi(next));
          }}
        />
      ) : null}
    </>
  );
}
