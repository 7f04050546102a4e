import { describe, expect, it } from 'vitest';
import type { GraphResult } from '@stat/schemas/reports';
import { graphLines, pieSlices } from './graphs';

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
  it('takes the table\'s figure of a row it holds, else the sum of the buckets; shares of the slices\' sum', () => {
    const { lines } = graphLines(answer, 'visitors', colors, false);
    const slices = pieSlices(lines, (id) => (id === '["a"]' ? 7 : undefined));
    expect(slices).toEqual([
      { id: '["a"]', title: 'A', colorIndex: 0, value: 7, percent: 87.5 },
      { id: '["b"]', title: 'Не определено', colorIndex: 3, value: 1, percent: 12.5 },
    ]);
  });
  it('leaves out rows of no value', () => {
    const { lines } = graphLines(answer, 'visits', colors, false);
    expect(pieSlices(lines, (id) => (id === '["b"]' ? 0 : null)).map((s) => s.id)).toEqual(['["a"]']);
  });
});
