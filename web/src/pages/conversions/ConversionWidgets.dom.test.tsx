// @vitest-environment happy-dom
/** A conversion's widgets (spec 002 §2): today, in a period up to today, is drawn as a day not yet over. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversionWidgetResult } from '@stat/schemas/conversions';
import { cleanup, render, until } from '../../testing/render';
import { ConversionWidgets, type WidgetQuery } from './ConversionWidgets';

// happy-dom has no canvas: the one uPlot wrapper is replaced by a box that names its series.
vi.mock('../../components/UPlotChart', () => ({
  UPlotChart: (props: { series?: { label?: string }[]; testId?: string }) => (
    <div data-testid={props.testId}>{(props.series ?? []).map((s) => s.label).join('|')}</div>
  ),
}));

/** One category converting every day of the period asked. */
function widgetAnswer(start: string, end: string): ConversionWidgetResult {
  const points = [];
  for (let ms = Date.parse(`${start}T00:00:00Z`); ms <= Date.parse(`${end}T00:00:00Z`); ms += 86_400_000) {
    points.push({ date: new Date(ms).toISOString().slice(0, 10), numerator: 1, denominator: 10, conversion: 10 });
  }
  return {
    data: { direct: { title: 'Прямые заходы', numerator: points.length, denominator: 10 * points.length, conversion: 10, points } },
    meta: { dimensions: ['traffic_type'], order: ['direct'], attribution: 'last_click', attribution_window: 7, sample: 1 },
  };
}

// Tuesday 24 November 2026, 14:30 in Moscow, whatever the clock of the machine running this.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-24T14:30:00+03:00'));
  vi.stubGlobal('fetch', (async (_input: string | URL | Request, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { date_start: string; date_end: string };
    return new Response(JSON.stringify({ responseStatus: 200, result: widgetAnswer(body.date_start, body.date_end) }), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const query = (start: string, end: string): WidgetQuery => ({ projectId: '8000002', conversionId: 41, span: { start, end }, attribution: undefined, window: undefined, sample: 1 });
const graph = () => document.querySelector('[data-testid="conversion-widget-audience-graph"]');

describe('the day not yet over in a conversion\'s widgets', () => {
  it('is today, the last day of 7 days up to today', async () => {
    await render(<ConversionWidgets query={query('2026-11-18', '2026-11-24')} />);
    await until(() => expect(graph()?.textContent).toBe('Прямые заходы|Прямые заходы (неполные данные)'));
    expect(graph()?.parentElement?.getAttribute('data-incomplete-from')).toBe('6');
  });

  it('is none in a week that ended yesterday', async () => {
    await render(<ConversionWidgets query={query('2026-11-17', '2026-11-23')} />);
    await until(() => expect(graph()?.textContent).toBe('Прямые заходы'));
    expect(graph()?.parentElement?.hasAttribute('data-incomplete-from')).toBe(false);
  });
});
