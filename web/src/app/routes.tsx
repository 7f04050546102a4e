/**
 * The route table of spec 000 §2.1: redirects, the screens under /stat, and 404 for anything else.
 * Redirects are loaders, so they happen before anything renders (and can be tested without a DOM).
 */
import { isRouteErrorResponse, Link, redirect, useRouteError, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { ErrorPage } from '../pages/ErrorPage';
import { Placeholder } from '../pages/Placeholder';
import { MediaReportRoute, ReportRoute } from '../reports/ReportRoute';
import { ProjectLayout } from './ProjectLayout';
import { Shell } from './Shell';

/** The demo project every visitor may read (spec 000 §1). */
export const DEMO_PROJECT_ID = '7596044';

const to = (target: string) => () => redirect(target);

/** `/projects/*` → `/stat/projects/*`, keeping the query string. */
function legacyProjects({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return redirect(`/stat${url.pathname}${url.search}`);
}

/** A redirect inside a project that keeps the query string. */
function inProject(section: string) {
  return ({ params, request }: LoaderFunctionArgs) =>
    redirect(`/stat/projects/${params.projectId ?? ''}/${section}${new URL(request.url).search}`);
}

/** Errors thrown while routing or rendering: 404 for unknown routes, else the 500 page. */
function RouteError() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <Shell>
      <ErrorPage status={status} />
    </Shell>
  );
}

const soon = (title: string) => <Placeholder title={title} />;

/** The whole route table. */
export const routes: RouteObject[] = [
  { path: '/', loader: to('/stat/projects') },
  { path: '/create', loader: to('/stat/create') },
  { path: '/login', loader: to('/stat/projects?login') },
  { path: '/projects/*', loader: legacyProjects },
  {
    element: <Shell />,
    errorElement: <RouteError />,
    children: [
      { path: '/stat', loader: to('/stat/projects') },
      { path: '/stat/login', loader: to('/stat/projects') },
      {
        path: '/stat/projects',
        element: (
          <Placeholder title="Мои сайты" text="Список сайтов скоро появится. Пока можно посмотреть отчёты демо-проекта:">
            <p>
              <Link to={`/stat/projects/${DEMO_PROJECT_ID}/new/report/summary`}>Посещаемость демо-проекта {DEMO_PROJECT_ID}</Link>
            </p>
          </Placeholder>
        ),
      },
      { path: '/stat/projects/deleted', element: soon('Удалённые сайты') },
      { path: '/stat/create', element: soon('Добавить сайт') },
      { path: '/stat/docs/*', element: soon('Документация') },
      {
        path: '/stat/projects/:projectId',
        element: <ProjectLayout />,
        children: [
          { index: true, loader: inProject('dashboard') },
          { path: 'dashboard', element: soon('Дашборд') },
          { path: 'settings', loader: inProject('settings/counter') },
          { path: 'settings/counter', element: soon('Настройки счётчика') },
          { path: 'settings/rating', element: soon('Участие в рейтинге') },
          { path: 'settings/access', element: soon('Управление доступом') },
          { path: 'constructor', element: soon('Конструктор отчётов') },
          { path: 'goals', element: soon('Цели') },
          { path: 'conversions', element: soon('Конверсии') },
          { path: 'conversions/:conversionId', element: soon('Конверсия') },
          { path: 'funnels', element: soon('Воронки') },
          { path: 'export', element: soon('Выгрузка данных') },
          { path: 'post_click', element: soon('Пост-клик') },
          { path: 'import_data_from_ym', element: soon('Импорт данных') },
          { path: 'new/report/:reportName', element: <ReportRoute /> },
          { path: 'new/media/:reportName', element: <MediaReportRoute /> },
          { path: 'new/media/:reportName/:mediaId', element: <MediaReportRoute /> },
          { path: '*', element: <ErrorPage status={404} /> },
        ],
      },
      { path: '*', element: <ErrorPage status={404} /> },
    ],
  },
];

