/**
 * Report filters (specification 001, §3 "Filter rule", §5 "Validation rules"): the shapes the
 * report calls, the saved filters and the web app share. A rule names a catalogue dimension (or,
 * in metric filters, a catalogue metric), an operator and a value; rules combine with AND.
 */
import { DIMENSIONS } from './dimensions.js';
import type { EventClass } from './hit.js';

/** Operators of a dimension filter rule. */
export const DIMENSION_OPERATORS = [
  '>',
  '>=',
  '<',
  '<=',
  '=',
  '!=',
  'include',
  'exclude',
  'like',
  'multilike',
  'multilikeand',
  'nlike',
  'nmultilike',
  'range',
] as const;
export type DimensionOperator = (typeof DIMENSION_OPERATORS)[number];

/** Operators of a metric filter (§5: "greater than, less than, equal"). */
export const METRIC_OPERATORS = ['>', '<', '='] as const;
export type MetricOperator = (typeof METRIC_OPERATORS)[number];

/** Operators whose value is a list of values (at least one). */
export const LIST_OPERATORS = ['include', 'exclude', 'multilike', 'multilikeand', 'nmultilike'] as const satisfies readonly DimensionOperator[];

/** Operators whose value is a pattern: `*` stands for any characters; a leading `@` ignores case. */
export const PATTERN_OPERATORS = ['like', 'nlike', 'multilike', 'multilikeand', 'nmultilike'] as const satisfies readonly DimensionOperator[];

/** The range operator's value: [from, to], both included. */
export type RangeValue = readonly [number | string, number | string];

/** A value of a rule: one value, a list (list operators) or a range. */
export type FilterValue = string | number | readonly (string | number)[];

/** Dimensions a filter may name: the catalogue's, where the service stores them. */
export const FILTERABLE_DIMENSIONS: readonly string[] = Object.entries(DIMENSIONS)
  .filter(([, storage]) => storage.table !== null)
  .map(([name]) => name);

/** One rule of a dimension filter. `extra.eventClass` narrows an event filter to one class. */
export interface DimensionFilterRule {
  key: string;
  op: DimensionOperator;
  value: FilterValue;
  extra?: { eventClass?: string };
}

/** One rule of a metric filter: applied to the report's rows after grouping (HAVING). */
export interface MetricFilterRule {
  key: string;
  op: MetricOperator;
  value: number;
}

/** Limits of a filter, so that no request can make a query of unbounded size. */
export const FILTER_LIMITS = {
  /** rules in one filter list */
  rules: 20,
  /** values in one list rule */
  values: 100,
  /** characters of one value */
  valueLength: 1000,
} as const;

const isScalar = (v: unknown): v is string | number =>
  (typeof v === 'string' && v.length <= FILTER_LIMITS.valueLength) || (typeof v === 'number' && Number.isFinite(v));

/** Whether `value` has the shape `op` takes: a list for list operators, [from, to] for range, one value otherwise. */
export function isValueFor(op: unknown, value: unknown): value is FilterValue {
  if ((LIST_OPERATORS as readonly unknown[]).includes(op)) {
    return Array.isArray(value) && value.length > 0 && value.length <= FILTER_LIMITS.values && value.every(isScalar);
  }
  if (op === 'range') return Array.isArray(value) && value.length === 2 && value.every(isScalar);
  return isScalar(value);
}

/** Values the filter dialog loads at once (§9 "Dynamic filter page": 50, events 200). */
export const FILTER_VALUES_PAGE = { dimension: 50, events: 200 } as const;

/** A value the filter dialog offers (`filter/{dimension}`, `filter/events`), with the visits it had in the period. */
export interface FilterOption {
  value: string | number;
  title: string;
  visits: number;
  can_be_expanded: boolean;
}

/** A saved filter template (§3 "Saved filter", §6): private to its author or shared with everyone with access. */
export const SAVED_FILTER_TYPES = ['private', 'shared'] as const;
export type SavedFilterType = (typeof SAVED_FILTER_TYPES)[number];

/** The title rules of a saved filter (§5). */
export const SAVED_FILTER_TITLE_MAX = 255;

/**
 * Whether two template titles are the same name to a reader (§5: «Шаблон с таким названием уже
 * существует»): compared without case and with any run of spaces as one, so «Chrome только» and
 * « chrome  ТОЛЬКО » are one name.
 */
export function sameTemplateTitle(a: string, b: string): boolean {
  const name = (title: string): string => title.trim().replace(/\s+/g, ' ').toLocaleLowerCase('ru');
  return name(a) === name(b);
}

/** The texts of the saved-filter templates (§5, §8), shown by the api's errors and the web's form alike. */
export const SAVED_FILTER_TEXTS = {
  titleRequired: 'Поле не заполнено',
  titleTaken: 'Шаблон с таким названием уже существует',
  created: 'Создан новый шаблон',
  updated: 'Шаблон обновлен',
  deleted: 'Шаблон удалён',
} as const;

/** What a saved filter keeps: the filters it applies. */
export interface SavedFilterBody {
  dimension_filters?: DimensionFilterRule[];
  metric_filters?: MetricFilterRule[];
}

/** A saved filter as the api answers it. */
export interface SavedFilter {
  id: number;
  title: string;
  type: SavedFilterType;
  body: SavedFilterBody;
  /** whether the caller may change or delete it */
  editable: boolean;
}

/** The event classes (hit.ts EVENT_CLASSES) in words, for texts a user reads: a condition names the class, never its code. */
export const EVENT_CLASS_TITLES: Readonly<Record<EventClass, string>> = {
  base: 'базовые события',
  ub: 'блоковая аналитика',
  media: 'медиа',
  ec: 'электронная коммерция',
  cv: 'свои события',
};

/** The title of an event class; a class the service does not know is shown as it came. */
export function eventClassTitle(code: string): string {
  return Object.hasOwn(EVENT_CLASS_TITLES, code) ? EVENT_CLASS_TITLES[code as EventClass] : code;
}
