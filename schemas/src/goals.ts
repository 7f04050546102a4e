/**
 * Goals and autogoals (specification 002, §2 "Goals page", §3 "Goal", "Auto-goal template",
 * §4, §5, §7, §8, §9): the shapes, limits, texts and the autogoal catalogue that the api and
 * the web share. A goal is a named set of event conditions (the report engine's dimension
 * filter rules, all of which one event must meet); it is counted over stored events, so it
 * counts for the past as well.
 */
import { DIMENSIONS } from './dimensions.js';
import type { DimensionFilterRule } from './filters.js';

/** Who sees a goal: `own` its creator only, `common` everyone with access to the project. */
export const GOAL_ACCESS = ['own', 'common'] as const;
export type GoalAccess = (typeof GOAL_ACCESS)[number];

/** Title limits (§5, §9), in characters after trimming. */
export const GOAL_TITLE_MIN = 3;
export const GOAL_TITLE_MAX = 255;
/** Description limit (§9 gives 500 for conversions; goals take the same). */
export const GOAL_DESCRIPTION_MAX = 500;
/** Conditions of one goal: at least one, at most as many as a report filter. */
export const GOAL_CONDITIONS_MAX = 20;

/** Page sizes (§9): the goals list call, the goals table of the page, the autogoal list. */
export const GOALS_LIST_PAGE = 100;
export const GOALS_TABLE_PAGE = 10;
export const AUTOGOALS_PAGE = 30;

/** The api's answer to a creation over the per-user limit (§7), recognised by the web. */
export const GOAL_RATE_LIMIT_MESSAGE = 'Rate limit exceeded';
/** Goal creations one user may make a minute, unless configured (GOAL_CREATIONS_PER_MINUTE). */
export const GOAL_CREATIONS_PER_MINUTE = 10;

/** Local storage key of the «show public goals» switch (§3 "Storage keys"). */
export const SHOW_COMMON_GOALS_KEY = 'showCommonGoals';

/** The texts of the goals page and its form, exactly as the specification gives them. */
export const GOAL_TEXTS = {
  pageTitle: 'Целевые события',
  create: 'Новое целевое событие',
  fromAutogoals: 'Выбрать из автоцелей',
  showCommon: 'Показать публичные целевые события',
  conditionsIncomplete: 'Не все поля в условии заполнены',
  rateLimit: 'Превышен лимит создания целей в минуту. Пожалуйста, подождите минуту и попробуйте снова',
  empty: 'Нет данных для отображения',
  copied: 'Скопировано',
  // Not shown by the specification (its "exact shared rule texts for the title: not shown"):
  // ours, in the words the other forms of the service use.
  titleRequired: 'Поле не заполнено',
  titleTooShort: 'Минимум 3 символа',
  titleTooLong: 'Превышен лимит символов',
  descriptionTooLong: 'Превышен лимит символов',
  notFound: 'Целевое событие не найдено',
  protected: 'Защищённое целевое событие нельзя изменить, только удалить',
  ownerOnly: 'Удалить целевое событие может только его автор',
  conditionsRequired: 'Добавьте хотя бы 1 условие',
  conditionEventOnly: 'Условие цели должно относиться к событиям',
  templateCreated: 'Это автоцелевое событие уже создано',
  templateUnknown: 'Нет такой автоцели',
  inFunnel: 'Целевое событие используется в воронке: воронки публичны, и оно остаётся публичным',
  ownerOnlyPersonal: 'Сделать целевое событие личным может только его автор',
  failed: 'Не удалось сохранить. Попробуйте ещё раз',
  created: 'Целевое событие создано',
  updated: 'Целевое событие изменено',
  deleted: 'Целевое событие удалено',
  madePublic: 'Целевое событие стало публичным',
  // The table, the row menu and the form.
  search: 'Поиск по названию',
  columnTitle: 'Название',
  columnConditions: 'Условия',
  columnAccess: 'Доступ',
  columnOwner: 'Автор',
  accessOwn: 'Личное',
  accessCommon: 'Публичное',
  protectedBadge: 'Защищённое',
  actions: 'Действия',
  addConversion: 'Добавить конверсию',
  makePublic: 'Сделать публичным',
  edit: 'Редактировать',
  copy: 'Копировать',
  remove: 'Удалить',
  showMore: 'Показать ещё',
  formAdd: 'Новое целевое событие',
  formEdit: 'Редактирование целевого события',
  formAuto: 'Целевое событие из автоцели',
  fieldTitle: 'Название',
  fieldDescription: 'Описание',
  fieldConditions: 'Условия',
  chooseConditions: 'Выбрать условия',
  noConditions: 'Условия не выбраны',
  flagPublic: 'Публичное (видно всем, у кого есть доступ к счётчику)',
  flagProtected: 'Защищённое (нельзя изменить, только удалить)',
  flagSending: 'Используется в рекламной кампании',
  save: 'Сохранить',
  cancel: 'Отменить',
  removeTitle: 'Удалить целевое событие?',
  autogoalsTitle: 'Автоцели',
  choose: 'Выбрать',
  alreadyCreated: 'Уже создано',
  // The counts of the table over a period.
  columnReaches: 'Достижения',
  columnVisitors: 'Посетители',
  pageViewsNote: 'Если условия не выбирают событие (тип, название, класс, параметр, внешнюю ссылку, блок), целевое событие считает просмотры страниц',
} as const;

/**
 * The dimensions a goal's condition may name: those of single events (a goal is reached by an
 * event), so not the visits' own (entry page, depth, time on site), nor the date or the site.
 */
export const GOAL_CONDITION_KEYS: readonly string[] = Object.entries(DIMENSIONS)
  .filter(([name, storage]) => storage.table === 'events' && name !== 'date' && name !== 'project_id')
  .map(([name]) => name);

/**
 * The condition keys that choose which events of a page reach a goal (their kind, name, class,
 * parameters, the link clicked, the block). A goal whose conditions name none of them (a page
 * address alone, a title, a country) means the page views that meet them: every event of a
 * page shares its address, and a visitor who opened /cart once has not reached «cart» once for
 * every click and scroll on it.
 */
export const GOAL_EVENT_KEYS: readonly string[] = ['event_type', 'event_class', 'event_name', 'customer_params_key', 'customer_params_value', 'user_cv_key', 'external_url', 'ub_block_list'];

/** The implied condition of a goal that chooses no event: page views. */
export const GOAL_PAGE_VIEW_RULE: DimensionFilterRule = { key: 'event_type', op: '=', value: 'pageview' };

/**
 * The rules a goal is counted by: its own, and page views first when none of them chooses an
 * event ({@link GOAL_EVENT_KEYS}). Applied when a goal is compiled, not when it is stored, so the
 * goals saved before keep their conditions and count the same way as new ones.
 */
export function goalCountedRules(body: GoalBody): DimensionFilterRule[] {
  const choosesEvent = body.dimension_filters.some((r) => GOAL_EVENT_KEYS.includes(r.key));
  return choosesEvent ? [...body.dimension_filters] : [GOAL_PAGE_VIEW_RULE, ...body.dimension_filters];
}

/** The flags of a goal that force each other (§4). */
export interface GoalFlags {
  access: GoalAccess;
  is_protected: boolean;
  is_td_sending: boolean;
}

/**
 * The flags after one of them was switched (§4): public off clears sending; protected off
 * clears sending; sending on forces public and protected on. The form applies it on each
 * switch, and the api to what it is sent, so both hold the same rule.
 */
export function switchGoalFlag<K extends keyof GoalFlags>(flags: GoalFlags, key: K, value: GoalFlags[K]): GoalFlags {
  const next: GoalFlags = { ...flags, [key]: value };
  if (key === 'access' && value === 'own') next.is_td_sending = false;
  if (key === 'is_protected' && value === false) next.is_td_sending = false;
  if (key === 'is_td_sending' && value === true) {
    next.access = 'common';
    next.is_protected = true;
  }
  return next;
}

/** Whether a set of flags obeys §4 (sending needs public and protected). */
export function goalFlagsConsistent(flags: GoalFlags): boolean {
  return !flags.is_td_sending || (flags.access === 'common' && flags.is_protected);
}

/** A goal's conditions as the engine's filters keep them. */
export interface GoalBody {
  dimension_filters: DimensionFilterRule[];
}

/** A conversion a goal takes part in (§3 "Goal": conversions). */
export interface GoalConversionRef {
  id: number;
  title: string;
}

/** A goal as the api answers it (§3 "Goal"). */
export interface Goal {
  id: number;
  project_id: number;
  title: string;
  description: string;
  access: GoalAccess;
  is_protected: boolean;
  is_td_sending: boolean;
  /** the conditions: the rules of body.dimension_filters */
  conditions: DimensionFilterRule[];
  body: GoalBody;
  conversions: GoalConversionRef[];
  /** the owner's e-mail (null when the account is gone) */
  email: string | null;
  /** whether the caller created it (§5) */
  is_owner: boolean;
  /**
   * whether the caller may delete it: its creator; on the demo project an administrator; a goal
   * whose creator's account is gone, those who may edit the project (the api decides)
   */
  can_delete: boolean;
  is_deleted: boolean;
  goal_template_id: number | null;
  /** the ad-service integration's fields (not built: always null, null, false) */
  yandex_id: number | null;
  yandex_goal_name: string | null;
  is_yandex_sending: boolean;
  /** ISO 8601 time of the last change */
  update_date: string;
}

/** What one goal counted over a period: its events (reaches), and the visits and visitors that reached it. */
export interface GoalCount {
  goal_id: number;
  reaches: number;
  visits: number;
  visitors: number;
}

/** POST /api/report/v1.0/eventbase/{projectId}/goals: the counts of the goals asked for, in their order. */
export interface GoalCountsReport {
  /** the period counted, Moscow days (YYYY-MM-DD) */
  date_start: string;
  date_end: string;
  goals: GoalCount[];
}

/** GET /api/v1.0/user/goals: one page of goals and how many there are. */
export interface GoalList {
  goals: Goal[];
  totals: number;
}

/** POST /api/v1.0/goal and PUT /api/v1.0/goal/{id}: what a goal is made of. */
export interface GoalInput {
  project_id: number;
  title: string;
  description?: string;
  access: GoalAccess;
  is_protected: boolean;
  is_td_sending: boolean;
  body: GoalBody;
  goal_template_id?: number | null;
}

/** An autogoal template (§3 "Auto-goal template"): a goal the counter detects without setup. */
export interface AutogoalTemplate {
  id: number;
  title: string;
  title_for_ui: string;
  description: string;
  conditions: DimensionFilterRule[];
  body: GoalBody;
}

/** A template in the autogoal list: with the project asked about, the goal made from it there. */
export interface AutogoalEntry extends AutogoalTemplate {
  /** the live goal of the project made from this template, or null (choosing it is then allowed) */
  goal_id: number | null;
}

/** GET /api/v1.0/autogoals: one page of templates and how many match. */
export interface AutogoalList {
  autogoals: AutogoalEntry[];
  totals: number;
}

/**
 * The names of the events the counter sends by itself for autogoals. Link clicks are `outbound`
 * hits that the aggregator names by their link (schemas/src/links.ts); form sends and the end
 * of an article read are events of the class `base` (counter-snippet/src/outbound.ts, reading.ts).
 */
export const AUTO_EVENTS = {
  outbound: 'outbound',
  download: 'download',
  tel: 'tel',
  mailto: 'mailto',
  form: 'form',
  scroll: 'scroll',
} as const;

/** The query parameters a site search puts in a page's address (`?q=`, `?search=`, …). */
export const SEARCH_PARAMETERS = ['q', 'query', 'search', 'text', 's'] as const;

const autoEvent = (name: string): DimensionFilterRule[] => [{ key: 'event_name', op: '=', value: name, extra: { eventClass: 'base' } }];
const linkClick = (name: string): DimensionFilterRule[] => [
  { key: 'event_type', op: '=', value: 'outbound' },
  { key: 'event_name', op: '=', value: name },
];

function template(id: number, title: string, description: string, conditions: DimensionFilterRule[]): AutogoalTemplate {
  return { id, title, title_for_ui: title, description, conditions, body: { dimension_filters: conditions } };
}

/** The autogoal catalogue: what the counter detects, as goal conditions over the stored events. */
export const AUTOGOAL_TEMPLATES: readonly AutogoalTemplate[] = [
  template(1, 'Клик по внешней ссылке', 'Переход по ссылке на другой сайт', linkClick(AUTO_EVENTS.outbound)),
  template(2, 'Скачивание файла', 'Клик по ссылке на файл (документ, архив, программа, медиа)', linkClick(AUTO_EVENTS.download)),
  template(3, 'Отправка формы', 'Отправка любой формы на сайте', autoEvent(AUTO_EVENTS.form)),
  template(4, 'Клик по номеру телефона', 'Клик по ссылке tel:', linkClick(AUTO_EVENTS.tel)),
  template(5, 'Клик по email', 'Клик по ссылке mailto:', linkClick(AUTO_EVENTS.mailto)),
  template(6, 'Дочитывание статьи', 'Посетитель дочитал статью до конца (полная версия счётчика, глубина чтения)', autoEvent(AUTO_EVENTS.scroll)),
  template(7, 'Поиск по сайту', 'Просмотр страницы с поисковым запросом в адресе (параметры q, query, search, text, s)', [
    { key: 'event_type', op: '=', value: 'pageview' },
    { key: 'url', op: 'multilike', value: SEARCH_PARAMETERS.flatMap((p) => [`*?${p}=*`, `*&${p}=*`]) },
  ]),
];

/** A goal's title as §5 checks it: trimmed; what is wrong, or null. */
export function goalTitleProblem(title: unknown): string | null {
  if (typeof title !== 'string' || title.trim() === '') return GOAL_TEXTS.titleRequired;
  const length = [...title.trim()].length;
  if (length < GOAL_TITLE_MIN) return GOAL_TEXTS.titleTooShort;
  if (length > GOAL_TITLE_MAX) return GOAL_TEXTS.titleTooLong;
  return null;
}

/** Whether a condition is filled in (§5): a key, an operator and a value that is not empty. */
export function goalConditionFilled(rule: { key?: unknown; op?: unknown; value?: unknown }): boolean {
  const filled = (v: unknown): boolean => (typeof v === 'string' ? v.trim() !== '' : typeof v === 'number' ? Number.isFinite(v) : false);
  if (typeof rule.key !== 'string' || rule.key === '' || typeof rule.op !== 'string' || rule.op === '') return false;
  return Array.isArray(rule.value) ? rule.value.length > 0 && rule.value.every(filled) : filled(rule.value);
}
