import { useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { METRIC_INFO } from '@stat/schemas/catalogue';
import { ATTRIBUTION_LABELS, ATTRIBUTION_MODELS, ATTRIBUTION_WINDOWS, type AttributionModel, type AttributionWindow } from '@stat/schemas/conversions';
import { useProject } from '../../app/project';
import { useUser } from '../../app/session';
import { useSnackbar } from '../../app/Snackbar';
import { Button, PageHeader, Select, Spinner } from '../../components/ui';
import { calls, type ConversionBody } from '../../data/calls';
import { ApiError } from '../../lib/api';
import { formatInteger } from '../../lib/format';
import { useRequest } from '../../lib/hooks';
import { useIncompleteFrom, usePagePeriod } from '../../reports/framework/hooks';
import { PeriodPicker } from '../../reports/framework/Toolbar';
import { SamplePicker } from '../../reports/framework/SamplePicker';
import { TimeSeriesGraph, type TimePoint } from '../../reports/framework/TimeSeriesGraph';
import type { ReportMetric } from '../../reports/view';
import { ErrorPage } from '../ErrorPage';
import { ConversionDetails } from './ConversionDetails';
import { ConversionForm } from './ConversionForm';
import { ConversionWidgets, type WidgetQuery } from './ConversionWidgets';
import {
  cardActions,
  CONVERSION_PAGE_TEXTS as T,
  conversionFailure,
  conversionRights,
  conversionText,
  readSample,
  SAMPLE_PARAM,
  TABLE_PARAMS,
  windowText,
  withPeriod,
  writeSample,
  type DateSpan,
} from './conversionState';
import styles from './Conversions.module.css';
import { ProjectPageTitle } from '../../app/ProjectPageTitle';

const DAY_MS = 86_400_000;

/** The graph's two lines: the goal's and the denominator's counts by day. */
const LINES: readonly ReportMetric[] = [
  { name: 'visits', title: T.numerator, unit: METRIC_INFO.visits.unit },
  { name: 'visits', title: T.denominator, unit: METRIC_INFO.visits.unit },
];

/** Every day of the period, each with both sides' values (0 where the api has none). */
function dailyPoints(span: DateSpan, numerator: readonly { date: string; value: number }[], denominator: readonly { date: string; value: number }[]): TimePoint[] {
  const byDay = (side: readonly { date: string; value: number }[]) => new Map(side.map((p) => [p.date.slice(0, 10), p.value]));
  const n = byDay(numerator);
  const d = byDay(denominator);
  const points: TimePoint[] = [];
  for (let ms = Date.parse(`${span.start}T00:00:00Z`); ms <= Date.parse(`${span.end}T00:00:00Z`); ms += DAY_MS) {
    const day = new Date(ms).toISOString().slice(0, 10);
    // Moscow midnight, in seconds.
    points.push({ ts: Date.parse(`${day}T00:00:00+03:00`) / 1000, date: `${day} 00:00:00`, metrics: [n.get(day) ?? 0, d.get(day) ?? 0] });
  }
  return points;
}

/**
 * A conversion's report (spec 002 §2 "Single-conversion report"): its title, the period, the
 * attribution model and window and «Точность:» (kept in the URL; the sample applies to every call), the key figures with «Изменить», a graph of
 * both goals by day, «Детализация» by the credited values of the chosen dimensions, and the three
 * widgets (traffic sources, audience, technology) in percent.
 */
export default function ConversionPage() {
  const { project } = useProject();
  const projectId = String(project.id);
  const { conversionId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const user = useUser();
  const snackbar = useSnackbar();
  // Another period: the table starts from its first page.
  const dates = usePagePeriod([TABLE_PARAMS.offset]);
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const id = /^\d{1,10}$/.test(conversionId) ? Number(conversionId) : null;

  const conversion = useRequest(id === null ? null : `conversion:${id}`, (signal) => calls.conversion(id ?? 0, { signal }));
  const span: DateSpan | null = dates?.period ?? null;
  const attributionParam = ATTRIBUTION_MODELS.find((m) => m === params.get('attribution'));
  const windowParam = ATTRIBUTION_WINDOWS.find((w) => String(w) === params.get('attribution_window'));
  const attribution: AttributionModel | undefined = attributionParam ?? conversion.data?.attribution;
  const window: AttributionWindow | undefined = windowParam ?? conversion.data?.attribution_window;
  const sample = readSample(params.get(SAMPLE_PARAM));

  const setParam = (changes: Record<string, string>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) next.set(key, value);
      // Another attribution: the table starts from its first page.
      next.delete(TABLE_PARAMS.offset);
      return next;
    });
  // Another sample: other counts, so the table starts from its first page too.
  const setSample = (next: number) =>
    setParams((current) => {
      const changed = writeSample(current, next);
      changed.delete(TABLE_PARAMS.offset);
      return changed;
    });

  const ready = id !== null && span !== null && conversion.data !== undefined;
  const figures = useRequest(ready ? `conversion-one:${projectId}:${id}:${span.start}:${span.end}:${sample}` : null, (signal) =>
    calls.conversionFigures(projectId, { date_start: span?.start ?? '', date_end: span?.end ?? '', conversion_ids: [id ?? 0], sample }, { signal }),
  );
  const one = figures.data?.conversions.find((c) => c.id === id);
  const points = useMemo(() => (one && span ? dailyPoints(span, one.numerator.data, one.denominator.data) : undefined), [one, span?.start, span?.end]); // eslint-disable-line react-hooks/exhaustive-deps
  // Today, in a period up to today, is drawn as a day not yet over, not as a fall.
  const incompleteFrom = useIncompleteFrom(figures.data, points, 'day', span?.end);

  if (id === null || (conversion.error instanceof ApiError && (conversion.error.status === 404 || conversion.error.status === 403))) return <ErrorPage status={404} />;
  const current = conversion.data;
  if (!current || !span || !dates) {
    return (
      <div className={styles.page} aria-busy="true">
        <Spinner label="Загрузка" />
      </div>
    );
  }
  const rights = conversionRights(projectId, user !== null, project.permissions.can_edit_project);
  const actions = cardActions(current, rights.write, project.permissions.can_edit_project);
  const save = async (body: ConversionBody) => {
    setSaving(true);
    setFormError(null);
    try {
      await calls.updateConversion(current.id, body);
      snackbar(T.updated);
      setEditing(false);
      conversion.reload();
      figures.reload();
    } catch (error) {
      setFormError(conversionFailure(error));
    } finally {
      setSaving(false);
    }
  };
  const heading = `Конверсия: ${current.title}`;
  const query: WidgetQuery = { projectId, conversionId: current.id, span, attribution: attributionParam, window: windowParam, sample };

  return (
    <div className={styles.page} data-testid="conversion-page">
      <ProjectPageTitle title={heading} />
      <Link to={withPeriod(`/stat/projects/${projectId}/conversions`, dates.period)} className={styles.muted} data-testid="conversion-back">
        ← {T.pageTitle}
      </Link>
      <PageHeader
        title={heading}
        actions={
          actions.edit ? (
            <Button onClick={() => setEditing(true)} data-testid="conversion-edit">
              {T.edit}
            </Button>
          ) : undefined
        }
      />
      <div className={styles.toolbar} data-testid="conversion-page-toolbar">
        <PeriodPicker period={dates.period} today={dates.today} onChange={dates.setDates} projectId={projectId} />
        {/* The page's own settings wrap as one group, below the period when they do not fit beside it. */}
        <div className={styles.toolbarSettings}>
          <label className={styles.dates}>
            {T.fieldAttribution}:
            <Select
              value={attribution}
              onChange={(e) => setParam({ attribution: e.target.value })}
              className={styles.modelSelect}
              title={attribution ? ATTRIBUTION_LABELS[attribution] : undefined}
              data-testid="conversion-page-attribution"
            >
              {ATTRIBUTION_MODELS.map((m) => (
                <option key={m} value={m}>
                  {ATTRIBUTION_LABELS[m]}
                </option>
              ))}
            </Select>
          </label>
          <label className={styles.dates}>
            {T.fieldWindow}:
            <Select value={String(window)} onChange={(e) => setParam({ attribution_window: e.target.value })} className={styles.narrowSelect} data-testid="conversion-page-window">
              {ATTRIBUTION_WINDOWS.map((w) => (
                <option key={w} value={String(w)}>
                  {windowText(w)}
                </option>
              ))}
            </Select>
          </label>
          <SamplePicker value={sample} used={figures.data?.sample} today={dates.period.start === dates.today && dates.period.end === dates.today} onChange={setSample} />
        </div>
        {figures.loading ? <Spinner size={16} label="Загрузка" /> : null}
      </div>
      {current.description ? <div className={styles.muted}>{current.description}</div> : null}
      <div className={styles.figures} data-testid="conversion-figures">
        <div className={styles.figure}>
          <div className={styles.figureLabel}>{T.conversion}</div>
          <div className={styles.figureValue} data-testid="conversion-page-value">
            {one ? conversionText(one.conversion) : '…'}
          </div>
        </div>
        <div className={styles.figure}>
          <div className={styles.figureLabel}>{T.numerator}</div>
          <div className={styles.figureValue} data-testid="conversion-page-numerator">
            {one ? formatInteger(one.numerator.totals) : '…'}
          </div>
        </div>
        <div className={styles.figure}>
          <div className={styles.figureLabel}>{T.denominator}</div>
          <div className={styles.figureValue} data-testid="conversion-page-denominator">
            {one ? formatInteger(one.denominator.totals) : '…'}
          </div>
        </div>
      </div>
      <div className={styles.panel}>
        <TimeSeriesGraph
          points={points}
          metrics={LINES}
          totals={one ? [one.numerator.totals, one.denominator.totals] : undefined}
          period={{ start: span.start, end: span.end, group: 'day' }}
          loading={figures.loading}
          height={260}
          incompleteFrom={incompleteFrom}
          testId="conversion-graph"
        />
      </div>
      <ConversionDetails key={`details:${current.update_date}`} query={query} title={current.title} />
      <ConversionWidgets key={`widgets:${current.update_date}`} query={query} />
      {editing ? (
        <ConversionForm
          projectId={projectId}
          conversion={current}
          busy={saving}
          error={formError}
          onSave={(body) => void save(body)}
          onCancel={() => {
            setEditing(false);
            setFormError(null);
          }}
        />
      ) : null}
    </div>
  );
}
