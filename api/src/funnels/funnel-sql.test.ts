import { describe, expect, it } from 'vitest';
import type { ClickHouseClient } from '@stat/storage';
import { eventKeyOf, type GoalBody } from '@stat/schemas';
import { compileFunnel, funnelFigures, scaledCounts, type FunnelCounts } from './funnel-sql.js';
import { useChdb } from '../testing/chdb.js';

// Needs: chDB (in-process). Funnels of 2 and of 11 steps over visitors whose paths were laid out
// by hand; every count below was worked out from them.
const PROJECT = 78;
const DAY = '2026-11-10';
const BEFORE = '2026-11-09';

interface Step {
  visitor: string;
  day?: string;
  path: string;
  type?: 'pageview' | 'outbound';
  name?: string;
}

let clock = 0;
function row(s: Step): Record<string, unknown> {
  clock += 1;
  const day = s.day ?? DAY;
  const url = `https://site.example${s.path}`;
  const time = new Date(Date.parse(`${day}T08:00:00Z`) + clock * 1000).toISOString().slice(0, 19).replace('T', ' ');
  return {
    event_key: eventKeyOf(crypto.randomUUID()),
    project_id: PROJECT,
    event_type: s.type ?? 'pageview',
    event_name: s.name ?? s.type ?? 'pageview',
    ts: time,
    event_date: day,
    visitor_id: s.visitor,
    session_id: s.visitor.charCodeAt(0),
    session_start: time,
    url,
    url_no_args: url,
  };
}

const download = (visitor: string, day?: string): Step => ({ visitor, path: '/catalog', type: 'outbound', name: 'download', ...(day ? { day } : {}) });
const view = (visitor: string, path: string, day?: string): Step => ({ visitor, path, ...(day ? { day } : {}) });

/**
 * Two steps, the catalogue viewed, then a file downloaded:
 * A views then downloads (in order); B downloads, then views (both, not in order); C only views;
 * D only downloads; E views the home page; F viewed the catalogue the day before the period, and
 * downloads in it.
 */
const TWO: Step[] = [
  view('A', '/catalog'), download('A'),
  download('B'), view('B', '/catalog'),
  view('C', '/catalog'),
  download('D'),
  view('E', '/'),
  view('F', '/catalog', BEFORE), download('F'),
];

/**
 * Eleven steps, the pages /s1 to /s11: G views all eleven in order; H views /s1 to /s5, then /s7;
 * I views /s11, then /s1; J views /s2 and /s3.
 */
const ELEVEN: Step[] = [
  ...Array.from({ length: 11 }, (_, i) => view('G', `/s${i + 1}`)),
  ...[1, 2, 3, 4, 5, 7].map((i) => view('H', `/s${i}`)),
  view('I', '/s11'), view('I', '/s1'),
  view('J', '/s2'), view('J', '/s3'),
];

const pageGoal = (path: string): GoalBody => ({ dimension_filters: [{ key: 'event_type', op: '=', value: 'pageview' }, { key: 'url', op: 'like', value: `*${path}` }] });
const DOWNLOAD: GoalBody = { dimension_filters: [{ key: 'event_type', op: '=', value: 'outbound' }, { key: 'event_name', op: '=', value: 'download' }] };

let clickhouse: ClickHouseClient;

useChdb('funnel-sql', () => [...TWO, ...ELEVEN].map(row), (client) => {
  clickhouse = client;
});

async function count(steps: GoalBody[][]): Promise<FunnelCounts> {
  const { query, params } = compileFunnel({ projectId: PROJECT, steps, dateStart: DAY, dateEnd: DAY, filters: [], sample: 1 });
  const answer = await clickhouse.query({ query, query_params: params, format: 'JSONEachRow' });
  const [r] = await answer.json<{ prev: unknown[]; total: unknown[]; went: unknown[] }>();
  return scaledCounts(r!, 1);
}

describe('a funnel of 2 steps', () => {
  it('counts, per step, the visitors in order, all who reached it, and those who went on', async () => {
    expect(await count([[pageGoal('/catalog')], [DOWNLOAD]])).toEqual({
      prev: [3, 1], // A, B, C viewed; only A then downloaded
      total: [3, 4], // downloads: A, B, D, F
      went: [1, 0], // A alone went from the catalogue to a download
    });
  });

  it('gives the five metrics with visitors from the previous step only, and with the others', async () => {
    const { table, graph } = funnelFigures(await count([[pageGoal('/catalog')], [DOWNLOAD]]), ['Каталог', 'Скачивание']);
    expect(table).toEqual([
      { stepNumber: 1, stepTitle: 'Каталог', metrics: [3, 2, 66.67, 100, 100], metricsWithNotPrevStep: [3, 2, 66.67, 100, 100] },
      { stepNumber: 2, stepTitle: 'Скачивание', metrics: [1, 0, 0, 33.33, 33.33], metricsWithNotPrevStep: [4, 0, 0, 133.33, 133.33] },
    ]);
    expect(graph[1]).toEqual({
      stepNumber: 2,
      stepTitle: 'Скачивание',
      visitorsPrevStep: 1,
      visitorsNotPrevStep: 3,
      visitorsSum: 4,
      convPrevStep: 33.33,
      convPrevStepSum: 133.33,
      convFirstStep: 33.33,
      convFirstStepSum: 133.33,
    });
  });

  it('a step of two goals is reached by either', async () => {
    expect((await count([[pageGoal('/catalog')], [DOWNLOAD, pageGoal('/')]])).total).toEqual([3, 5]);
  });

  it('a period that takes in the day before puts F in order', async () => {
    const { query, params } = compileFunnel({ projectId: PROJECT, steps: [[pageGoal('/catalog')], [DOWNLOAD]], dateStart: BEFORE, dateEnd: DAY, filters: [], sample: 1 });
    const [r] = await (await clickhouse.query({ query, query_params: params, format: 'JSONEachRow' })).json<{ prev: unknown[] }>();
    expect(r!.prev.map(Number)).toEqual([4, 2]);
  });
});

describe('a funnel of 11 steps', () => {
  const steps = Array.from({ length: 11 }, (_, i) => [pageGoal(`/s${i + 1}`)]);

  it('counts G through all eleven, H to the fifth, I to the first, J nowhere in order', async () => {
    expect(await count(steps)).toEqual({
      prev: [3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1],
      total: [3, 3, 3, 2, 2, 1, 2, 1, 1, 1, 2],
      went: [2, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0],
    });
  });

  it('its figures: those who left, the shares and the conversions, rounded to 2 decimals', async () => {
    const { table, graph } = funnelFigures(await count(steps), steps.map((_, i) => `Шаг ${i + 1}`), ['visitors_all', 'visitors_left_step', 'conversion_first_step', 'conversion_previous_step']);
    expect(table.map((r) => r.metrics)).toEqual([
      [3, 1, 100, 100],
      [2, 0, 66.67, 66.67],
      [2, 0, 66.67, 100],
      [2, 0, 66.67, 100],
      [2, 1, 66.67, 100],
      [1, 0, 33.33, 50],
      [1, 0, 33.33, 100],
      [1, 0, 33.33, 100],
      [1, 0, 33.33, 100],
      [1, 0, 33.33, 100],
      [1, 0, 33.33, 100],
    ]);
    expect(table.map((r) => r.metricsWithNotPrevStep)).toEqual([
      [3, 1, 100, 100],
      [3, 0, 100, 100],
      [3, 1, 100, 100],
      [2, 0, 66.67, 66.67],
      [2, 1, 66.67, 100],
      [1, 0, 33.33, 50],
      [2, 1, 66.67, 200],
      [1, 0, 33.33, 50],
      [1, 0, 33.33, 100],
      [1, 0, 33.33, 100],
      [2, 0, 66.67, 200],
    ]);
    expect(graph.map((g) => g.visitorsNotPrevStep)).toEqual([0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });
});

describe('funnel figures', () => {
  it('a step nobody reached has no ratios (null), not NaN', () => {
    const { table } = funnelFigures({ prev: [0, 0], total: [0, 0], went: [0, 0] }, ['a', 'b']);
    expect(table[1]).toEqual({ stepNumber: 2, stepTitle: 'b', metrics: [0, 0, null, null, null], metricsWithNotPrevStep: [0, 0, null, null, null] });
  });

  it('counts read from a sample are scaled back', () => {
    expect(scaledCounts({ prev: ['3', 1], total: [4, 2], went: [1, 0] }, 0.1)).toEqual({ prev: [30, 10], total: [40, 20], went: [10, 0] });
  });
});
