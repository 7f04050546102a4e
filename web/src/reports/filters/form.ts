/**
 * The filter form (spec 001 §4 "Filter value conversions"): what the dialog edits — one block per
 * dimension, each a few rules — and its conversion to and from the api's rules, which are what
 * the URL and the saved filters keep.
 *
 * - checkbox: AND with many values becomes many `=`; OR becomes `include`; NOT with many values
 *   becomes `exclude`, with one `!=`.
 * - textarea (one value a line): one line `like` (NOT: `nlike`), many lines `multilike` (OR),
 *   `multilikeand` (AND) or `nmultilike` (NOT). `*` is any characters and a leading `@` ignores
 *   case — the api's pattern syntax, so `*` is sent as typed; a leading `@` also wraps the value
 *   in `*`, making it a case-insensitive "contains" as the spec says.
 * - radio: one value, `=`. period: a comparison with a whole number.
 * - event: `event_class` equal to the chosen class, and the chosen names (`=` or `include`)
 *   narrowed to that class by `extra.eventClass`.
 */
import { FILTER_LIMITS, type DimensionFilterRule, type DimensionOperator } from '@stat/schemas/filters';
import { filterItem, type FilterType } from './catalogue';

/** Form rule operators (§3). */
export type FormOp = 'AND' | 'OR' | 'NOT';

/** Comparison operators of a period rule, in the order the dialog offers them. */
export const COMPARISONS = ['>', '>=', '<', '<=', '='] as const;
export type Comparison = (typeof COMPARISONS)[number];

/** A value chosen in a list, with the title it was shown with. */
export interface ChosenValue {
  readonly value: string | number;
  readonly title: string;
}

export type FormRule =
  | { readonly kind: 'choice'; readonly op: FormOp; readonly values: readonly ChosenValue[] }
  | { readonly kind: 'text'; readonly op: FormOp; readonly text: string }
  | { readonly kind: 'number'; readonly op: Comparison; readonly value: string }
  /** an event filter: a class, and names of that class (none: any event of the class) */
  | { readonly kind: 'event'; readonly eventClass: string; readonly values: readonly ChosenValue[] };

/** The filter of one dimension: its rules combine with AND. */
export interface FilterBlock {
  readonly key: string;
  readonly type: FilterType;
  readonly rules: readonly FormRule[];
}

/** An empty rule of a type, as «add rule» makes it. */
export function emptyRule(type: FilterType): FormRule {
  if (type === 'textarea') return { kind: 'text', op: 'OR', text: '' };
  if (type === 'period' || type === 'datePeriod') return { kind: 'number', op: '>', value: '' };
  if (type === 'event') return { kind: 'event', eventClass: '', values: [] };
  return { kind: 'choice', op: type === 'radio' ? 'AND' : 'OR', values: [] };
}

/** The lines of a textarea rule: trimmed, empty ones left out, at most the api's list limit. */
export function textLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim().slice(0, FILTER_LIMITS.valueLength))
    .filter((l) => l !== '')
    .slice(0, FILTER_LIMITS.values);
}

/** A typed pattern as the api takes it: a leading `@` searches case-insensitively anywhere in the value. */
export function toPattern(line: string): string {
  if (!line.startsWith('@')) return line;
  const body = line.slice(1);
  return `@${body.startsWith('*') ? '' : '*'}${body}${body.endsWith('*') ? '' : '*'}`;
}

/** The line a pattern was typed as (inverse of {@link toPattern}). */
export function fromPattern(pattern: string): string {
  const m = /^@\*(.*)\*$/.exec(pattern);
  return m ? `@${m[1] ?? ''}` : pattern;
}

const TEXT_OPS: Readonly<Record<FormOp, readonly [DimensionOperator, DimensionOperator]>> = {
  AND: ['like', 'multilikeand'],
  OR: ['like', 'multilike'],
  NOT: ['nlike', 'nmultilike'],
};

/** The api's rules of one form rule; none while it is empty. */
export function ruleToApi(key: string, rule: FormRule): DimensionFilterRule[] {
  switch (rule.kind) {
    case 'choice': {
      const values = rule.values.map((v) => v.value);
      const [first] = values;
      if (first === undefined) return [];
      if (rule.op === 'AND') return values.map((value) => ({ key, op: '=', value }));
      if (rule.op === 'OR') return [{ key, op: 'include', value: values }];
      return values.length === 1 ? [{ key, op: '!=', value: first }] : [{ key, op: 'exclude', value: values }];
    }
    case 'text': {
      const lines = textLines(rule.text).map(toPattern);
      const [first] = lines;
      if (first === undefined) return [];
      const [one, many] = TEXT_OPS[rule.op];
      return lines.length === 1 ? [{ key, op: one, value: first }] : [{ key, op: many, value: lines }];
    }
    case 'number': {
      if (!/^\d{1,15}$/.test(rule.value)) return [];
      return [{ key, op: rule.op, value: Number(rule.value) }];
    }
    case 'event': {
      if (!rule.eventClass) return [];
      const values = rule.values.map((v) => v.value);
      const byClass: DimensionFilterRule = { key: EVENT_CLASS, op: '=', value: rule.eventClass };
      const [first] = values;
      if (first === undefined) return [byClass];
      const extra = { eventClass: rule.eventClass };
      return [byClass, values.length === 1 ? { key, op: '=', value: first, extra } : { key, op: 'include', value: values, extra }];
    }
  }
}

const EVENT_CLASS = 'event_class';

/** The api's rules of the whole form, in block order. */
export function formToApi(blocks: readonly FilterBlock[]): DimensionFilterRule[] {
  return blocks.flatMap((b) => b.rules.flatMap((r) => ruleToApi(b.key, r)));
}

/** Titles of values, as far as they are known: the value itself otherwise. */
export type TitleOf = (key: string, value: string | number) => string;

const asList = (value: DimensionFilterRule['value']): (string | number)[] => (Array.isArray(value) ? [...(value as (string | number)[])] : [value as string | number]);

/** One api rule as a form rule; null for a rule the form cannot show (a range). */
function apiToRule(rule: DimensionFilterRule, titleOf: TitleOf): FormRule | null {
  const chosen = (values: (string | number)[]) => values.map((value) => ({ value, title: titleOf(rule.key, value) }));
  const lines = (op: FormOp) => ({ kind: 'text' as const, op, text: asList(rule.value).map((v) => fromPattern(String(v))).join('\n') });
  switch (rule.op) {
    case '=':
      return filterItem(rule.key).type === 'period' ? { kind: 'number', op: '=', value: String(rule.value) } : { kind: 'choice', op: 'AND', values: chosen(asList(rule.value)) };
    case 'include':
      return { kind: 'choice', op: 'OR', values: chosen(asList(rule.value)) };
    case '!=':
    case 'exclude':
      return { kind: 'choice', op: 'NOT', values: chosen(asList(rule.value)) };
    case 'like':
    case 'multilike':
      return lines('OR');
    case 'multilikeand':
      return lines('AND');
    case 'nlike':
    case 'nmultilike':
      return lines('NOT');
    case '>':
    case '>=':
    case '<':
    case '<=':
      return { kind: 'number', op: rule.op, value: String(rule.value) };
    case 'range':
      return null;
  }
}

interface MutableBlock {
  key: string;
  type: FilterType;
  rules: FormRule[];
}

function pushRule(blocks: MutableBlock[], key: string, rule: FormRule): void {
  let block = blocks.find((b) => b.key === key);
  if (!block) {
    block = { key, type: filterItem(key).type, rules: [] };
    blocks.push(block);
  }
  block.rules.push(rule);
}

/**
 * The form of a list of api rules: one block per dimension, in the order they first appear;
 * consecutive `=` rules of a dimension are one AND rule (the many equals of a checkbox AND).
 * Rules the form cannot show are left out.
 */
export function apiToForm(rules: readonly DimensionFilterRule[], titleOf: TitleOf): FilterBlock[] {
  const blocks: MutableBlock[] = [];
  const skip = new Set<number>();
  let previous: DimensionFilterRule | undefined;
  for (const [i, rule] of rules.entries()) {
    if (skip.has(i)) continue;
    // An event filter: its class rule, then (maybe) its names narrowed to that class.
    const next = rules[i + 1];
    const eventClass = rule.extra?.eventClass;
    if (rule.key === EVENT_CLASS && rule.op === '=' && typeof rule.value === 'string' && filterItem('event_name').type === 'event') {
      const names = next?.key === 'event_name' && next.extra?.eventClass === rule.value && (next.op === '=' || next.op === 'include') ? next : undefined;
      // A class rule alone reads as a choice of event_class: the same condition.
      if (names) {
        const values = names ? asList(names.value).map((value) => ({ value, title: titleOf('event_name', value) })) : [];
        pushRule(blocks, 'event_name', { kind: 'event', eventClass: rule.value, values });
        previous = undefined;
        skip.add(i + 1);
        continue;
      }
    }
    if (eventClass !== undefined && rule.key === 'event_name' && (rule.op === '=' || rule.op === 'include')) {
      pushRule(blocks, 'event_name', { kind: 'event', eventClass, values: asList(rule.value).map((value) => ({ value, title: titleOf('event_name', value) })) });
      previous = undefined;
      continue;
    }
    const form = apiToRule(rule, titleOf);
    if (!form) continue;
    let block = blocks.find((b) => b.key === rule.key);
    if (!block) {
      block = { key: rule.key, type: filterItem(rule.key).type, rules: [] };
      blocks.push(block);
    }
    const last = block.rules[block.rules.length - 1];
    if (form.kind === 'choice' && form.op === 'AND' && previous?.key === rule.key && previous.op === '=' && last?.kind === 'choice' && last.op === 'AND') {
      block.rules[block.rules.length - 1] = { ...last, values: [...last.values, ...form.values] };
    } else {
      block.rules.push(form);
    }
    previous = rule;
  }
  return blocks;
}
