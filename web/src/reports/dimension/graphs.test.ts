import { describe, expect, it } from 'vitest';
import type { GraphResult } from '@stat/schemas/reports';
import { graphLines, graphTotal, OTHER_ID, pieSlices } from './graphs';

const answer: GraphResult = {
  metrics: ['visits', 'visitors'],
  sample: 1,
  totals: [30, 20],
  data: [
    { id: '["a"]', title: 'A', points: [{ ts: 1, date: 'd1', metrics: [4, 3] }, { ts: 2, date: 'd2', metrics: [6, 5] }] },
    { id: 'total', title: '', points: [{ ts: 1, date: 'd1', metrics: [10, 8] }, { ts: 2, date: 'd2', metrics: [0, 0] }] },
    { id: '["b"]', title: '', points: [{ ts: 1, date: 'd1', metrics: [1, 1] }, { ts: 2, date: 'd2', metrics: [0, 0] }] },
  ],
};
const colors = new Map([['["a"]', 0], ['["b"]', 3]]);

describe('graph lines', () => {
  it('draws the rows with their colours and «Итого» last', () => {
    const { buckets, lines } = graphLines(answer, 'visits', colors, false);
    expect(buckets).toEqual([{ ts: 1, date: 'd1' }, { ts: 2, date: 'd2' }]);
    expect(lines.map((l) => [l.title, l.colorIndex, l.values])).toEqual([
      ['A', 0, [4, 6]],
      ['Не определено', 3, [1, 0]],
      ['Итого', null, [10, 0]],
    ]);
  });
  it('with percent: each row as its share of «Итого» in the bucket, no share of a zero, no «Итого» line', () => {
    const { lines } = graphLines(answer, 'visits', colors, true);
    expect(lines.map((l) => [l.id, l.values])).toEqual([
      ['["a"]', [40, null]],
      ['["b"]', [10, null]],
    ]);
  });
  it('has nothing to draw before the first answer', () => {
    expect(graphLines(undefined, 'visits', colors, false)).toEqual({ buckets: undefined, lines: [] });
  });
});

describe('pie slices', () => {
  it('shows each row as its share of the period\'s «Итого», the rest of it as «Прочее»', () => {
    // Visitors: «Итого» 20. A: the table's 7 (not its buckets' 3 + 5), so 7/20 = 35 %; B (not in
    // the table): its buckets 1 + 0 = 1, so 1/20 = 5 %; the rest 20 - 7 - 1 = 12, so 12/20 = 60 %.
    const { lines } = graphLines(answer, 'visitors', colors, false);
    const slices = pieSlices(lines, (id) => (id === '["a"]' ? 7 : undefined), graphTotal(answer, 'visitors'));
    expect(slices).toEqual([
      { id: '["a"]', title: 'A', colorIndex: 0, value: 7, percent: 35 },
      { id: '["b"]', title: 'Не определено', colorIndex: 3, value: 1, percent: 5 },
      { id: OTHER_ID, title: 'Прочее', colorIndex: null, value: 12, percent: 60 },
    ]);
  });
  it('has no «Прочее» when the rows make the whole total', () => {
    // Visits: «Итого» 30; A 24 and B 6 from the table are all of it: 80 % and 20 %.
    const { lines } = graphLines(answer, 'visits', colors, false);
    const slices = pieSlices(lines, (id) => (id === '["a"]' ? 24 : 6), graphTotal(answer, 'visits'));
    expect(slices.map((s) => [s.id, s.percent])).toEqual([
      ['["a"]', 80],
      ['["b"]', 20],
    ]);
  });
  it('falls back to shares of the rows\' sum when there is no total, or the rows overlap past it', () => {
    // A 7 and B 1 add up to 8: 7/8 = 87,5 %, 1/8 = 12,5 %, whether «Итого» is missing or only 5
    // (a visitor counted in two rows: a pie of 5 cannot hold 8).
    const { lines } = graphLines(answer, 'visitors', colors, false);
    for (const whole of [null, 0, 5]) {
      expect(pieSlices(lines, (id) => (id === '["a"]' ? 7 : undefined), whole).map((s) => [s.id, s.percent])).toEqual([
        ['["a"]', 87.5],
        ['["b"]', 12.5],
      ]);
    }
  });
  it('leaves out rows of no value', () => {
    const { lines } = graphLines(answer, 'visits', colors, false);
    expect(pieSlices(lines, (id) => (id === '["b"]' ? 0 : null), 30).map((s) => s.id)).toEqual(['["a"]', OTHER_ID]);
  });
  it('reads the period\'s «Итого» of a metric from the graph answer', () => {
    expect(graphTotal(answer, 'visitors')).toBe(20);
    expect(graphTotal(answer, 'page_views')).toBeNull();
    expect(graphTotal(undefined, 'visits')).toBeNull();
  });
});
