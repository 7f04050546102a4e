import { lazy, memo, Suspense, useContext, useEffect, useState } from 'react';
import { CONSTRUCTOR_TEXTS, MEDIA_TOTALS } from '@stat/schemas/reports';
import { useParams } from 'react-router-dom';
import { counterPending, ProjectContext } from '../app/project';
import { ErrorPage } from '../pages/ErrorPage';
import { Placeholder } from '../pages/Placeholder';
import { CounterPending } from './framework/CounterPending';
import { ReportPage } from './framework/ReportPage';
import { ReportSkeleton } from './framework/ReportSkeleton';
import { openableReport, PLANNED_MEDIA_REPORTS, PLANNED_REPORTS, reportHint, reportViewModule, type LoadingView, type ReportDefinition, type ViewModule } from './registry';
import type { ReportViewProps } from './view';

const ConstructorReport = lazy(() => import('../pages/constructor/ConstructorReport'));

/** `new/report/:reportName`: the report's view (the constructor its own page), a placeholder for planned ones, else 404. */
export function ReportRoute() {
  const { projectId = '', reportName = '' } = useParams();
  if (reportName === 'constructor') {
    return (
      <Suspense fallback={<ReportSkeleton title={CONSTRUCTOR_TEXTS.title} />}>
        <ConstructorReport projectId={projectId} />
      </Suspense>
    );
  }
  const report = openableReport(reportName);
  // The media reports open at new/media/ (MediaReportRoute), behind their project's media_totals.
  if (!report || report.group === 'media') {
    if (PLANNED_REPORTS.has(reportName)) return <Placeholder title="Отчёт" text="Этот отчёт скоро появится." />;
    return <ErrorPage status={404} />;
  }
  return <DefinedReport projectId={projectId} report={report} />;
}

/** A defined report's page: its view, or the install code while the site's counter has sent nothing. */
function DefinedReport({ projectId, report }: { readonly projectId: string; readonly report: ReportDefinition }) {
  const context = useContext(ProjectContext);
  const hint = reportHint(report.name);
  // A site whose counter has sent nothing yet: its install code until the first hit (not the
  // rating, whose rows are other sites).
  if (context && counterPending(context.project) && report.name !== 'rating') {
    return (
      <ReportPage title={report.title} subtitle={projectId}>
        <CounterPending project={context.project} onSeen={context.reload} />
      </ReportPage>
    );
  }
  return <ReportView key={`${projectId}/${report.name}`} projectId={projectId} report={report} {...(hint ? { hint } : {})} />;
}

/**
 * A report's view, at once when its code came before (the app starts loading it before the first
 * render), else its skeleton until the code comes. Not a Suspense fallback: content revealed after
 * a shown fallback is held back 300 ms more (React 19's throttle), longer than the code takes.
 * Drawn again only when its props change: the project's answer, which often comes after the view
 * drew (the demo's reports do not wait for it), redraws the route, not the whole report; what in
 * the view needs the project or the session reads them itself.
 */
const ReportView = memo(function ReportView(props: ReportViewProps) {
  const module = useLoadedView(reportViewModule(props.report));
  if (!module) return <ReportSkeleton title={props.report.title} {...(props.hint ? { hint: props.hint } : {})} />;
  const { default: View } = module;
  return <View {...props} />;
});

/** The view's module once `loading` came (null until then); a failed load goes to the error page. */
function useLoadedView(loading: LoadingView): ViewModule | null {
  const [failure, setFailure] = useState<{ readonly error: unknown } | null>(null);
  const [, setCame] = useState(0);
  // What this render saw: the code may come between the render and the effect, which then waits
  // for it all the same (a resolved promise calls back at once).
  const came = loading.status === 'fulfilled';
  useEffect(() => {
    if (came) return undefined;
    let live = true;
    void loading.then(
      () => live && setCame((n) => n + 1),
      (error: unknown) => live && setFailure({ error }),
    );
    return () => {
      live = false;
    };
  }, [loading, came]);
  if (failure) throw failure.error;
  return came ? (loading.value ?? null) : null;
}

/**
 * `new/media/:reportName[/:mediaId]`: «Материалы» and «Авторы» are defined reports, shown as the
 * dimension reports are, once the project has material hits (media_totals in its
 * available_reports); the other media pages are still to come.
 */
export function MediaReportRoute() {
  const { projectId = '', reportName = '', mediaId } = useParams();
  const context = useContext(ProjectContext);
  const report = mediaId === undefined ? openableReport(reportName) : undefined;
  if (report?.group === 'media') {
    if (context && !context.project.available_reports.includes(MEDIA_TOTALS)) {
      return (
        <Placeholder title={report.title} text="Медиа-отчёты появятся, когда счётчик пришлёт первые просмотры статей.">
          <p>
            Как подключить: поставьте на страницы статей полную версию счётчика (counter-full.js). Статью он находит по
            селектору из атрибута data-article (по умолчанию — элемент article), название — в og:title или первом
            заголовке h1, автора — в meta name=&quot;author&quot; или атрибуте data-author статьи.
          </p>
        </Placeholder>
      );
    }
    return <DefinedReport projectId={projectId} report={report} />;
  }
  if (!PLANNED_MEDIA_REPORTS.has(reportName)) return <ErrorPage status={404} />;
  return <Placeholder title="Медиа-отчёт" text="Этот медиа-отчёт скоро появится." />;
}
