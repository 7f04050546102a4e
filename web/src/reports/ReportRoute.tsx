import { lazy, Suspense } from 'react';
import { CONSTRUCTOR_TEXTS } from '@stat/schemas/reports';
import { useParams } from 'react-router-dom';
import { ErrorPage } from '../pages/ErrorPage';
import { Placeholder } from '../pages/Placeholder';
import { ReportSkeleton } from './framework/ReportSkeleton';
import { openableReport, PLANNED_MEDIA_REPORTS, PLANNED_REPORTS, reportHint, reportView } from './registry';

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
  if (!report) {
    if (PLANNED_REPORTS.has(reportName)) return <Placeholder title="Отчёт" text="Этот отчёт скоро появится." />;
    return <ErrorPage status={404} />;
  }
  const View = reportView(report);
  const hint = reportHint(report.name);
  return (
    <Suspense fallback={<ReportSkeleton title={report.title} {...(hint ? { hint } : {})} />}>
      <View key={`${projectId}/${report.name}`} projectId={projectId} report={report} {...(hint ? { hint } : {})} />
    </Suspense>
  );
}

/** `new/media/:reportName[/:mediaId]`: media reports are all still to come. */
export function MediaReportRoute() {
  const { reportName = '' } = useParams();
  if (!PLANNED_MEDIA_REPORTS.has(reportName)) return <ErrorPage status={404} />;
  return <Placeholder title="Медиа-отчёт" text="Медиа-отчёты скоро появятся." />;
}
