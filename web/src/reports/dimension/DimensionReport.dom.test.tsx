// @vitest-environment happy-dom
/**
 * The dimension report's table against a fake api: expanding a tree row asks for its children
 * with `parents`, a header click sorts (and flips), a checkbox draws the row as a line; its graph
 * marks today's bucket as not yet over when the period runs up to today.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { GraphResult, ReportRequest, TableResult, TableRow } from '@stat/schemas/reports';
import { reportDefinition } from '@stat/schemas/reports';
import type { Project } from '@stat/schemas/projects';
import { cleanup, fire, render, testUser, until, type Rendered } from '../../testing/render';
import { SessionProvider } from '../../app/session';
import { ProjectContext } from '../../app/project';
import DimensionReport from './DimensionReport';

// happy-dom has no canvas: the one uPlot wrapper is replaced by a box that shows its series.
vi.mock('../../components/UPlotChart', () => ({
  UPlotChart: (props: { series?: { label?: string }[]; testId?: string }) => (
    <div data-testid={props.testId}>{(props.series ?? []).map((s) => s.label).join('|')}</div>
  ),
}));

const report = reportDefinition('traffic_sources');
if (!report) throw new Error('traffic_sources is not defined');

function row(path: string[], visits: number, canExpand = true): TableRow {
  const title = path.at(-1) ?? '';
  return {
    id: JSON.stringify(path),
    parent_id: path.length > 1 ? JSON.stringify(path.slice(0, -1)) : null,
    level: path.length - 1,
    can_be_expanded: canExpand,
    title,
    extra: { title },
    metrics: [visits, visits - 1, visits * 2],
  };
}

const TOP = [row(['search'], 300), row(['direct'], 200), row(['social'], 100), row([''], 5, false)];
const SEARCH = Array.from({ length: 12 }, (_v, i) => row(['search', `engine${i}`], 50 - i));

/** Requests the fake api got, by kind. */
let sent: { table: ReportRequest[]; graph: ReportRequest[] };
/** Answers that replace the fake report's for one test. */
let override: ((path: string, body: ReportRequest) => Response | undefined) | undefined;

function tableAnswer(body: ReportRequest): TableResult {
  const metrics = body.metrics ?? ['visits', 'visitors', 'page_views'];
  const sort = body.sort ?? { name: 'visits', order: 'desc' };
  let rows = body.parents ? SEARCH : TOP;
  if (sort.name === 'title') rows = [...rows].sort((a, b) => a.title.localeCompare(b.title));
  else rows = [...rows].sort((a, b) => (b.metrics[0] ?? 0) - (a.metrics[0] ?? 0));
  if (sort.order === (sort.name === 'title' ? 'desc' : 'asc')) rows.reverse();
  const offset = body.offset ?? 0;
  return {
    data: rows.slice(offset, offset + (body.limit ?? 10)),
    metrics,
    all_metrics: metrics,
    totals: [605, 601, 1210],
    sort: { name: sort.name, order: sort.order ?? 'desc' },
    meta: { total: rows.length, offset, sample: body.sample ?? 1 },
  };
}

function graphAnswer(body: ReportRequest): GraphResult {
  const ids = body.selected_lines ?? TOP.slice(0, 5).map((r) => r.id);
  const points = [{ ts: 1_700_000_000, date: '2023-11-14 00:00:00', metrics: [1, 1, 1] }];
  return {
    metrics: body.metrics ?? [],
    data: [
      { id: 'total', title: 'Итого', points },
      ...ids.map((id) => ({ id, title: String(JSON.parse(id).at(-1)), points })),
    ],
    totals: [605, 601, 1210],
    sample: 1,
  };
}

const DATA_SPAN = { start: '2025-01-01', end: '2025-01-31', end_timestamp: 1_738_357_200 };

function fakeReports(): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    const ok = (result: unknown) => new Response(JSON.stringify({ responseStatus: 200, result }), { status: 200, headers: { 'content-type': 'application/json' } });
    if (path.endsWith('/service/time')) return ok({ timestamp: Math.floor(Date.now() / 1000) });
    // The project's data: January 2025 (a fixed past span, whatever today is).
    if (path.endsWith('/service/eventbase_latency/7596044')) return ok(DATA_SPAN);
    const body = JSON.parse(String(init?.body ?? '{}')) as ReportRequest;
    const replaced = override?.(path, body);
    if (replaced) return replaced;
    if (path.endsWith('/table')) {
      sent.table.push(body);
      return ok(tableAnswer(body));
    }
    if (path.endsWith('/graph')) {
      sent.graph.push(body);
      return ok(graphAnswer(body));
    }
    return new Response('{}', { status: 404 });
  }) as typeof fetch;
}

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.search}</output>;
}

let view: Rendered | null = null;
/** Whether the page is opened by a logged-in user with an e-mail. */
let asUser = false;
beforeEach(() => {
  asUser = false;
  sent = { table: [], graph: [] };
  override = undefined;
  vi.stubGlobal('fetch', fakeReports());
});
afterEach(cleanup);

const q = (selector: string) => document.querySelector<HTMLElement>(selector);
const rows = () => [...document.querySelectorAll<HTMLElement>('[data-testid="report-row"]')];
const rowIds = () => rows().map((r) => r.dataset.rowId);
const search = () => new URLSearchParams(q('[data-testid="where"]')?.textContent ?? '');
const click = (el: Element | null | undefined) => fire(el, new MouseEvent('click', { bubbles: true }));

async function open(query = 'dateStart=7days&dateEnd=today&groupBy=day', definition = report!, rowsExpected = 4, project?: Project) {
  const context = project ? { project, setProject: () => {}, reload: () => {} } : null;
  const page = (
    <ProjectContext.Provider value={context}>
    <MemoryRouter initialEntries={[`/stat/projects/7596044/new/report/${definition.name}?${query}`]}>
      <Routes>
        <Route
          path="/stat/projects/:projectId/new/report/:reportName"
          element={
            <>
              <Where />
              <DimensionReport projectId="7596044" report={definition} />
            </>
          }
        />
      </Routes>
    </MemoryRouter>
    </ProjectContext.Provider>
  );
  // «Скачать отчёт» is shown only to a user with an e-mail.
  view = await render(asUser ? <SessionProvider initial={{ status: 'user', user: testUser() }}>{page}</SessionProvider> : page);
  if (rowsExpected > 0) await until(() => expect(rows()).toHaveLength(rowsExpected));
}

describe('dimension report table', () => {
  it('shows the rows, the totals and «Не определено» for an empty title', async () => {
    await open();
    expect(rows().map((r) => r.querySelector('th')?.textContent)).toEqual(['search', 'direct', 'social', 'Не определено']);
    const totals = [...document.querySelectorAll('[data-testid="report-totals"] [data-metric]')].map((c) => c.getAttribute('data-value'));
    expect(totals).toEqual(['605', '601', '1210']);
    expect(sent.table[0]).toMatchObject({ group: 'day', metrics: ['visits', 'visitors', 'page_views'], sample: 0.1, limit: 10, offset: 0 });
  });

  it('expands a row with a request for its children, indents them, and shows more on «Показать ещё»', async () => {
    await open();
    await click(rows()[0]?.querySelector('[data-testid="row-expand"]'));
    await until(() => expect(rows()).toHaveLength(4 + 10));
    const childRequest = sent.table.find((b) => b.parents);
    expect(childRequest).toMatchObject({ parents: ['search'], limit: 10, offset: 0 });
    expect(rowIds().slice(0, 3)).toEqual(['["search"]', '["search","engine0"]', '["search","engine1"]']);
    expect(rows()[1]?.dataset.level).toBe('1');
    expect(q('[data-testid="show-more"]')?.textContent).toBe('Показать ещё');

    await click(q('[data-testid="show-more"]'));
    await until(() => expect(rows()).toHaveLength(4 + 12));
    expect(sent.table.filter((b) => b.parents).at(-1)).toMatchObject({ parents: ['search'], offset: 10 });
    expect(q('[data-testid="show-more"]')).toBeNull();

    // The arrow again hides the children without asking for them again.
    const asked = sent.table.length;
    await click(rows()[0]?.querySelector('[data-testid="row-expand"]'));
    await until(() => expect(rows()).toHaveLength(4));
    expect(sent.table).toHaveLength(asked);
  });

  it('sorts by a header click: title ascending first, a metric descending first, a repeated click flips', async () => {
    await open();
    await click(q('[data-column="title"]'));
    await until(() => expect(search().get('orderBy')).toBe('title:asc'));
    await until(() => expect(rowIds()).toEqual(['[""]', '["direct"]', '["search"]', '["social"]']));
    expect(sent.table.at(-1)?.sort).toEqual({ name: 'title', order: 'asc' });

    await click(q('[data-column="title"]'));
    await until(() => expect(search().get('orderBy')).toBe('title:desc'));

    await click(q('[data-column="visitors"]'));
    await until(() => expect(search().get('orderBy')).toBe('visitors:desc'));
    await click(q('[data-column="visitors"]'));
    await until(() => expect(search().get('orderBy')).toBe('visitors:asc'));
    await until(() => expect(sent.table.at(-1)?.sort).toEqual({ name: 'visitors', order: 'asc' }));
  });

  it('draws the checked rows: the default lines first, then the rows chosen, with their colours kept', async () => {
    await open();
    await until(() => expect(q('[data-testid="report-graph"]')?.textContent).toBe('search|direct|social|Не определено|Итого'));
    const checked = () => rows().filter((r) => r.querySelector<HTMLInputElement>('[data-testid="line-toggle"]')?.checked).map((r) => r.dataset.rowId);
    expect(checked()).toEqual(['["search"]', '["direct"]', '["social"]', '[""]']);
    expect(sent.graph[0]).toMatchObject({ need_all_total: true });
    expect(sent.graph[0]?.selected_lines).toBeUndefined();

    // Unchecking a default line makes the lines explicit, without it.
    await click(rows()[1]?.querySelector('[data-testid="line-toggle"]'));
    await until(() => expect(sent.graph.at(-1)?.selected_lines).toEqual(['["search"]', '["social"]', '[""]']));
    await until(() => expect(checked()).toEqual(['["search"]', '["social"]', '[""]']));

    const colour = (id: string) => rows().find((r) => r.dataset.rowId === id)?.querySelector<HTMLInputElement>('[data-testid="line-toggle"]')?.style.accentColor;
    const socialColour = colour('["social"]');
    await click(rows()[1]?.querySelector('[data-testid="line-toggle"]'));
    await until(() => expect(sent.graph.at(-1)?.selected_lines).toEqual(['["search"]', '["social"]', '[""]', '["direct"]']));
    expect(colour('["social"]')).toBe(socialColour);

    // A new sort goes back to the default lines.
    await click(q('[data-column="title"]'));
    await until(() => expect(sent.graph.at(-1)?.selected_lines).toBeUndefined());
  });

  it('shows more metrics chosen in «Показатели» when the list closes, in the report\'s order', async () => {
    await open();
    await click(q('[data-testid="metrics-picker"]'));
    await click(q('input[data-metric="bounces"]'));
    await click(q('input[data-metric="visitors"]'));
    expect(sent.table.at(-1)?.metrics).toEqual(['visits', 'visitors', 'page_views']);
    await fire(document.body, new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await until(() => expect(search().get('metrics')).toBe('visits,page_views,bounces'));
    await until(() => expect(sent.table.at(-1)?.metrics).toEqual(['visits', 'page_views', 'bounces']));
    await until(() => expect(q('[data-column="bounces"]')?.textContent).toContain('Отказы'));
  });

  it('applies the accuracy when the slider closes, and only if it changed', async () => {
    await open();
    const slider = () => q('[data-testid="sample-slider"]') as HTMLInputElement | null;
    const move = async (value: string) => {
      const input = slider();
      if (!input) throw new Error('no slider');
      // React tracks the value through the native setter.
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
      await fire(input, new Event('input', { bubbles: true }));
    };
    const asked = sent.table.length;
    await click(q('[data-testid="sample-value"]'));
    expect(slider()?.value).toBe('1');
    await move('2');
    await move('1');
    await fire(document.body, new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(slider()).toBeNull();
    expect(search().has('sample')).toBe(false);
    expect(sent.table).toHaveLength(asked);

    await click(q('[data-testid="sample-value"]'));
    await move('0');
    expect(sent.table).toHaveLength(asked);
    await fire(document.body, new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await until(() => expect(search().get('sample')).toBe('0.01'));
    await until(() => expect(sent.table.at(-1)?.sample).toBe(0.01));
    expect(q('[data-testid="sample-value"]')?.textContent).toBe('1%');
  });

  it('corrects the URL: unknown metrics dropped, a bad sample and page size reset', async () => {
    await open('dateStart=7days&dateEnd=today&groupBy=day&metrics=visits,nope&sample=7&limit=13&orderBy=bounces:asc');
    await until(() => expect(search().get('metrics')).toBe('visits'));
    expect(search().has('sample')).toBe(false);
    expect(search().has('limit')).toBe(false);
    expect(search().has('orderBy')).toBe(false);
  });
});

describe('dimension report states', () => {
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const empty = (body: ReportRequest, extra: Partial<TableResult['meta']> = {}) =>
    json(200, { responseStatus: 200, result: { ...tableAnswer(body), data: [], totals: [0, 0, 0], meta: { total: 0, offset: 0, sample: 1, ...extra } } });

  it('shows the placeholder of a report that is not collected, and draws nothing', async () => {
    override = (path, body) => (path.endsWith('/table') ? empty(body, { not_collected: 'not collected' }) : undefined);
    await open(undefined, reportDefinition('sex')!, 0);
    await until(() => expect(q('[data-testid="report-placeholder"]')).not.toBeNull());
    expect(q('[data-testid="report-placeholder"] a')?.textContent).toBe('Подробнее');
    expect(q('[data-testid="report-placeholder"] h2')?.textContent).toBe('Данные о поле посетителей недоступны');
    expect(q('[data-testid="report-placeholder"]')?.querySelectorAll('p')).toHaveLength(3);
    expect(sent.graph).toHaveLength(0);
    expect(q('[data-testid="sample-picker"]')).toBeNull();
  });

  it('the rating: its placeholder for a site in no rating, no filter row, and the menu\'s global filters not sent', async () => {
    const asked: ReportRequest[] = [];
    override = (path, body) => (path.endsWith('/table') ? (asked.push(body), empty(body, { not_collected: 'the site takes no part in the rating' })) : undefined);
    const filters = encodeURIComponent(JSON.stringify([{ key: 'browser_family', op: '=', value: 'Chrome' }]));
    await open(`dateStart=7days&dateEnd=today&groupBy=day&globalFilters=${filters}`, reportDefinition('rating')!, 0);
    await until(() => expect(q('[data-testid="report-placeholder"] h2')?.textContent).toBe('Сайт не участвует в рейтинге'));
    expect(q('[data-testid="filter-bar"]')).toBeNull();
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.map((b) => [b.filters, b.dimension_filters])).toEqual(asked.map(() => [undefined, undefined]));
    // Whole days by day: «7 days to today» becomes the seven days to yesterday, written as dates.
    const last = asked.at(-1)!;
    const days = (Date.parse(last.date_end) - Date.parse(last.date_start)) / 86_400_000 + 1;
    expect([last.group, /^\d{4}-\d{2}-\d{2}$/.test(last.date_end), days]).toEqual(['day', true, 7]);
    expect(search().get('groupBy')).toBe('day');
    expect(document.body.textContent).not.toContain('Детализация:');
    // The same URL on a report that takes filters sends them.
    view?.unmount();
    view = null;
    override = undefined;
    await open(`dateStart=7days&dateEnd=today&groupBy=day&globalFilters=${filters}`, report!, 4);
    expect(sent.table.at(-1)?.filters ?? sent.table.at(-1)?.dimension_filters).toEqual([{ key: 'browser_family', op: '=', value: 'Chrome' }]);
    expect(document.body.textContent).toContain('Детализация:');
  });

  it('the rating: ranks the category of the URL, corrects an unknown one to the first, and switches with the category picker', async () => {
    const rating = reportDefinition('rating')!;
    const asked: ReportRequest[] = [];
    override = (path, body) => (path.endsWith('/table') ? (asked.push(body), empty(body)) : undefined);
    // The site is rated in two categories; the api (and the picker) take the lower id first.
    const project = {
      permissions: { can_edit_project: false },
      categories: [{ id: 1302, title: 'Игры', position: 3 }, { id: 1301, title: 'Новости', parent_title: 'СМИ', position: null }],
    } as unknown as Project;
    await open('dateStart=7days&dateEnd=today&groupBy=day&categoryId=999', rating, 0, project);
    await until(() => expect(search().get('categoryId')).toBe('1301'));
    await until(() => expect(asked.at(-1)?.category_id).toBe(1301));
    expect(q('[data-testid="category-trigger"]')?.textContent).toBe('СМИ / Новости');
    await click(q('[data-testid="category-trigger"]'));
    await click(q('[data-testid="category-1302"]'));
    await until(() => expect(search().get('categoryId')).toBe('1302'));
    await until(() => expect(asked.at(-1)?.category_id).toBe(1302));
    expect(q('[data-testid="category-trigger"]')?.textContent).toBe('Игры');
    // Another report clears the parameter and sends no category.
    view?.unmount();
    view = null;
    override = undefined;
    await open('dateStart=7days&dateEnd=today&groupBy=day&categoryId=1302', report!, 4, project);
    await until(() => expect(search().get('categoryId')).toBeNull());
    expect(sent.table.every((b) => b.category_id === undefined)).toBe(true);
    expect(q('[data-testid="category-picker"]')).toBeNull();
  });

  it('shows the placeholder of an event report without data, and «Нет данных для отображения» for other empty reports', async () => {
    override = (path, body) => (path.endsWith('/table') ? empty(body) : path.endsWith('/graph') ? json(500, { responseStatus: 500, errors: { message: 'Oops... Something went terribly wrong.' } }) : undefined);
    await open(undefined, reportDefinition('custom_vars')!, 0);
    await until(() => expect(q('[data-testid="report-placeholder"]')).not.toBeNull());
    expect(q('[data-testid="error-page"]')).toBeNull();
    view?.unmount();
    view = null;

    override = (path, body) => (path.endsWith('/table') ? empty(body) : undefined);
    await open(undefined, report!, 0);
    await until(() => expect(q('[data-testid="table-empty"]')?.textContent).toBe('Нет данных для отображения'));
    expect(q('[data-testid="report-placeholder"]')).toBeNull();
  });

  it('answers 507 with its screen and a period picker to shorten the period', async () => {
    override = (path) => (path.endsWith('/table') ? json(507, { responseStatus: 507, errors: { message: 'Превышен лимит памяти' } }) : undefined);
    await open(undefined, report!, 0);
    await until(() => expect(q('[data-testid="error-page"]')?.dataset.status).toBe('507'));
    expect(q('[data-testid="error-page"] h1')?.textContent).toBe('Превышен лимит памяти');
    expect(q('[data-testid="error-page"] [data-testid="period-picker"]')).not.toBeNull();
  });

  it('says «Произошла ошибка при запросе на сервер» when the server fails', async () => {
    override = (path) => (path.endsWith('/table') ? json(500, { responseStatus: 500, errors: { message: 'Oops... Something went terribly wrong.' } }) : undefined);
    await open(undefined, report!, 0);
    await until(() => expect(q('[data-testid="error-page"]')?.textContent).toContain('Произошла ошибка при запросе на сервер'));
  });
});

describe('no data (spec 001 §2 «Скачать отчёт», §4 "Date modal")', () => {
  const csv = () => q('[data-testid="csv-button"]') as HTMLButtonElement | null;

  it('disables «Скачать отчёт» when the period\'s rows and totals are all zero, and enables it with data', async () => {
    asUser = true;
    await open();
    await until(() => expect(csv()?.disabled).toBe(false));
    view?.unmount();
    view = null;

    const zero = (r: TableRow): TableRow => ({ ...r, metrics: r.metrics.map(() => 0) });
    override = (path, body) =>
      path.endsWith('/table')
        ? new Response(JSON.stringify({ responseStatus: 200, result: { ...tableAnswer(body), data: TOP.map(zero), totals: [0, 0, 0] } }), { status: 200 })
        : undefined;
    await open();
    expect(csv()?.disabled).toBe(true);
  });

  it('warns in the date form when the typed range lies outside the days with data', async () => {
    await open();
    await click(q('[data-testid="period-dates"]'));
    const inputs = () => [...document.querySelectorAll<HTMLInputElement>('[role="dialog"] input')];
    const typeRange = async (start: string, end: string) => {
      for (const [input, value] of [[inputs()[0], start], [inputs()[1], end]] as const) {
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
        await fire(input, new Event('input', { bubbles: true }));
      }
    };
    const warning = () => q('[data-testid="period-no-data"]')?.textContent ?? null;

    await typeRange('01.01.2020', '05.01.2020');
    await until(() => expect(warning()).toBe('За выбранный период отсутствуют данные, пожалуйста, выберете доступный интервал.'));
    await typeRange('01.02.2025', '10.02.2025');
    expect(warning()).not.toBeNull();
    // Overlapping the data (even partly) is fine; applying stays possible either way.
    await typeRange('25.12.2024', '05.01.2025');
    expect(warning()).toBeNull();
    await typeRange('10.01.2025', '20.01.2025');
    expect(warning()).toBeNull();
    expect((q('[role="dialog"] button[type="submit"]') as HTMLButtonElement | null)?.disabled).toBe(false);
  });
});

describe('the bucket not yet over (a period up to now)', () => {
  // Tuesday 24 November 2026, 14:30 in Moscow, whatever the clock of the machine running this.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T14:30:00+03:00'));
    // A bucket a day of the period asked, as the api sends them.
    override = (path, body) => {
      if (!path.endsWith('/graph')) return undefined;
      const days: string[] = [];
      for (let d = body.date_start ?? ''; d <= (body.date_end ?? ''); d = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)) days.push(d);
      const points = days.map((d) => ({ ts: Date.parse(`${d}T00:00:00+03:00`) / 1000, date: `${d} 00:00:00`, metrics: [10, 9, 20] }));
      const result: GraphResult = { metrics: body.metrics ?? [], data: [{ id: 'total', title: 'Итого', points }], totals: [70, 63, 140], sample: 1 };
      return new Response(JSON.stringify({ responseStatus: 200, result }), { status: 200, headers: { 'content-type': 'application/json' } });
    };
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const graphBox = () => q('[data-graph="report-graph"] [data-chart-type]');

  it('draws today, the last day of 7 days up to today, as not yet over', async () => {
    await open('dateStart=7days&dateEnd=today&groupBy=day');
    await until(() => expect(graphBox()?.getAttribute('data-incomplete-from')).toBe('6'));
    expect(q('[data-testid="report-graph"]')?.textContent).toBe('Итого|Итого (неполные данные)');
  });

  it('draws every day of a week that ended yesterday as whole', async () => {
    await open('dateStart=2026-11-17&dateEnd=2026-11-23&groupBy=day');
    await until(() => expect(q('[data-testid="report-graph"]')?.textContent).toBe('Итого'));
    expect(graphBox()?.hasAttribute('data-incomplete-from')).toBe(false);
  });
});
