/** The three widgets of a conversion's report (spec 002 §2): traffic sources, audience, technology. */
import { useMemo, useState } from 'react';
import {
  CONVERSION_DIMENSION_TITLES,
  CONVERSION_METRIC_TITLES,
  CONVERSION_WIDGET_CHARTS,
  CONVERSION_WIDGET_INFO,
  CONVERSION_WIDGETS,
  type AttributionModel,
  type AttributionWindow,
  type ConversionWidget,
  type ConversionWidgetDimension,
  type ConversionWidgetResult,
} from '@stat/schemas/conversions';
import { calls } from '../../data/calls';
import { useRequest } from '../../lib/hooks';
import type { ChartType } from '../../reports/framework/charts';
import { useIncompleteFrom } from '../../reports/framework/hooks';
import { ChartTypePicker } from '../../reports/framework/Toolbar';
import { LinesGraph, type GraphSeries } from '../../reports/dimension/LinesGraph';
import type { ReportMetric } from '../../reports/view';
import { paletteColor } from '../../lib/palette';
import { Segmented } from '../../reports/framework/Segmented';
import { WidgetCard } from '../../reports/framework/WidgetCard';
import { CONVERSION_PAGE_TEXTS as T, conversionText, type DateSpan } from './conversionState';
import styles from './Conversions.module.css';

const DAY_MS = 86_400_000;
/** Height of a widget's graph (spec 001 §9: 200 among the chart heights). */
const GRAPH_HEIGHT = 200;

/** The graphed value: the conversion of each category, in percent. */
const PERCENT: ReportMetric = { name: 'visits', title: CONVERSION_METRIC_TITLES.conversion, unit: 'percent' };

/** What every widget asks beside its dimension. */
export interface WidgetQuery {
  readonly projectId: string;
  readonly conversionId: number;
  readonly span: DateSpan;
  /** Only when the URL names them: the conversion's own otherwise. */
  readonly attribution: AttributionModel | undefined;
  readonly window: AttributionWindow | undefined;
  /** The share of visitors every call of the page reads. */
  readonly sample: number;
}

/** The days of the period as the graph's buckets: Moscow midnights. */
function daysOf(span: DateSpan): { ts: number; date: string; day: string }[] {
  const days: { ts: number; date: string; day: string }[] = [];
  for (let ms = Date.parse(`${span.start}T00:00:00Z`); ms <= Date.parse(`${span.end}T00:00:00Z`); ms += DAY_MS) {
    const day = new Date(ms).toISOString().slice(0, 10);
    days.push({ ts: Date.parse(`${day}T00:00:00+03:00`) / 1000, date: `${day} 00:00:00`, day });
  }
  return days;
}

/** A line per category, in the answer's order, its conversion on each day (none where the day has no denominator). */
function linesOf(answer: ConversionWidgetResult | undefined, days: readonly { day: string }[]): GraphSeries[] {
  if (!answer) return [];
  return answer.meta.order.map((key, i) => {
    const category = answer.data[key]!;
    const byDay = new Map(category.points.map((p) => [p.date, p.conversion]));
    return { id: key, title: category.title, colorIndex: i, values: days.map((d) => byDay.get(d.day) ?? null) };
  });
}

/** One widget: its tabs (more than one dimension), the chart types (pie and area disabled), the graph by day and the period's percent of each category. */
function Widget({ widget, query }: { readonly widget: ConversionWidget; readonly query: WidgetQuery }) {
  const info = CONVERSION_WIDGET_INFO[widget];
  const tabs: readonly ConversionWidgetDimension[] = info.dimensions;
  const [dimension, setDimension] = useState<ConversionWidgetDimension>(tabs[0]!);
  const [chart, setChart] = useState<ChartType>(info.chart);
  const { projectId, conversionId, span, attribution, window, sample } = query;
  const key = `conversion-widget:${projectId}:${conversionId}:${widget}:${dimension}:${span.start}:${span.end}:${attribution ?? ''}:${window ?? ''}:${sample}`;
  const answer = useRequest(key, (signal) =>
    calls.conversionWidget(
      projectId,
      widget,
      { conversion_id: conversionId, date_start: span.start, date_end: span.end, dimension, ...(attribution ? { attribution } : {}), ...(window ? { attribution_window: window } : {}), sample },
      { signal },
    ),
  );
  const days = useMemo(() => daysOf(span), [span.start, span.end]); // eslint-disable-line react-hooks/exhaustive-deps
  const lines = useMemo(() => linesOf(answer.data, days), [answer.data, days]);
  // Today, in a period up to today, is drawn as a day not yet over (dashed, a pale bar), not as a fall.
  const incompleteFrom = useIncompleteFrom(answer.data, days, 'day', span.end);
  const result = answer.data;
  return (
    <WidgetCard
      title={info.title}
      level={3}
      tools={
        <>
          {tabs.length > 1 ? (
            <Segmented label={info.title} options={tabs.map((d) => ({ value: d, title: CONVERSION_DIMENSION_TITLES[d] }))} value={dimension} onChange={setDimension} attr="data-tab" />
          ) : null}
          <ChartTypePicker value={chart} allowed={CONVERSION_WIDGET_CHARTS} onChange={setChart} />
        </>
      }
      loading={answer.loading}
      testId={`conversion-widget-${widget}`}
    >
      {result && result.meta.order.length === 0 ? (
        <p className={styles.muted}>{T.empty}</p>
      ) : (
        <LinesGraph
          buckets={answer.data ? days : undefined}
          lines={lines}
          metric={PERCENT}
          period={{ start: span.start, end: span.end, group: 'day' }}
          loading={answer.loading}
          height={GRAPH_HEIGHT}
          chartType={chart === 'bar' ? 'bar' : 'line'}
          percent
          incompleteFrom={incompleteFrom}
          testId={`conversion-widget-${widget}-graph`}
        />
      )}
      {result ? (
        <ul className={styles.widgetLegend} data-testid={`conversion-widget-${widget}-legend`}>
          {result.meta.order.map((key, i) => {
            const category = result.data[key]!;
            return (
              <li key={key} data-testid="conversion-widget-category">
                <span className={styles.widgetSwatch} style={{ background: paletteColor(i) }} aria-hidden="true" />
                <span className={styles.widgetCategory}>{category.title}</span>
                <span className={styles.num}>{conversionText(category.conversion)}</span>
              </li>
            );
          })}
        </ul>
      ) : null}
    </WidgetCard>
  );
}

/** The three widgets side by side, under the table. */
export function ConversionWidgets({ query }: { readonly query: WidgetQuery }) {
  return (
    <div className={styles.widgets} data-testid="conversion-widgets">
      {CONVERSION_WIDGETS.map((w) => (
        <Widget key={w} widget={w} query={query} />
      ))}
    </div>
  );
}
