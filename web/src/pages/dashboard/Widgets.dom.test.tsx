// @vitest-environment happy-dom
/** Dashboard widgets: «Уникальные посетители» of a past period (the period's own count, never «сейчас»); empty widgets; the current minute of «Просмотры страниц». */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import type { GraphResult, RealtimeTable } from '@stat/schemas/reports';
import type { Project } from '@stat/schemas/projects';
import { ProjectContext, type ProjectContextValue } from '../../app/project';
import { NBSP } from '../../lib/format';
import { fire, render, type Rendered } from '../../testing/render';
import type { DashboardPeriod } from './state';
import { periodCaption, PeriodVisitorsWidget, SeriesWidget, TableWidget } from './Widgets';

// happy-dom has no canvas: the one uPlot wrapper is replaced by a box that shows its series and data.
vi.mock('../../components/UPlotChart', () => ({
  UPlotChart: (props: { series?: { label?: string; dash?: number[] }[]; data: unknown; testId?: string }) => (
    <div
      data-testid={props.testId}
      data-series={JSON.stringify((props.series ?? []).map((s) => [s.label, s.dash ?? null]))}
      data-values={JSON.stringify(props.data)}
    />
  ),
}));

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

describe('an empty widget (spec 001 §4 "Empty messages")', () => {
  const empty: RealtimeTable = { metrics: ['page_views', 'visitors'], data: [], totals: [0, 0], total: 0 } as unknown as RealtimeTable;
  const project = (fields: { id: number; counter_is_set: boolean; can_edit_project: boolean }): ProjectContextValue => ({
    project: { id: fields.id, counter_is_set: fields.counter_is_set, permissions: { can_edit_project: fields.can_edit_project } } as unknown as Project,
    setProject: () => undefined,
    reload: () => undefined,
  });
  async function renderEmpty(context: ProjectContextValue) {
    view = await render(
      <MemoryRouter>
        <ProjectContext.Provider value={context}>
          <TableWidget section="active_pages" title="Популярные страницы" firstColumn="Страница" projectId={String(context.project.id)} period={yesterday} answer={empty} loading={false} />
        </ProjectContext.Provider>
      </MemoryRouter>,
    );
    return view;
  }

  it('tells the owner of a site whose counter has sent nothing where to set it up', async () => {
    const { container, text } = await renderEmpty(project({ id: 8000000, counter_is_set: false, can_edit_project: true }));
    expect(text()).toContain('Нет данных. Настроить счётчик можно тут');
    expect(container.querySelector('[data-testid="widget-no-counter"] a')?.getAttribute('href')).toBe('/stat/projects/8000000/settings/counter');
  });

  it('says «Нет данных для отображения» once the counter works, on the demo, and to a reader who cannot set it up', async () => {
    for (const context of [
      project({ id: 8000000, counter_is_set: true, can_edit_project: true }),
      project({ id: 7596044, counter_is_set: false, can_edit_project: true }),
      project({ id: 8000000, counter_is_set: false, can_edit_project: false }),
    ]) {
      const { container, text } = await renderEmpty(context);
      expect(text()).toContain('Нет данных для отображения');
      expect(container.querySelector('[data-testid="widget-no-counter"]')).toBeNull();
      view?.unmount();
      view = null;
    }
  });
});

describe('the current, unfinished minute of «Просмотры страниц»', () => {
  const today: DashboardPeriod = { dateStart: 'today', dateEnd: 'today', start: '2026-11-24', end: '2026-11-24', group: 'minute', detail: 30 };
  // 17:52, 17:53, 17:54 and 17:55, which has begun 36 s ago: its 3 views are not yet a minute's.
  const T = 1_795_877_520;
  const minutes: GraphResult = {
    metrics: ['page_views'],
    sample: 1,
    totals: [18],
    data: [{ id: 'total', title: '', points: [4, 6, 5, 3].map((v, i) => ({ ts: T + 60 * i, date: `2026-11-24 17:5${2 + i}:00`, metrics: [v] })) }],
  };
  const NOW = (T + 180 + 36) * 1000;

  async function renderSeries(serverTime: number | undefined) {
    view = await render(
      <MemoryRouter>
        <SeriesWidget projectId="7596044" period={today} answer={minutes} loading={false} serverTime={serverTime} />
      </MemoryRouter>,
    );
    const graph = view.container.querySelector('[data-testid="page-views-graph"]');
    return {
      series: JSON.parse(graph?.getAttribute('data-series') ?? '[]') as unknown,
      values: JSON.parse(graph?.getAttribute('data-values') ?? '[]') as unknown,
      total: view.container.querySelector('[data-testid="page-views-total"]')?.getAttribute('data-value'),
    };
  }

  it('draws the whole minutes as the line and the current one as a dashed tail from the last whole minute, never as a fall', async () => {
    const { series, values, total } = await renderSeries(NOW);
    expect(series).toEqual([
      ['Просмотры страниц', null],
      ['Просмотры страниц (неполные данные)', [3, 4]],
    ]);
    expect(values).toEqual([
      [T, T + 60, T + 120, T + 180],
      [4, 6, 5, null],
      [null, null, 5, 3],
    ]);
    // The total counts the current minute's views, as the tail shows them.
    expect(total).toBe('18');
  });

  it('as bars: the current minute is a bar of its own, pale and dashed, not one of the whole ones', async () => {
    await renderSeries(NOW);
    await fire(view!.container.querySelector('[data-testid="chart-type"] [data-type="bar"]'), new MouseEvent('click', { bubbles: true }));
    const graph = view!.container.querySelector('[data-testid="page-views-graph"]');
    expect(JSON.parse(graph?.getAttribute('data-values') ?? '[]')).toEqual([
      [T, T + 60, T + 120, T + 180],
      [4, 6, 5, null],
      [null, null, null, 3],
    ]);
  });

  it('draws every bucket whole once the last minute is over', async () => {
    const { series, values } = await renderSeries((T + 240) * 1000);
    expect(series).toEqual([['Просмотры страниц', null]]);
    expect(values).toEqual([[T, T + 60, T + 120, T + 180], [4, 6, 5, 3]]);
  });
});
