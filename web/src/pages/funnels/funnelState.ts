/** The funnels page's rules without a DOM: the last opened funnel, the copy, the form's checks. */
import { downloadName } from '@stat/schemas/period';
import { FUNNEL_LAST_OPENED_KEY, FUNNEL_STEPS_MAX, FUNNEL_STEPS_MIN, FUNNEL_TEXTS, type Funnel } from '@stat/schemas/funnels';
import { readStored, writeStored } from '../../lib/browser';

/** The funnel to show when the list loads (§4): the stored one if it is there, else the first. */
export function chooseFunnel(funnels: readonly Funnel[], projectId: string): Funnel | null {
  const stored = Number(readStored(`${FUNNEL_LAST_OPENED_KEY}:${projectId}`));
  return funnels.find((f) => f.id === stored) ?? funnels[0] ?? null;
}

export function rememberFunnel(projectId: string, id: number): void {
  writeStored(`${FUNNEL_LAST_OPENED_KEY}:${projectId}`, String(id));
}

/** Step titles longer than this get a tooltip in the graph (spec 002 §9). */
export const STEP_TITLE_TIP = 18;

/** A download's name, «Воронка <title> <start> — <end>.<ext>», as the api names the funnel's CSV. */
export function funnelFileName(title: string, period: { readonly start: string; readonly end: string }, ext: 'csv' | 'png'): string {
  return downloadName(`${FUNNEL_TEXTS.graph} ${title}`.trim(), period.start, period.end, ext);
}

/** A step in the form. */
export interface StepDraft {
  readonly title: string;
  readonly goals: readonly number[];
}

/** The copy of a funnel (§4): the title prefixed «Копия_ », the same steps. */
export function copyOf(funnel: Funnel): { title: string; steps: StepDraft[] } {
  return { title: `${FUNNEL_TEXTS.copyPrefix}${funnel.title}`, steps: funnel.steps.map((s) => ({ title: s.step_title, goals: s.goals.map((g) => g.goal_id) })) };
}

/** The form's errors (§5): the title's, the steps' count, and each step's title and goals. */
export interface FunnelFormErrors {
  title: string | null;
  steps: string | null;
  stepTitles: (string | null)[];
  stepGoals: (string | null)[];
}

export function funnelFormErrors(title: string, steps: readonly StepDraft[]): FunnelFormErrors {
  return {
    title: title.trim() === '' ? FUNNEL_TEXTS.required : null,
    steps: steps.length < FUNNEL_STEPS_MIN ? FUNNEL_TEXTS.tooFewSteps : steps.length > FUNNEL_STEPS_MAX ? FUNNEL_TEXTS.tooManySteps : null,
    stepTitles: steps.map((s) => (s.title.trim() === '' ? FUNNEL_TEXTS.required : null)),
    stepGoals: steps.map((s) => (s.goals.length === 0 ? FUNNEL_TEXTS.stepNeedsGoal : null)),
  };
}

export const hasErrors = (e: FunnelFormErrors): boolean => e.title !== null || e.steps !== null || e.stepTitles.some(Boolean) || e.stepGoals.some(Boolean);

/** Moves a step up (-1) or down (+1); the steps are numbered by their place when saved. */
export function moveStep<T>(steps: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= steps.length) return [...steps];
  const next = [...steps];
  [next[index], next[to]] = [next[to] as T, next[index] as T];
  return next;
}

/** Moves the step at `from` to the place of the step at `to` (a drag and drop), the others shifting. */
export function dropStep<T>(steps: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= steps.length || to >= steps.length) return [...steps];
  const next = [...steps];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as T);
  return next;
}
