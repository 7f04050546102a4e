/**
 * The chips under the toolbar (spec 001 §5 "Filter chips wording"): one per rule of the form,
 * «Страна: равно Россия или Беларусь». Comparisons read 'равно', 'не равно', 'больше или равно',
 * 'больше', 'меньше или равно', 'меньше'; values join with ' и ' (AND), ' или ' (OR) and ', '
 * (NOT); a NOT chip is negative.
 */
import { METRIC_INFO, type Metric } from '@stat/schemas/catalogue';
import { eventClassTitle, type MetricFilterRule } from '@stat/schemas/filters';
import { filterItem } from './catalogue';
import type { Comparison, FilterBlock, FormOp, FormRule } from './form';
import { textLines } from './form';
import { metricText } from './metricForm';

export const COMPARISON_WORDS: Readonly<Record<Comparison, string>> = {
  '=': 'равно',
  '>=': 'больше или равно',
  '>': 'больше',
  '<=': 'меньше или равно',
  '<': 'меньше',
};

const JOINERS: Readonly<Record<FormOp, string>> = { AND: ' и ', OR: ' или ', NOT: ', ' };

/** A chip: its text, whether it is negative, and what removing it leaves. */
export interface Chip {
  readonly id: string;
  readonly label: string;
  readonly text: string;
  readonly negative: boolean;
}

/** The words of one form rule after the dimension's title; null for an empty rule. */
function ruleWords(rule: FormRule): { text: string; negative: boolean } | null {
  if (rule.kind === 'number') {
    return rule.value === '' ? null : { text: `${COMPARISON_WORDS[rule.op]} ${rule.value}`, negative: false };
  }
  if (rule.kind === 'event') {
    if (!rule.eventClass) return null;
    // The class in words after the names («равно share (свои события)»), never its code «cv».
    const names = rule.values.map((v) => v.title);
    const eventClass = eventClassTitle(rule.eventClass);
    return { text: names.length > 0 ? `равно ${names.join(JOINERS.OR)} (${eventClass})` : `любое (${eventClass})`, negative: false };
  }
  const values = rule.kind === 'choice' ? rule.values.map((v) => v.title) : textLines(rule.text);
  if (values.length === 0) return null;
  const negative = rule.op === 'NOT';
  return { text: `${negative ? 'не равно' : 'равно'} ${values.join(JOINERS[rule.op])}`, negative };
}

/** The chips of the form, in order; ids `d:{block}:{rule}`. */
export function dimensionChips(blocks: readonly FilterBlock[]): Chip[] {
  return blocks.flatMap((block, b) =>
    block.rules.flatMap((rule, r) => {
      const words = ruleWords(rule);
      return words ? [{ id: `d:${b}:${r}`, label: filterItem(block.key).title, ...words }] : [];
    }),
  );
}

/** The chips of the metric filters; ids `m:{index}`. Numbers with comma decimals, durations as mm:ss. */
export function metricChips(rules: readonly MetricFilterRule[]): Chip[] {
  return rules.map((rule, i) => {
    const info = Object.hasOwn(METRIC_INFO, rule.key) ? METRIC_INFO[rule.key as Metric] : undefined;
    const shown = info ? metricText(rule.key as Metric, rule.value) : String(rule.value);
    return {
      id: `m:${i}`,
      label: info?.title ?? rule.key,
      text: `${COMPARISON_WORDS[rule.op]} ${shown.replace('.', ',')}${info?.unit === 'percent' ? '%' : ''}`,
      negative: false,
    };
  });
}

/** The blocks without the rule of a chip id (a block left with no rule goes). */
export function withoutChip(blocks: readonly FilterBlock[], id: string): FilterBlock[] {
  const m = /^d:(\d+):(\d+)$/.exec(id);
  if (!m) return [...blocks];
  const [b, r] = [Number(m[1]), Number(m[2])];
  return blocks
    .map((block, i) => (i === b ? { ...block, rules: block.rules.filter((_, j) => j !== r) } : block))
    .filter((block) => block.rules.length > 0);
}
