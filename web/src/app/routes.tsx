/**
 * The route table of spec 000 §2.1: redirects, the screens under /stat, and 404 for everything else.
 * Redirects are loaders, so they happen before anything renders (and can be tested without a DOM).
 * Every screen is loaded on demand (React.lazy per route); the initial bundle holds the shell.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { isRouteErrorResponse, Navigate, redirect, useLocation, useRouteError, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { Spinner } from '../components/ui';
import { loginAddress, returnPath } from '../lib/api';
import { ErrorPage } from '../pages/ErrorPage';
import { Placeholder } from '../pages/Placeholder';
import { MediaReportRoute, ReportRoute } from '../reports/ReportRoute';
import { isStaffLike } from './menu';
import { ProjectLayout } from './ProjectLayout';
import { useSession } from './session';
import { Shell } from './Shell';

;

const AuthPage = lazy(() => import('../pages/auth/AuthPage'));
const ProjectsPage = lazy(() => import('../pages/projects/ProjectsPage'));
const CreatePage = lazy(() => import('../pages/create/CreatePage'));
const SettingsLayout = lazy(() => import('../pages/settings/SettingsLayout'));
const CounterSettings = lazy(() => import('../pages/settings/CounterSettings'));
const RatingSettings = lazy(() => import('../pages/settings/RatingSettings'));
const AccessSettings = lazy(() => import('../pages/settings/AccessSettings'));
const DocsPage = lazy(() => import('../pages/docs/DocsPage'));
const ConstructorTemplatesPage = lazy(() => import('../pages/constructor/TemplatesPage'));
const DashboardPage = lazy(() => import('../pages/dashboard/DashboardPage'));
const ExportPage = lazy(() => import('../pages/export/ExportPage'));
const GoalsPage = lazy(() => import('../pages/goals/GoalsPage'));
const FunnelsPage = lazy(() => import('../pages/funnels/FunnelsPage'));
const ConversionsPage = lazy(() => import('../pages/conversions/ConversionsPage'));
const ConversionPage = lazy(() => import('../pages/conversions/ConversionPage'));

/**
 * A route that only redirects. Its loader answers before anything renders; the router is told so
 * anyway, or a page load at its address warns of a leaf route with no element and of no
 * HydrateFallback: `element: null` renders nothing, and the fallback is what shows (the spinner)
 * while the loader runs on the first load.
 */
function redirecting(loader: (args: LoaderFunctionArgs) => Response): Pick<RouteObject, 'loader' | 'element' | 'hydrateFallbackElement'> {
  return { loader, element: null, hydrateFallbackElement: <PageFallback /> };
}

const to = (target: string) => redirecting(() => redirect(target));

/** `/projects/*` → `/stat/projects/*`, keeping the query string. */
const legacyProjects = redirecting(({ request }) => {
  const url = new URL(request.url);
  return redirect(`/stat${url.pathname}${url.search}`);
});

/** A redirect inside a project that keeps the query string. */
function inProject(section: string) {
  return redirecting(({ params, request }) => redirect(`/stat/projects/${params.projectId ?? ''}/${section}${new URL(request.url).search}`));
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

/** What a screen shows while its code loads: a spinner in the space the screen will take. */
function PageFallback() {
  return (
    <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight: 420, color: 'var(--accent)' }} aria-busy="true">
      <Spinner size={28} label="Загрузка" />
    </div>
  );
}

const page = (element: ReactNode) => <Suspense fallback={<PageFallback />}>{element}</Suspense>;

/** A screen for logged-in users: others go to the login page with the return address. */
function RequireUser({ children }: { readonly children: ReactNode }) {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <PageFallback />;
  if (state.status === 'anonymous') return <Navigate to={loginAddress(`${location.pathname}${location.search}${location.hash}`)} replace />;
  return <>{children}</>;
}

/**
 * `/stat/projects`: the sites list for a logged-in user; the login page (our own) for a visitor
 * and whenever `?login` or `?register` is in the address. A logged-in user who lands on
 * `?login` goes on to the return address.
 */
function ProjectsRoute({ deleted = false }: { readonly deleted?: boolean }) {
  const { state } = useSession();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const wantsAuth = params.has('login') || params.has('register');
  if (state.status === 'loading') return <PageFallback />;
  if (state.status === 'anonymous') {
    if (deleted) return <Navigate to={loginAddress('/stat/projects/deleted')} replace />;
    const mode = params.has('register') ? 'register' : 'login';
    // Keyed by mode: switching between «Вход» and «Регистрация» starts a clean form (no typed
    // password, no error of the other form).
    return page(<AuthPage key={mode} mode={mode} />);
  }
  if (wantsAuth) return <Navigate to={returnPath(params.get('back'))} replace />;
  return page(<ProjectsPage key={deleted ? 'deleted' : 'active'} deleted={deleted} />);
}

/** A section the specification labels «Бета» (document 3): its title with the label. */
const beta = (title: string) => <Placeholder title={title} badge="Бета" />;

/**
 * A staff-only section (document 3: the export page needs is_top100_staff or
 * can_read_dev_reports): 403 for other users (spec 000 §6), the login page for visitors.
 */
function StaffOnly({ children }: { readonly children: ReactNode }) {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <PageFallback />;
  if (state.status === 'anonymous') return <Navigate to={loginAddress(`${location.pathname}${location.search}`)} replace />;
  if (!isStaffLike(state.user)) return <ErrorPage status={403} />;
  return <>{children}</>;
}

/** The whole route table. */
export const routes: RouteObject[] = [
  { path: '/', ...to('/stat/projects') },
  { path: '/create', ...to('/stat/create') },
  { path: '/login', ...to('/stat/projects?login') },
  { path: '/projects/*', ...legacyProjects },
  {
    element: <Shell />,
    errorElement: <RouteError />,
    children: [
      { path: '/stat', ...to('/stat/projects') },
      { path: '/stat/login', ...to('/stat/projects') },
      { path: '/stat/projects', element: <ProjectsRoute /> },
      { path: '/stat/projects/deleted', element: <ProjectsRoute deleted /> },
      { path: '/stat/create', element: <RequireUser>{page(<CreatePage />)}</RequireUser> },
      { path: '/stat/docs/*', element: page(<DocsPage />) },
      {
        path: '/stat/projects/:projectId',
        element: <ProjectLayout />,
        children: [
          { index: true, ...inProject('dashboard') },
          { path: 'dashboard', element: page(<DashboardPage />) },
          {
            path: 'settings',
            element: page(<SettingsLayout />),
            children: [
              { index: true, ...inProject('settings/counter') },
              { path: 'counter', element: page(<CounterSettings />) },
              { path: 'rating', element: page(<RatingSettings />) },
              { path: 'access', element: page(<AccessSettings />) },
            ],
          },
          { path: 'constructor', element: page(<ConstructorTemplatesPage />) },
          { path: 'goals', element: page(<GoalsPage />) },
          { path: 'conversions', element: page(<ConversionsPage />) },
          { path: 'conversions/:conversionId', element: page(<ConversionPage />) },
          { path: 'funnels', element: page(<FunnelsPage />) },
          { path: 'export', element: <StaffOnly>{page(<ExportPage />)}</StaffOnly> },
          { path: 'post_click', element: beta('Передача целевых событий в Яндекс Директ') },
          { path: 'import_data_from_ym', element: beta('Получение событий от Яндекс Метрики') },
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
