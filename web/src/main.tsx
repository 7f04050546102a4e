import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { NotificationProvider } from './app/Notifications';
import { preloadForPath } from './app/preload';
import { routes } from './app/routes';
import { SessionProvider } from './app/session';
import { SnackbarProvider } from './app/Snackbar';
import { loginAddress } from './lib/api';
import './app/global.css';

// Before the first render: the report's project, code, server time and data load alongside the session.
preloadForPath(window.location.pathname, window.location.search);
const router = createBrowserRouter(routes);
const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

/** A session that cannot be refreshed ends on the login page, which returns here afterwards. */
const onSessionLost = () => {
  const { pathname, search, hash } = router.state.location;
  void router.navigate(loginAddress(`${pathname}${search}${hash}`), { replace: true });
};

createRoot(root).render(
  <StrictMode>
    <SessionProvider onLost={onSessionLost}>
      <SnackbarProvider>
        <NotificationProvider>
          <RouterProvider router={router} />
        </NotificationProvider>
      </SnackbarProvider>
    </SessionProvider>
  </StrictMode>,
);
