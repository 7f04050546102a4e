import { lazy, memo, Suspense, useContext, useEffect, useState } from 'react';
import { CONSTRUCTOR_TEXTS } from '@stat/schemas/reports';
import { useParams } from 'react-router-dom';
import { counterPending, ProjectContext } from '../app/project';
import { ErrorPage } from '../pages/ErrorPage';
import { Placeholder } from '../pages/Placeholder';
import { CounterPending } from './framework/CounterPending';
import { ReportPage } from './framework/ReportPage';
import { ReportSkeleton } from './framework/ReportSkeleton';
import { openableReport, PLANNED_MEDIA_REPORTS, PLANNED_REPORTS, reportHint, reportViewModule, type LoadingView, type ViewModule } from './registry';
import type { ReportViewProps } from './view';

const ConstructorReport = lazy(() => import('../pages/constructor/ConstructorReport'));

/** `new/report/:reportName`: the report's view (the constructor its own page), a placeholder for planned ones, else 404. */
export function ReportRoute() {
  const { projectId = '', reportName = '' } = useParams();
  const context = useContext(ProjectContext);
  if (reportName === 'constructor') {
    return (
      <Suspense fallback={<ReportSkeleton title={CONSTRUCTOR_TEXTS.title} />}>
        <ConstructorReport projectId={projectId} />
      </Suspense>
    );
  }
  const report = openableReport(reportName);
  if (!report) {
    if (PLANNED_REPORTS.has(reportName)) return <Placeholder title="Отчёт" text="Этот отчёт скоро появится." />;
    return <ErrorPage status={404} />;
  }
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

/** `new/media/:reportName[/:mediaId]`: media reports are all still to come. */
export function MediaReportRoute() {
  const { reportName = '' } = useParams();
  if (!PLANNED_MEDIA_REPORTS.has(reportName)) return <ErrorPage status={404} />;
  return <Placeholder title="Медиа-отчёт" text="Медиа-отчёты скоро появятся." />;
}
