import {
  FUNNEL_METRICS,
  funnelValue,
  type DimensionFilterRule,
  type FunnelGraphStep,
  type FunnelMetric,
  type FunnelTableRow,
  type GoalBody,
} from '@stat/schemas';
import { goalCondition } from '../goals/goal-sql.js';
import { eventConditionsSql, Params, ReportQueryError, scaledCount, type Sql } from '../engine/index.js';

/** What the funnel query counts, one value per step. */
export interface FunnelCounts {
  /** visitors who came through steps 1 to i in order, within the period */
  prev: number[];
  /** visitors who reached step i at all */
  total: number[];
  /** visitors who reached step i and after it step i + 1 (the last step: 0) */
  went: number[];
}

/** A funnel to count: each step the goals any of which reaches it. */
export interface FunnelQuery {
  projectId: number;
  steps: readonly (readonly GoalBody[])[];
  /** first and last Moscow day, YYYY-MM-DD */
  dateStart: string;
  dateEnd: string;
  /** conditions every counted event meets (the report's filters) */
  filters: readonly DimensionFilterRule[];
  /** share of visitors read, (0, 1] */
  sample: number;
}

const DAY_S = 86_400;

/**
 * The funnel as one query over `events`: per visitor, `windowFunnel` over the whole period for
 * the ordered steps (how far they came in order), whether they reached each step at all, and for
 * each pair of neighbouring steps whether they went from the one to the other (a step's first
 * time before the next one's last); then the visitors of each. The steps' conditions are the goals' (the report engine's filter compiler).
 */
export function compileFunnel(q: FunnelQuery): Sql {
  const n = q.steps.length;
  if (n < 2) throw new ReportQueryError('a funnel has at least 2 steps');
  const p = new Params();
  const steps = q.steps.map((goals) => {
    if (goals.length === 0) throw new ReportQueryError('a step needs a goal');
    return `(${goals.map((g) => `(${goalCondition(g, p)})`).join(' OR ')})`;
  });
  // The window of windowFunnel is a literal (ClickHouse takes no parameter there): the seconds
  // of the period, computed here from two checked dates, never a request's text.
  const days = Math.round((Date.parse(`${q.dateEnd}T00:00:00Z`) - Date.parse(`${q.dateStart}T00:00:00Z`)) / (DAY_S * 1000)) + 1;
  if (!Number.isInteger(days) || days < 1) throw new ReportQueryError('the period is not a run of days');
  const window = days * DAY_S;
  if (!(q.sample > 0 && q.sample <= 1)) throw new ReportQueryError('sample must lie in (0, 1]');
  const sample = q.sample < 1 ? ` SAMPLE ${q.sample.toFixed(6)}` : '';
  const where = [
    `project_id = ${p.add(q.projectId, 'UInt32')}`,
    `event_date BETWEEN ${p.add(q.dateStart, 'Date')} AND ${p.add(q.dateEnd, 'Date')}`,
    `(${steps.join(' OR ')})`,
  ];
  if (q.filters.length > 0) where.push(eventConditionsSql(q.filters, p));
  const perVisitor = [
    `windowFunnel(${window})(toDateTime(ts), ${steps.join(', ')}) AS level`,
    ...steps.map((s, i) => `max(${s}) AS reached${i}`),
    // Went from step i to i + 1: reached both, the first time at i at or before the last time at
    // i + 1 (seconds, as windowFunnel counts them: it takes an event of the next step in the same
    // second). This is windowFunnel(window)(ts, step i, step i + 1) = 2 when the window holds the
    // whole period, as it does; min and max cost far less than a funnel per pair (the exact
    // query 20–50 % faster at 10 M events, benchmarks/RESULTS.md).
    ...steps.slice(0, -1).map((s, i) => `reached${i} > 0 AND reached${i + 1} > 0 AND minIf(toDateTime(ts), ${s}) <= maxIf(toDateTime(ts), ${steps[i + 1]}) AS pair${i}`),
  ];
  const query = `SELECT [${steps.map((_, i) => `countIf(level >= ${i + 1})`).join(', ')}] AS prev,
      [${steps.map((_, i) => `countIf(reached${i} > 0)`).join(', ')}] AS total,
      [${steps.map((_, i) => (i < n - 1 ? `countIf(pair${i})` : '0')).join(', ')}] AS went
    FROM (SELECT ${perVisitor.join(',\n      ')}
          FROM events${sample} WHERE ${where.join(' AND ')}
          GROUP BY visitor_hash)`;
  return { query, params: p.values, table: 'events' };
}

/** Counts read from a sample, scaled back to the whole. */
export function scaledCounts(raw: { prev: unknown[]; total: unknown[]; went: unknown[] }, sample: number): FunnelCounts {
  const scale = (list: unknown[]): number[] => list.map((v) => scaledCount(Number(v), sample));
  return { prev: scale(raw.prev), total: scale(raw.total), went: scale(raw.went) };
}

const percent = (part: number, whole: number): number | null => funnelValue((100 * part) / whole);

/**
 * The figures of each step (§3, §5): the five metrics with visitors from the previous step
 * only, and with those not from the previous step too; rounded to 2 decimals, null where a
 * ratio has no finite value. Those who left a step are those of it who did not go on to the
 * next (none on the last step).
 */
export function funnelFigures(
  counts: FunnelCounts,
  titles: readonly string[],
  metrics: readonly FunnelMetric[] = FUNNEL_METRICS,
): { table: FunnelTableRow[]; graph: FunnelGraphStep[] } {
  const { prev, total, went } = counts;
  const n = titles.length;
  const at = (list: number[], i: number): number => list[i] ?? 0;
  const last = (i: number): boolean => i === n - 1;
  const rowOf = (i: number, withNot: boolean): Record<FunnelMetric, number | null> => {
    const here = withNot ? at(total, i) : at(prev, i);
    const left = last(i) ? 0 : withNot ? at(total, i) - at(went, i) : at(prev, i) - at(prev, i + 1);
    const first = withNot ? at(total, 0) : at(prev, 0);
    const before = i === 0 ? here : withNot ? at(total, i - 1) : at(prev, i - 1);
    return {
      visitors_all: here,
      visitors_left_step: left,
      visitors_left_step_share: percent(left, here),
      conversion_first_step: percent(here, first),
      conversion_previous_step: percent(here, before),
    };
  };
  const table: FunnelTableRow[] = [];
  const graph: FunnelGraphStep[] = [];
  for (let i = 0; i < n; i++) {
    const only = rowOf(i, false);
    const all = rowOf(i, true);
    const stepTitle = titles[i] ?? '';
    table.push({ stepNumber: i + 1, stepTitle, metrics: metrics.map((m) => only[m]), metricsWithNotPrevStep: metrics.map((m) => all[m]) });
    graph.push({
      stepNumber: i + 1,
      stepTitle,
      visitorsPrevStep: at(prev, i),
      visitorsNotPrevStep: at(total, i) - at(prev, i),
      visitorsSum: at(total, i),
      convPrevStep: only.conversion_previous_step,
      convPrevStepSum: all.conversion_previous_step,
      convFirstStep: only.conversion_first_step,
      convFirstStepSum: all.conversion_first_step,
    });
  }
  return { table, graph };
}
