// @vitest-environment happy-dom
/** «Уникальные посетители» of a past period on the dashboard: the period's own count, never «сейчас». */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import type { GraphResult } from '@stat/schemas/reports';
import { NBSP } from '../../lib/format';
import { render, type Rendered } from '../../testing/render';
import type { DashboardPeriod } from './state';
import { periodCaption, PeriodVisitorsWidget } from './Widgets';

let view: Rendered | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
});

const yesterday: DashboardPeriod = { dateStart: 'yesterday', dateEnd: 'yesterday', start: '2026-11-23', end: '2026-11-23', group: 'hour', detail: 30 };

// Two hours of yesterday: 700 + 600 page views; 1 234 distinct visitors over the day (not 1 300 - some came twice).
const answer: GraphResult = {
  metrics: ['page_views', 'visitors'],
  sample: 1,
  totals: [1300, 1234],
  data: [{ id: 'total', title: '', points: [{ ts: 1, date: 'd1', metrics: [700, 660] }, { ts: 2, date: 'd2', metrics: [600, 640] }] }],
};

async function renderWidget(graph: GraphResult | undefined) {
  view = await render(
    <MemoryRouter>
      <PeriodVisitorsWidget projectId="7596044" period={yesterday} answer={graph} loading={false} />
    </MemoryRouter>,
  );
  return view;
}

describe('the visitors widget of a past period', () => {
  it('shows the period\'s distinct visitors (the totals, not a sum of hours) and the period, no «сейчас»', async () => {
    const { container, text } = await renderWidget(answer);
    expect(container.querySelector('h2')?.textContent).toBe('Уникальные посетители');
    expect(container.querySelector('[data-testid="period-visitors"]')?.textContent).toBe(`1${NBSP}234`);
    expect(text()).toContain('за 23.11.2026');
    expect(text()).not.toContain('сейчас');
    expect(text()).not.toContain('минут');
  });

  it('shows a dash until the answer comes', async () => {
    const { container } = await renderWidget(undefined);
    expect(container.querySelector('[data-testid="period-visitors"]')?.textContent).toBe('—');
  });

  it('names a period of several days by its ends', () => {
    expect(periodCaption({ start: '2026-11-17', end: '2026-11-23' })).toBe('за 17.11.2026 – 23.11.2026');
  });
});
