// @vitest-environment happy-dom
/** A report's pie (spec 001 §2 "Toolbar"): the drawn rows as shares of «Итого», the rest as «Прочее». */
import { afterEach, describe, expect, it } from 'vitest';
import type { GraphResult } from '@stat/schemas/reports';
import { metricColumns } from '../view';
import { render, type Rendered } from '../../testing/render';
import { GraphPanel } from './GraphPanel';

let view: Rendered | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
});

// Two selected rows of visits over two days, and the period's «Итого» 1 600.
const answer: GraphResult = {
  metrics: ['visits'],
  sample: 1,
  totals: [1600],
  data: [
    { id: '["google"]', title: 'Google', points: [{ ts: 1, date: 'd1', metrics: [200] }, { ts: 2, date: 'd2', metrics: [200] }] },
    { id: '["yandex"]', title: 'Яндекс', points: [{ ts: 1, date: 'd1', metrics: [100] }, { ts: 2, date: 'd2', metrics: [100] }] },
    { id: 'total', title: '', points: [{ ts: 1, date: 'd1', metrics: [800] }, { ts: 2, date: 'd2', metrics: [800] }] },
  ],
};

async function renderPie() {
  const [metric] = metricColumns(['visits']);
  view = await render(
    <GraphPanel
      answer={answer}
      metrics={metricColumns(['visits'])}
      metric={metric!}
      onMetric={() => undefined}
      lineColors={new Map([['["google"]', 0], ['["yandex"]', 1]])}
      chartType="pie"
      percent={false}
      // The table holds Google with 412 visits; Яндекс is only in the graph (100 + 100).
      tableValue={(id) => (id === '["google"]' ? 412 : undefined)}
      origin={null}
      period={{ start: '2026-11-23', end: '2026-11-24', group: 'day' }}
      loading={false}
      height={320}
      testId="graph-1"
    />,
  );
  return view;
}

describe('the pie of a report', () => {
  it('gives each row its share of «Итого» and the unselected rest as «Прочее», with two decimals', async () => {
    const { container } = await renderPie();
    // 412 / 1600 = 25,75 %; 200 / 1600 = 12,5 %; the rest 1600 - 412 - 200 = 988, 988 / 1600 = 61,75 %.
    const legend = [...container.querySelectorAll('[data-line]')].map((li) => li.textContent);
    expect(legend).toEqual(['Google412 · 25,75%', 'Яндекс200 · 12,50%', 'Прочее988 · 61,75%']);
    expect([...container.querySelectorAll('path[data-slice]')].map((p) => p.getAttribute('data-slice'))).toEqual(['["google"]', '["yandex"]', 'other']);
    expect(container.querySelector('path[data-slice="other"] title')?.textContent).toBe('Прочее: 988 (61,75%)');
  });
});

// Two pages of one site, as page_urls draws them; the table leaves out their shared host.
const pages: GraphResult = {
  metrics: ['visits'],
  sample: 1,
  totals: [1600],
  data: [
    { id: '["a"]', title: 'https://demo.stat.example/20261124/novosti-2648116.html', points: [{ ts: 1, date: '2026-11-23 00:00:00', metrics: [200] }] },
    { id: '["b"]', title: 'https://demo.stat.example/20261125/novosti-2648117.html', points: [{ ts: 1, date: '2026-11-23 00:00:00', metrics: [100] }] },
    { id: 'total', title: '', points: [{ ts: 1, date: '2026-11-23 00:00:00', metrics: [800] }] },
  ],
};

// The lines' legend is the same AddressText; uPlot needs a canvas, which happy-dom has not
// (reports.browser.test.ts reads it on page_urls).
describe('the legend of a graph of page addresses', () => {
  it('shows each address as the table does, without the shared host, the full address in the tooltip', async () => {
    const [metric] = metricColumns(['visits']);
    view = await render(
      <GraphPanel
        answer={pages}
        metrics={metricColumns(['visits'])}
        metric={metric!}
        onMetric={() => undefined}
        lineColors={new Map([['["a"]', 0], ['["b"]', 1]])}
        chartType="pie"
        percent={false}
        tableValue={() => undefined}
        origin="https://demo.stat.example"
        period={{ start: '2026-11-23', end: '2026-11-23', group: 'day' }}
        loading={false}
        height={320}
        testId="graph-1"
      />,
    );
    const items = ['["a"]', '["b"]'].map((id) => view!.container.querySelector(`[data-line='${id}']`));
    expect(items.map((li) => [li?.querySelector('[data-testid="address-text"]')?.textContent, li?.getAttribute('title')])).toEqual([
      ['/20261124/novosti-2648116.html', 'https://demo.stat.example/20261124/novosti-2648116.html'],
      ['/20261125/novosti-2648117.html', 'https://demo.stat.example/20261125/novosti-2648117.html'],
    ]);
  });
});
