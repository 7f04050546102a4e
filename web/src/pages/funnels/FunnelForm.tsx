import { useState, type FormEvent } from 'react';
import { FUNNEL_STEPS_MAX, FUNNEL_TEXTS, FUNNEL_TITLE_MAX } from '@stat/schemas/funnels';
import type { Goal } from '@stat/schemas/goals';
import { FormFooter, Modal } from '../../components/Modal';
import { Button, Checkbox, TextField } from '../../components/ui';
import { dropStep, funnelFormErrors, hasErrors, moveStep, type StepDraft } from './funnelState';
import styles from './Funnels.module.css';

/** Props of {@link FunnelForm}. */
export interface FunnelFormProps {
  readonly heading: string;
  readonly initial: { title: string; steps: StepDraft[] };
  /** The goals the steps may use. */
  readonly goals: readonly Goal[];
  readonly busy: boolean;
  readonly error: string | null;
  readonly onSave: (title: string, steps: StepDraft[]) => void;
  readonly onCancel: () => void;
}

/**
 * The create/edit modal (spec 002 §2, §5): the title, 2 to 11 steps, each a title and the goals
 * any of which reaches it, moved up and down (renumbered on save), added and removed.
 */
export function FunnelForm({ heading, initial, goals, busy, error, onSave, onCancel }: FunnelFormProps) {
  const [title, setTitle] = useState(initial.title);
  const [steps, setSteps] = useState<StepDraft[]>(initial.steps);
  const [tried, setTried] = useState(false);
  const [dragged, setDragged] = useState<number | null>(null);
  const errors = funnelFormErrors(title, steps);
  const setStep = (i: number, step: StepDraft) => setSteps((all) => all.map((s, j) => (j === i ? step : s)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!hasErrors(errors)) onSave(title.trim(), steps.map((s) => ({ title: s.title.trim(), goals: s.goals })));
  };
  return (
    <Modal
      title={heading}
      onClose={onCancel}
      width={720}
      data-testid="funnel-form"
      footer={<FormFooter form="funnel-form" saveLabel={FUNNEL_TEXTS.save} cancelLabel={FUNNEL_TEXTS.cancel} busy={busy} error={error} onCancel={onCancel} saveTestId="funnel-save" />}
    >
      <form id="funnel-form" className={styles.form} onSubmit={submit} noValidate>
        <TextField label={FUNNEL_TEXTS.fieldTitle} value={title} maxLength={FUNNEL_TITLE_MAX} onChange={(e) => setTitle(e.target.value)} error={tried ? errors.title : null} data-testid="funnel-title" />
        <p className={styles.muted}>{FUNNEL_TEXTS.stepsInfo}</p>
        {tried && errors.steps ? (
          <p className={styles.error} role="alert">
            {errors.steps}
          </p>
        ) : null}
        {goals.length === 0 ? <p className={styles.muted}>{FUNNEL_TEXTS.noGoals}</p> : null}
        <ol className={styles.steps}>
          {steps.map((step, i) => (
            <li
              key={i}
              className={dragged === i ? `${styles.step} ${styles.dragging}` : styles.step}
              data-testid="funnel-step"
              onDragOver={(e) => dragged !== null && e.preventDefault()}
              onDrop={(e) => {
                e.preventDefault();
                if (dragged !== null) setSteps((all) => dropStep(all, dragged, i));
                setDragged(null);
              }}
              onDragEnd={() => setDragged(null)}
            >
              {/* The head is the handle: dragging inside a text field selects its text. */}
              <div className={styles.stepHead} draggable onDragStart={() => setDragged(i)} title="Перетащите, чтобы изменить порядок" data-testid="funnel-step-handle">
                <span className={styles.stepNumber}>
                  {FUNNEL_TEXTS.step} {i + 1}
                </span>
                <span className={styles.grow} />
                <Button size="s" variant="ghost" disabled={i === 0} onClick={() => setSteps((all) => moveStep(all, i, -1))} aria-label="Выше">
                  ↑
                </Button>
                <Button size="s" variant="ghost" disabled={i === steps.length - 1} onClick={() => setSteps((all) => moveStep(all, i, 1))} aria-label="Ниже">
                  ↓
                </Button>
                <Button size="s" variant="ghost" onClick={() => setSteps((all) => all.filter((_, j) => j !== i))} aria-label="Убрать шаг">
                  ×
                </Button>
              </div>
              <TextField
                label={FUNNEL_TEXTS.stepTitle}
                value={step.title}
                maxLength={FUNNEL_TITLE_MAX}
                onChange={(e) => setStep(i, { ...step, title: e.target.value })}
                error={tried ? errors.stepTitles[i] : null}
                data-testid="funnel-step-title"
              />
              <div className={styles.stepGoals} data-testid="funnel-step-goals">
                {goals.map((g) => (
                  <Checkbox
                    key={g.id}
                    checked={step.goals.includes(g.id)}
                    onChange={(on) => setStep(i, { ...step, goals: on ? [...step.goals, g.id] : step.goals.filter((id) => id !== g.id) })}
                    data-testid="funnel-step-goal"
                  >
                    {g.title}
                  </Checkbox>
                ))}
              </div>
              {tried && errors.stepGoals[i] ? <p className={styles.error}>{errors.stepGoals[i]}</p> : null}
            </li>
          ))}
        </ol>
        {steps.length < FUNNEL_STEPS_MAX ? (
          <Button variant="link" onClick={() => setSteps((all) => [...all, { title: '', goals: [] }])} data-testid="funnel-add-step">
            + {FUNNEL_TEXTS.addStep}
          </Button>
        ) : null}
      </form>
    </Modal>
  );
}
