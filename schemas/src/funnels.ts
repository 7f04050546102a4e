/**
 * Funnels (specification 002, §2 "Funnels page", §3 "Funnel", §4, §5, §7, §9): ordered steps of
 * goals, the shapes, limits, texts and metrics that the api and the web share. A funnel belongs
 * to its project and is public; the goals of its steps become public when it is saved.
 */

/** Steps of a funnel (§5, §9). */
export const FUNNEL_STEPS_MIN = 2;
export const FUNNEL_STEPS_MAX = 11;
export const FUNNEL_TITLE_MAX = 255;
/** Goals in one step, and funnels in one list page (§9). */
export const FUNNEL_STEP_GOALS_MAX = 20;
export const FUNNELS_PAGE = 100;

/** The funnel metrics (§3), in their order. */
export const FUNNEL_METRICS = ['visitors_all', 'visitors_left_step', 'visitors_left_step_share', 'conversion_first_step', 'conversion_previous_step'] as const;
export type FunnelMetric = (typeof FUNNEL_METRICS)[number];

/** Local storage key of the last opened funnel (§3 "Storage keys"). */
export const FUNNEL_LAST_OPENED_KEY = 'funnelLastOpened';

/** The metrics' column titles in the table «Детализация» (ours: §3 names them only). */
export const FUNNEL_METRIC_TITLES: Readonly<Record<FunnelMetric, string>> = {
  visitors_all: 'Посетители',
  visitors_left_step: 'Ушли с шага',
  visitors_left_step_share: 'Доля ушедших, %',
  conversion_first_step: 'Конверсия от первого шага, %',
  conversion_previous_step: 'Конверсия от предыдущего шага, %',
};

/** Metrics shown as percents. */
export const FUNNEL_PERCENT_METRICS: ReadonlySet<FunnelMetric> = new Set(['visitors_left_step_share', 'conversion_first_step', 'conversion_previous_step']);

/** The texts of §2, §5 and §8. */
export const FUNNEL_TEXTS = {
  pageTitle: 'Воронки',
  label: 'Новое',
  required: 'Заполните поле',
  tooFewSteps: 'Добавьте не менее 2 шагов',
  tooManySteps: 'Не более 11 шагов',
  stepNeedsGoal: 'Добавьте хотя бы 1 условие',
  created: 'Воронка создана',
  updated: 'Воронка изменена',
  deleted: 'Воронка удалена',
  copyPrefix: 'Копия_ ',
  notPrevStep: 'Посетители не с предыдущего шага',
  graph: 'Воронка',
  table: 'Детализация',
  stepsInfo: 'От 2 до 11 шагов',
  // Ours (not shown by the specification).
  notFound: 'Воронка не найдена',
  goalUnknown: 'Целевое событие не найдено',
  titleTooLong: 'Превышен лимит символов',
  create: 'Создать',
  edit: 'Изменить',
  copy: 'Копировать',
  remove: 'Удалить',
  removeTitle: 'Удалить воронку?',
  noFunnels: 'Воронок пока нет',
  noFunnelsText: 'Создайте воронку из целевых событий: от 2 до 11 шагов',
  noSteps: 'В воронке нет шагов',
  formCreate: 'Новая воронка',
  formEdit: 'Изменение воронки',
  fieldTitle: 'Название',
  step: 'Шаг',
  stepTitle: 'Название шага',
  stepGoals: 'Целевые события шага',
  addStep: 'Добавить шаг',
  save: 'Сохранить',
  cancel: 'Отменить',
  choose: 'Воронка',
  period: 'Период',
  stepColumn: 'Шаг',
  noGoals: 'В счётчике нет целевых событий: создайте их на странице «Целевые события»',
  failed: 'Не удалось сохранить. Попробуйте ещё раз',
} as const;

/** A goal of a step, with its title. */
export interface FunnelStepGoal {
  goal_id: number;
  goal_title: string;
}

/** A step as the api answers it. */
export interface FunnelStep {
  step_number: number;
  step_title: string;
  goals: FunnelStepGoal[];
}

/** A funnel as the api answers it (§3). */
export interface Funnel {
  id: number;
  title: string;
  steps: FunnelStep[];
}

/** GET /api/v1.0/{projectId}/funnels. */
export interface FunnelList {
  funnels: Funnel[];
  totals: number;
}

/**
 * A goal of a step as a client sends it: the goal's id, or the goal as a step read from the api
 * holds it (`{goal_id, goal_title}`; the title is the goal's own and is ignored).
 */
export type FunnelStepGoalInput = number | { readonly goal_id: number; readonly goal_title?: string };

/**
 * A step as a client sends it: its title and its goals. Steps are numbered by their order in the
 * body (§4: "renumbered on save"), so a `step_number`, as a step read from the api holds it, is
 * taken and ignored.
 */
export interface FunnelStepInput {
  readonly step_number?: number;
  readonly step_title: string;
  readonly goals: readonly FunnelStepGoalInput[];
}

/**
 * The body of `POST /api/v1.0/{projectId}/funnel` and `PUT …/funnel/{id}` (§7 "body title,
 * steps"): new steps, or a funnel as the api answered it, read and written back. `id` only on
 * PUT, where it must be the path's.
 */
export interface FunnelInput {
  readonly id?: number;
  readonly title: string;
  readonly steps: readonly FunnelStepInput[];
}

/** One step of the funnel report: its figures with visitors from the previous step only, and with the others too (§3 "Table row"). */
export interface FunnelTableRow {
  stepNumber: number;
  stepTitle: string;
  /** the requested metrics, in order; null where a ratio has no finite value */
  metrics: (number | null)[];
  metricsWithNotPrevStep: (number | null)[];
}

/** One step of the graph «Воронка» (§3 "Graph metrics"). */
export interface FunnelGraphStep {
  stepNumber: number;
  stepTitle: string;
  /** visitors who came through every step before, in order */
  visitorsPrevStep: number;
  /** visitors who reached the step without coming through the steps before */
  visitorsNotPrevStep: number;
  visitorsSum: number;
  /** percents, 2 decimals; null where not finite */
  convPrevStep: number | null;
  convPrevStepSum: number | null;
  convFirstStep: number | null;
  convFirstStepSum: number | null;
}

/** POST /api/report/v1.0/eventbase/{projectId}/funnel. */
export interface FunnelReport {
  metrics: FunnelMetric[];
  table: FunnelTableRow[];
  graph: FunnelGraphStep[];
  /** the share of visitors read */
  sample: number;
}

/** A funnel figure rounded to 2 decimals (§5); null when not finite. */
export function funnelValue(value: number): number | null {
  return Number.isFinite(value) ? Math.round(value * 100) / 100 : null;
}

/** A funnel percent as shown (§5): 2 decimals, under 0.01 (but above 0) «< 0.01», null «—». */
export function funnelPercentText(value: number | null): string {
  if (value === null) return '—';
  if (value > 0 && value < 0.01) return '< 0.01';
  return value.toFixed(2).replace('.', ',');
}
