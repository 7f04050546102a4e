/**
 * Report filters (specification 001, §3 "Filter rule", §5 "Validation rules"): the shapes the
 * report calls, the saved filters and the web app share. A rule names a catalogue dimension (or,
 * in metric filters, a catalogue metric), an operator and a value; rules combine with AND.
 */
import { DIMENSIONS, dimensionType, type DimensionType } from './dimensions.js';
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
  /**
   * the largest size of a number compared (a dimension's or a metric filter's value), 2^53 − 1:
   * a number beyond is not exact in JSON, and ClickHouse's client refuses to send it
   */
  number: Number.MAX_SAFE_INTEGER,
} as const;

/** Whether a metric filter's value (or any number a rule compares) is one the service can compare exactly. */
export const isFilterNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= FILTER_LIMITS.number;

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

/** The operators that compare a date or an instant: no pattern, for its text is not what it is. */
const DATE_OPERATORS = ['=', '!=', '>', '>=', '<', '<=', 'range', 'include', 'exclude'] as const satisfies readonly DimensionOperator[];

/** The operators a dimension of each type takes: numbers are matched by patterns as text, dates are not. */
export const OPERATORS_OF_TYPE: Readonly<Record<DimensionType, readonly DimensionOperator[]>> = {
  string: DIMENSION_OPERATORS,
  number: DIMENSION_OPERATORS,
  date: DATE_OPERATORS,
  datetime: DATE_OPERATORS,
};

/** The first and last values the storage holds of each type of date (ClickHouse's `Date` and `DateTime`). */
export const DATE_RANGES = {
  date: { from: '1970-01-01', to: '2149-06-06' },
  datetime: { from: '1970-01-01 00:00:00', to: '2106-02-07 06:28:15' },
} as const;

/** What a value of each type must be, as a rule's message says it. */
const TYPE_RULES: Readonly<Record<Exclude<DimensionType, 'string'>, string>> = {
  number: `a number from -${FILTER_LIMITS.number} to ${FILTER_LIMITS.number}`,
  date: `a date written YYYY-MM-DD, from ${DATE_RANGES.date.from} to ${DATE_RANGES.date.to}`,
  // YYYY-MM-DD HH:MM and YYYY-MM-DD are taken too (the seconds, the time of day as zero).
  datetime: `a date and time written YYYY-MM-DD HH:MM:SS (UTC), from ${DATE_RANGES.datetime.from} to ${DATE_RANGES.datetime.to}`,
};

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** A date (with its time, for an instant) as the storage reads it, normalised to compare as text; undefined if it is none. */
function storedDate(value: string, type: 'date' | 'datetime'): string | undefined {
  const parts = DATE_TIME.exec(value);
  if (parts === null || (type === 'date' && parts[4] !== undefined)) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = parts;
  const at = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
  // Date.UTC carries over (the 30th of February is the 2nd of March): a real date reads back the same.
  const written = Number.isNaN(at.getTime()) ? '' : at.toISOString().slice(0, 19).replace('T', ' ');
  const whole = `${y}-${mo}-${d} ${h}:${mi}:${s}`;
  if (written !== whole) return undefined;
  const normal = type === 'date' ? whole.slice(0, 10) : whole;
  return normal >= DATE_RANGES[type].from && normal <= DATE_RANGES[type].to ? normal : undefined;
}

/** Whether one value of a rule is of the dimension's type (a number may come as its text). */
function fitsType(type: DimensionType, value: string | number): boolean {
  switch (type) {
    case 'string':
      return true;
    case 'number':
      return isFilterNumber(typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value));
    case 'date':
    case 'datetime':
      return typeof value === 'string' && storedDate(value, type) !== undefined;
  }
}

/**
 * What is wrong with one compared value of a dimension (a rule's value, a row's path above),
 * naming both; null when it is of the dimension's type. The report engine asks it again of
 * every value it compares, so a rule stored before this check is refused, never sent.
 */
export function filterValueProblem(key: string, value: string | number): string | null {
  const type = dimensionType(key);
  if (type === 'string' || fitsType(type, value)) return null;
  return `value of ${key} must be ${TYPE_RULES[type]}: ${JSON.stringify(value)} is not one`;
}

/** What is wrong with a filter rule, and which of its fields says it. */
export interface FilterRuleProblem {
  field: 'key' | 'op' | 'value';
  message: string;
}

/**
 * The one check of a dimension filter rule (§3 "Filter rule", §5 "Validation rules"), made
 * wherever a rule comes in (a report, the dashboard, a goal, a saved filter, a constructor
 * template, a funnel report) before it is stored or compiled: the key is a dimension the
 * service collects, the operator one of the grammar's and one its type takes, the value of the
 * operator's shape and each of its values of the dimension's type (a date written as one, a
 * number the service compares exactly). The first problem, or null.
 */
export function filterRuleProblem(rule: { key?: unknown; op?: unknown; value?: unknown }): FilterRuleProblem | null {
  const { key, op, value } = rule;
  if (typeof key !== 'string' || !FILTERABLE_DIMENSIONS.includes(key)) {
    return { field: 'key', message: 'key must be a dimension of the catalogue that the service collects' };
  }
  if (!(DIMENSION_OPERATORS as readonly unknown[]).includes(op)) {
    return { field: 'op', message: `op must be one of the following values: ${DIMENSION_OPERATORS.join(', ')}` };
  }
  const operator = op as DimensionOperator;
  if (!isValueFor(operator, value)) return { field: 'value', message: valueShapeMessage(operator) };
  const type = dimensionType(key);
  const allowed = OPERATORS_OF_TYPE[type];
  if (!allowed.includes(operator)) {
    return { field: 'op', message: `op ${operator} does not apply to ${key}, ${type === 'date' ? 'a date' : 'a date and time'}: use ${allowed.join(', ')}` };
  }
  // A pattern is text, whatever the dimension's type (numbers are matched by patterns as text).
  if ((PATTERN_OPERATORS as readonly string[]).includes(operator)) return null;
  for (const one of Array.isArray(value) ? value : [value]) {
    const problem = filterValueProblem(key, one);
    if (problem !== null) return { field: 'value', message: problem };
  }
  return null;
}

/** What a value of the wrong shape for its operator must be. */
function valueShapeMessage(op: DimensionOperator): string {
  if ((LIST_OPERATORS as readonly string[]).includes(op)) {
    return `value of ${op} must be a list of 1 to ${FILTER_LIMITS.values} strings or numbers of at most ${FILTER_LIMITS.valueLength} characters`;
  }
  if (op === 'range') return 'value of range must be [from, to]';
  return `value must be a string of at most ${FILTER_LIMITS.valueLength} characters or a number`;
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
