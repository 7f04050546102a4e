import { Suspense } from 'react';
import { useParams } from 'react-router-dom';
import { ErrorPage } from '../pages/ErrorPage';
import { Placeholder } from '../pages/Placeholder';
import { ReportSkeleton } from './framework/ReportSkeleton';
import { PLANNED_MEDIA_REPORTS, PLANNED_REPORTS, REPORTS } from './registry';

/** `new/report/:reportName`: the report's view, a placeholder for planned ones, else 404. */
export function ReportRoute() {
  const { projectId = '', reportName = '' } = useParams();
  const report = Object.hasOwn(REPORTS, reportName) ? REPORTS[reportName] : undefined;
  if (!report) {
    if (PLANNED_REPORTS.has(reportName)) return <Placeholder title="Отчёт" text="Этот отчёт скоро появится." />;
    return <ErrorPage status={404} />;
  }
  const View = report.view;
  return (
    <Suspense fallback={<ReportSkeleton title={report.title} />}>
      <View key={`${projectId}/${report.name}`} projectId={projectId} report={report} />
    </Suspense>
  );
}

/** `new/media/:reportName[/:mediaId]`: media reports are all still to come. */
export function MediaReportRoute() {
  const { reportName = '' } = useParams();
  if (!PLANNED_MEDIA_REPORTS.has(reportName)) return <ErrorPage status={404} />;
  return <Placeholder title="Медиа-отчёт" text="Медиа-отчёты скоро появятся." />;
}
